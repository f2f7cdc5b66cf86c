#!/usr/bin/env bash
# A match of our engine against Fairy-Stockfish, refereed by `breakthrough match`.
# Usage: scripts/match-fs.sh VARIANT GAMES TC [OUTDIR] [extra match args...]
#   VARIANT: breakthrough (Fairy-Stockfish plays btnmr) or capture-only (btcap)
#   TC: seconds+increment per game, e.g. 10+0.1
# Writes OUTDIR/VARIANT.pgn and OUTDIR/VARIANT.json (OUTDIR defaults to matches/).
# ENGINE=path plays that binary instead of building target/release/breakthrough (so a long
# match can run from a copy while the tree changes); CONCURRENCY defaults to 2; THREADS
# (default 1) is each engine's Threads option; FS_TC gives Fairy-Stockfish a time control of its
# own (time odds: `FS_TC=40+0.4 scripts/match-fs.sh breakthrough 100 5+0.05`). INPUT_LOG=DIR
# logs what our engine is sent, one file per engine process, for scripts/clock-use.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:?variant}; games=${2:?games}; tc=${3:?tc}; out=${4:-matches}
shift $(( $# < 4 ? $# : 4 ))
source scripts/fairy-stockfish.sh
fs=$FS
ini=$FS_VARIANTS
case "$variant" in
  breakthrough) fsv=btnmr ;;
  capture-only) fsv=btcap ;;
  *) echo "unknown variant $variant" >&2; exit 2 ;;
esac
source scripts/engine-binary.sh
mkdir -p "$out"
player=$ENGINE
if [ -n "${INPUT_LOG:-}" ]; then
  mkdir -p "$INPUT_LOG"
  player=$(realpath "$INPUT_LOG")/engine.sh
  printf '#!/bin/sh\ntee -a "%s/in.$$" | "%s"\n' "$(realpath "$INPUT_LOG")" "$(realpath "$ENGINE")" > "$player"
  chmod +x "$player"
fi
"$ENGINE" match --variant "$variant" \
  --engine "cmd=$player name=breakthrough" \
  --engine "cmd=$fs name=fairy-stockfish option.VariantPath=$ini option.UCI_Variant=$fsv${FS_TC:+ tc=$FS_TC}" \
  --each "tc=$tc option.Threads=${THREADS:-1}" --games "$games" --random-plies 4 --concurrency "${CONCURRENCY:-2}" \
  --pgn "$out/$variant.pgn" --json "$out/$variant.json" "$@"
