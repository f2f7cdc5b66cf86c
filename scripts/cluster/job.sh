#!/usr/bin/env bash
# One job of a sharded run, for any job runner (Slurm, GNU Parallel, a Kubernetes indexed Job):
#   scripts/cluster/job.sh KIND I N OUTDIR [ARGS...]
#   match    the I-th of N shards of `breakthrough match ARGS`   -> OUTDIR/shard-I.json, .pgn
#   datagen  the I-th of N shards of `breakthrough datagen ARGS` -> OUTDIR/shard-I.data
#            (ARGS must give --games G: the shards slice the games 0..G)
#   solve    job I of `breakthrough solve ARGS` (ARGS give --split D) -> a line of OUTDIR/answers.jsonl
# Safe to run again: a finished job does nothing and a killed one goes on from its files.
# The binary is $BREAKTHROUGH, else `breakthrough` on the PATH; JOB_LOG=1 sends the job's
# output to OUTDIR/job-I.out.
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 KIND I N OUTDIR [ARGS...]" >&2
  exit 2
fi
kind=$1 i=$2 n=$3 out=$4
shift 4
bin=${BREAKTHROUGH:-breakthrough}
mkdir -p "$out"
if [ "${JOB_LOG:-0}" = 1 ]; then exec >"$out/job-$i.out" 2>&1; fi
case $kind in
  match) exec "$bin" match "$@" --shard "$i/$n" --json "$out/shard-$i.json" --pgn "$out/shard-$i.pgn" ;;
  datagen) exec "$bin" datagen "$@" --shard "$i/$n" --out "$out/shard-$i.data" ;;
  solve)
    # CERTIFICATES=1: each job writes its proof, which the merge joins into the root's.
    proof=()
    if [ "${CERTIFICATES:-0}" = 1 ]; then proof=(--certificate "$out/job-$i.proof"); fi
    exec "$bin" solve "$@" --job "$i" --answers "$out/answers.jsonl" "${proof[@]}"
    ;;
  *)
    echo "unknown kind '$kind': match, datagen or solve" >&2
    exit 2
    ;;
esac
