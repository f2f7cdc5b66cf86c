#!/usr/bin/env bash
# Submits a sharded run to Slurm: an array job of N tasks and a merge job after it.
#   scripts/slurm/submit.sh KIND N OUTDIR [ARGS...]      (KIND: match, datagen or solve)
#   scripts/slurm/submit.sh match 16 runs/sprt --engine cmd=./new nodes=20000 --engine cmd=./old nodes=20000 --games 2000 --random-plies 8 --sprt elo0=0 elo1=10
#   scripts/slurm/submit.sh datagen 32 runs/r6 --games 64000 --nodes 5000 --hash 1 --seed 106 --threads 1
#   scripts/slurm/submit.sh solve - runs/6x6 --board 6x6 --variant capture-only --split 4 --threads 1
# For solve, N is the split's job count (give '-'). OUTDIR must be on a file system every
# node sees; the binary is $BREAKTHROUGH (exported to the jobs), else `breakthrough` on the
# PATH. Extra sbatch options (partition, time, memory) go in $SBATCH_OPTIONS. With
# WAIT=1 the script returns when the merge job has ended, with its exit code; the merge's
# output is OUTDIR/merge.out. Prints the two job ids.
set -euo pipefail
usage_lines=12
# shellcheck source=../cluster/args.sh
source "$(dirname "$0")/../cluster/args.sh"
mkdir -p "$out/slurm"
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_OPTIONS:-} --array="1-$n" --output="$out/slurm/%a.out" \
  "$here/slurm/job.sbatch" "$here" "$kind" "$n" "$out" "$@")
wait_flag=()
if [ "${WAIT:-0}" = 1 ]; then wait_flag=(--wait); fi
echo "array job $array"
# shellcheck disable=SC2086
sbatch --parsable ${SBATCH_OPTIONS:-} "${wait_flag[@]}" --dependency="afterany:$array" \
  --output="$out/merge.out" "$here/slurm/merge.sbatch" "$here" "$kind" "$n" "$out" "$@" |
  sed 's/^/merge job /'
