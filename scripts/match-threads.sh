#!/usr/bin/env bash
# Our engine with 2 threads against itself with 1, at one time control, one game at a
# time (the 2-thread side needs both cores while it thinks).
# Usage: scripts/match-threads.sh VARIANT GAMES TC [OUTDIR] [extra match args...]
# ENGINE=path plays that binary instead of building target/release/breakthrough.
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:?variant}; games=${2:?games}; tc=${3:?tc}; out=${4:-matches}
shift $(( $# < 4 ? $# : 4 ))
source scripts/engine-binary.sh
mkdir -p "$out"
"$ENGINE" match --variant "$variant" \
  --engine "cmd=$ENGINE name=threads-2 option.Threads=2" \
  --engine "cmd=$ENGINE name=threads-1 option.Threads=1" \
  --each "tc=$tc" --games "$games" --random-plies 4 --concurrency 1 \
  --pgn "$out/$variant-threads.pgn" --json "$out/$variant-threads.json" "$@"
