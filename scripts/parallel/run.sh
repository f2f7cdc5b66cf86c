#!/usr/bin/env bash
# Runs a sharded run with GNU Parallel, then its merge:
#   scripts/parallel/run.sh KIND N OUTDIR [ARGS...]      (KIND: match, datagen or solve)
# For solve, N is the split's job count (give '-'). Jobs run $JOBS at a time (default: one
# per core); OUTDIR/joblog records each, and running the same command again
# (--resume-failed) skips the jobs that ended well and reruns the rest (a solve job not
# proven within its --time-limit counts as failed). Over ssh hosts, with OUTDIR and the
# binary on a file system the hosts share, set PARALLEL_HOSTS (parallel's -S list), e.g.
#   PARALLEL_HOSTS=8/node1,8/node2 BREAKTHROUGH=/shared/bin/breakthrough scripts/parallel/run.sh ...
# The merge's output is printed and kept in OUTDIR/merge.out.
set -euo pipefail
usage_lines=9
# shellcheck source=../cluster/args.sh
source "$(dirname "$0")/../cluster/args.sh"
hosts=()
if [ -n "${PARALLEL_HOSTS:-}" ]; then
  hosts=(-S "$PARALLEL_HOSTS" --env BREAKTHROUGH --env JOB_LOG --workdir "$PWD")
fi
status=0
export JOB_LOG=1
# -q: the job's arguments reach it as given (an --engine's spaces and quotes included).
seq 1 "$n" | parallel --will-cite -q --joblog "$out/joblog" --resume-failed -j "${JOBS:-100%}" "${hosts[@]}" \
  "$here/cluster/job.sh" "$kind" {} "$n" "$out" "$@" || status=$?
if [ $status -ne 0 ]; then
  echo "$status jobs failed (see $out/joblog and $out/job-I.out); merging what finished" >&2
fi
"$here/cluster/merge.sh" "$kind" "$n" "$out" "$@" 2>&1 | tee "$out/merge.out"
exit "${PIPESTATUS[0]}"
