# Sourced by the scripts that spar with Fairy-Stockfish: sets FS to its binary (FAIRY_STOCKFISH
# names another) and FS_VARIANTS to scripts/fs-variants.ini, or stops with one line saying how
# to install it.
FS=${FAIRY_STOCKFISH:-$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)}
if [ ! -x "$FS" ]; then
  echo "fairy-stockfish not found: install it with 'apt-get install fairy-stockfish' (it lands in /usr/games), or set FAIRY_STOCKFISH=path" >&2
  exit 2
fi
FS_VARIANTS=$(realpath "$(dirname "${BASH_SOURCE[0]}")/fs-variants.ini")
