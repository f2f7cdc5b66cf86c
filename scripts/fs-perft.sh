#!/usr/bin/env bash
# Regenerates tests/data/fs-perft.txt: perft counts computed by Fairy-Stockfish,
# an independent implementation, for boards and positions tests/data/perft-oracle.json lacks.
# Usage: scripts/fs-perft.sh [path to fairy-stockfish]   (apt-get install fairy-stockfish)
set -euo pipefail
cd "$(dirname "$0")/.."
FAIRY_STOCKFISH=${1:-${FAIRY_STOCKFISH:-}}
source scripts/fairy-stockfish.sh
fs=$FS
ini=$(mktemp)
trap 'rm -f "$ini"' EXIT
# btcap and btnmr first: the size variants below inherit from them.
cat "$FS_VARIANTS" scripts/fs-sizes.ini >"$ini"

# Each case: our variant | Fairy-Stockfish variant | FEN (empty: its start) | depth
cases=(
  "breakthrough|bt3x4||6"
  "breakthrough|bt8x5||5"
  "breakthrough|bt6x8||5"
  "capture-only|btc4x8||7"
  "capture-only|btc7x6||5"
  "breakthrough|btnmr|p2p3p/1pppp1pP/2p1p3/p2Pp2p/P2P4/3p3P/P1P2P1P/P1P1PP1P w - - 0 1|4"
  "breakthrough|btnmr|3p4/1pppppp1/3p1p2/p3P2P/P3P2p/PP1p1P1P/2P4P/5P2 b - - 0 1|4"
  "breakthrough|btnmr|ppp1p2p/2p1pppp/2p2P2/1p5p/1p2PPpP/P1Pp4/PPPPP1P1/1P1P2P1 w - - 0 1|4"
  "breakthrough|btnmr|3pp3/1p1p2pp/p2p4/2p5/pp6/8/P2P3P/PPP2PPP b - - 0 1|5"
  "capture-only|btcap|p2p3p/1pppp1pP/2p1p3/p2Pp2p/P2P4/3p3P/P1P2P1P/P1P1PP1P w - - 0 1|5"
  "capture-only|btcap|3p4/1pppppp1/3p1p2/p3P2P/P3P2p/PP1p1P1P/2P4P/5P2 b - - 0 1|5"
  "capture-only|btcap|ppp1p2p/2p1pppp/2p2P2/1p5p/1p2PPpP/P1Pp4/PPPPP1P1/1P1P2P1 w - - 0 1|5"
  "capture-only|btcap|3pp3/1p1p2pp/p2p4/2p5/pp6/8/P2P3P/PPP2PPP b - - 0 1|6"
)

echo "# variant ; FEN ; depth ; nodes -- computed by Fairy-Stockfish with scripts/fs-perft.sh"
for c in "${cases[@]}"; do
  IFS='|' read -r ours theirs fen depth <<<"$c"
  if [ -z "$fen" ]; then position="position startpos"; else position="position fen $fen"; fi
  out=$(printf 'setoption name VariantPath value %s\nsetoption name UCI_Variant value %s\n%s\nd\ngo perft %s\nquit\n' \
    "$ini" "$theirs" "$position" "$depth" | "$fs")
  fen_used=$(grep -m1 '^Fen: ' <<<"$out" | sed 's/^Fen: //')
  nodes=$(grep -m1 '^Nodes searched: ' <<<"$out" | sed 's/^Nodes searched: //')
  echo "$ours ; $fen_used ; $depth ; $nodes"
done
