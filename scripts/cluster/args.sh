# Sourced by the runners (scripts/parallel/run.sh, scripts/slurm/submit.sh) with their
# arguments KIND N OUTDIR [ARGS...]: prints the runner's usage (its header, lines 2 to
# $usage_lines) when they are short, counts a solve's jobs (N given as '-'), makes OUTDIR
# and its absolute path. Sets kind, n, out, here (scripts/) and bin; ARGS stay in "$@".
if [ $# -lt 3 ]; then
  sed -n "2,${usage_lines}p" "$0" >&2
  exit 2
fi
kind=$1 n=$2 out=$3
shift 3
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BREAKTHROUGH:-breakthrough}
if [ "$kind" = solve ]; then
  n=$("$bin" solve "$@" | wc -l)
  echo "solve: $n jobs" >&2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
