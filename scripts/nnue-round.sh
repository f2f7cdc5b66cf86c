#!/usr/bin/env bash
# One round of the learned evaluation, end to end: the engine plays itself to make data
# (with the evaluation of the round before), a network is trained on it, its speed is
# measured, and it plays an SPRT (0, 10) against the evaluation of the round before.
#
# Usage: scripts/nnue-round.sh VARIANT ROUND [PREVIOUS]
#   VARIANT   breakthrough or capture-only (8x8)
#   ROUND     a number: names the data (data/rROUND-VARIANT.data) and seeds datagen with
#             ROUND + 1 (so `VARIANT 0 hand` makes the data of the built-in networks again)
#   PREVIOUS  the evaluation to beat and to make the data with: `hand` (round 0),
#             `built-in` (the network in the binary; the default) or a network file
# Environment (defaults in brackets):
#   POSITIONS [6000000] positions of data; NODES [5000] nodes per move in datagen;
#   EPOCHS [40]; LAMBDA [0.3]; EXTRA_DATA: more data files to train on (earlier rounds);
#   SPRT_TC [10+0.1]; SPRT_GAMES [2000] games at most; ENGINE: the binary (built if unset).
# Writes the network to nets/VARIANT-HASH.nnue (its description names the data and the
# settings), the SPRT's games to matches/, and a log to matches/nnue-round-VARIANT-ROUND.log.
# Data files already there are resumed, not overwritten. Takes about 90 minutes for 6M
# positions on a 2-core machine (engine.md, "The learned evaluation").
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:?variant}; round=${2:?round}; previous=${3:-built-in}
case "$variant" in
  breakthrough | capture-only) ;;
  *) echo "nnue-round.sh: VARIANT must be breakthrough or capture-only, not '$variant'" >&2; exit 2 ;;
esac
case "$round" in
  '' | *[!0-9]*) echo "nnue-round.sh: ROUND must be a number, not '$round'" >&2; exit 2 ;;
esac
positions=${POSITIONS:-6000000}; nodes=${NODES:-5000}; epochs=${EPOCHS:-40}
lambda=${LAMBDA:-0.3}; sprt_tc=${SPRT_TC:-10+0.1}; sprt_games=${SPRT_GAMES:-2000}
source scripts/engine-binary.sh
mkdir -p data nets matches
log=matches/nnue-round-$variant-$round.log
say() { echo "$*" | tee -a "$log" >&2; }

case "$previous" in
  hand) eval_flags=(--hand-eval); base_setting="Use NNUE=false" ;;
  built-in) eval_flags=(); base_setting="" ;;
  *)
    [ -f "$previous" ] || { echo "nnue-round.sh: no network file '$previous'" >&2; exit 2; }
    eval_flags=(--net "$previous"); base_setting="EvalFile=$(realpath "$previous")" ;;
esac

data=data/r$round-$variant.data
seed=$((round + 1))
say "round $round, $variant: data from $previous, $positions positions at $nodes nodes a move"
start=$(date +%s)
"$ENGINE" datagen --variant "$variant" --out "$data" --nodes "$nodes" \
  --positions "$positions" --seed "$seed" "${eval_flags[@]}" 2>>"$log"
datagen_s=$(( $(date +%s) - start ))
say "datagen: $datagen_s s"

start=$(date +%s)
note="data: datagen --nodes $nodes --random-plies 8 --seed $seed with the evaluation '$previous'"
read -r -a extra <<< "${EXTRA_DATA:-}"
net=$("$ENGINE" train "$data" "${extra[@]}" --epochs "$epochs" --lambda "$lambda" \
  --note "$note" 2> >(tee -a "$log" >&2))
train_s=$(( $(date +%s) - start ))
[ -f "$net" ] || { say "no network written"; exit 1; }
say "train: $train_s s, network $net ($(stat -c %s "$net") bytes)"

new_setting="EvalFile=$(realpath "$net")"
python3 scripts/bench-nps.py --rounds 5 --depth 15 --variant "$variant" \
  "$ENGINE,$new_setting" "$ENGINE${base_setting:+,$base_setting}" | tee -a "$log" >&2

"$ENGINE" match --variant "$variant" \
  --engine "cmd=$ENGINE name=new 'option.$new_setting'" \
  --engine "cmd=$ENGINE name=previous${base_setting:+ 'option.$base_setting'}" \
  --each "tc=$sprt_tc" --games "$sprt_games" --random-plies 6 --seed "$round" --concurrency 2 \
  --pgn "matches/nnue-round-$variant-$round.pgn" --json "matches/nnue-round-$variant-$round.json" \
  --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 | grep -v '^Finished game' | tee -a "$log"
