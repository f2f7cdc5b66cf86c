#!/usr/bin/env bash
# Search speed from the 8x8 start with 1 and 2 threads, side by side in one run:
# nodes per second and depth reached in `go movetime 1000`, and the time to reach
# DEPTH with `go depth DEPTH` (median over ROUNDS, interleaved).
# Usage: scripts/bench-threads.sh [ROUNDS=5] [DEPTH=14]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}; depth=${2:-14}
cargo build --release --quiet
run() { # threads, go arguments -> last info line
  printf 'setoption name Threads value %s\nposition startpos\ngo %s\n' "$1" "$2" \
    | target/release/breakthrough | grep '^info depth' | tail -1
}
field() { sed -n "s/.* $1 \([0-9]*\) .*/\1/p"; }
for r in $(seq "$rounds"); do
  for t in 1 2; do
    line=$(run "$t" "movetime 1000")
    echo "1s $t $(echo "$line" | field depth) $(echo "$line" | field nps)"
    line=$(run "$t" "depth $depth")
    echo "depth $t $(echo "$line" | field time)"
  done
done | python3 -c '
import sys, statistics
one = {1: [], 2: []}; nps = {1: [], 2: []}; tdepth = {1: [], 2: []}
for line in sys.stdin:
    w = line.split()
    if w[0] == "1s":
        one[int(w[1])].append(int(w[2])); nps[int(w[1])].append(int(w[3]))
    else:
        tdepth[int(w[1])].append(int(w[2]))
for t in (1, 2):
    print(f"threads {t}: depth in 1 s: median {statistics.median(one[t])}, nps median {statistics.median(nps[t]):.0f}, "
          f"time to depth '"$depth"': median {statistics.median(tdepth[t])} ms")
ratios = [a / b for a, b in zip(tdepth[1], tdepth[2])]
print(f"time to depth '"$depth"', 1 thread over 2: median {statistics.median(ratios):.2f}x")
'
