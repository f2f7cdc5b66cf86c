#!/usr/bin/env bash
# SPRT of one network file against another in the same engine binary, at a fixed number of
# nodes a move: two networks of one shape search equally fast, so equal nodes is equal time,
# and a game takes about a second instead of half a minute.
# Usage: scripts/sprt-nets.sh NEW BASE [VARIANT=breakthrough] [NODES=20000] [ELO0=0] [ELO1=10]
#   NEW, BASE: network files, or `built-in` (the binary's own) or `hand` (no network).
#   Environment: MAX_GAMES (4000), SEED (5: the random openings), START_FEN (another board:
#   games start there), TC (a clock, e.g. 5+0.05, instead of nodes: for networks of different
#   speed, or against `hand`), ENGINE (a binary; default a fresh release build), OUTDIR
#   (matches).
# Writes OUTDIR/sprt-NAME.pgn and .json; prints the table and the verdict.
set -euo pipefail
cd "$(dirname "$0")/.."
new=${1:?new network}; base=${2:?base network}
variant=${3:-breakthrough}; nodes=${4:-20000}; elo0=${5:-0}; elo1=${6:-10}
games=${MAX_GAMES:-4000}; seed=${SEED:-5}; out=${OUTDIR:-matches}
source scripts/engine-binary.sh
mkdir -p "$out"
eval_options() {
  case "$1" in
    built-in) echo "option.EvalFile=<built-in>" ;;
    hand) echo "'option.Use NNUE=false'" ;;
    *) echo "option.EvalFile=$(realpath "$1")" ;;
  esac
}
limit="nodes=$nodes"
[ -n "${TC:-}" ] && limit="tc=$TC"
name="$(basename "$new" .nnue)-vs-$(basename "$base" .nnue)-${limit#*=}"
openings=()
if [ -n "${START_FEN:-}" ]; then
  echo "$START_FEN" > "$out/$name.openings"
  openings=(--openings "$out/$name.openings")
fi
"$ENGINE" match --variant "$variant" \
  --engine "cmd=$ENGINE name=new $(eval_options "$new")" \
  --engine "cmd=$ENGINE name=base $(eval_options "$base")" \
  --each "$limit" --games "$games" --random-plies 8 --seed "$seed" --concurrency 2 \
  "${openings[@]}" --sprt elo0="$elo0" elo1="$elo1" alpha=0.05 beta=0.05 \
  --pgn "$out/$name.pgn" --json "$out/$name.json" | grep -v '^Finished game' || true
