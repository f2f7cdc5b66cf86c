#!/usr/bin/env bash
# The merge after the jobs of scripts/cluster/job.sh:
#   scripts/cluster/merge.sh KIND N OUTDIR [ARGS...]
#   match    OUTDIR/shard-*.json -> OUTDIR/match.json, match.pgn and the table (names missing shards)
#   datagen  OUTDIR/shard-1..N.data, in order, repeats dropped -> OUTDIR/merged.data
#            (refused while a shard is unfinished)
#   solve    OUTDIR/answers.jsonl -> the root's value, or the jobs still open (same ARGS as the jobs);
#            with CERTIFICATES=1 (jobs and merge), the joined proof OUTDIR/root.proof
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 KIND N OUTDIR [ARGS...]" >&2
  exit 2
fi
kind=$1 n=$2 out=$3
shift 3
bin=${BREAKTHROUGH:-breakthrough}
case $kind in
  match)
    files=()
    for i in $(seq 1 "$n"); do
      if [ -f "$out/shard-$i.json" ]; then files+=("$out/shard-$i.json"); fi
    done
    if [ ${#files[@]} -eq 0 ]; then
      echo "no finished shard in $out (no shard-I.json)" >&2
      exit 1
    fi
    exec "$bin" match --merge "${files[@]}" --json "$out/match.json" --pgn "$out/match.pgn"
    ;;
  datagen)
    files=()
    for i in $(seq 1 "$n"); do
      if ! grep -q '"done":true' "$out/shard-$i.data.progress" 2>/dev/null; then
        echo "shard $i/$n of $out is not finished (no done shard-$i.data.progress)" >&2
        exit 1
      fi
      files+=("$out/shard-$i.data")
    done
    rm -f "$out/merged.data"
    exec "$bin" datagen --merge "${files[@]}" --out "$out/merged.data"
    ;;
  solve)
    # CERTIFICATES=1: the jobs' proofs joined into OUTDIR/root.proof once the root is proven.
    proof=()
    if [ "${CERTIFICATES:-0}" = 1 ]; then proof=(--certificate "$out/root.proof"); fi
    exec "$bin" solve "$@" --merge "$out/answers.jsonl" "${proof[@]}"
    ;;
  *)
    echo "unknown kind '$kind': match, datagen or solve" >&2
    exit 2
    ;;
esac
