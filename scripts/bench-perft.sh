#!/usr/bin/env bash
# Perft speed against Fairy-Stockfish, measured side by side in one run.
# Ours: `breakthrough perft 7` (3,751,915,714 leaves) with 1 and 2 threads;
# Fairy-Stockfish: `go perft 6` (149,264,638 leaves). Each side is timed by wall
# clock around the whole process, the same way, interleaved over ROUNDS rounds.
# Usage: scripts/bench-perft.sh [ROUNDS=5]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
source scripts/fairy-stockfish.sh
fs=$FS
cargo build --release --quiet
ours=target/release/breakthrough

now() { date +%s.%N; }
time_cmd() { local t0; t0=$(now); "$@" >/dev/null 2>&1; awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }'; }
fs_perft6() { printf 'setoption name UCI_Variant value breakthrough\nposition startpos\ngo perft 6\nquit\n' | "$fs"; }

one=() two=() theirs=()
for r in $(seq "$rounds"); do
  t1=$(time_cmd "$ours" perft --threads 1 7)
  t2=$(time_cmd "$ours" perft --threads 2 7)
  tf=$(time_cmd fs_perft6)
  one+=("$t1") two+=("$t2") theirs+=("$tf")
  printf 'round %d: ours 1 thread %.3f s, ours 2 threads %.3f s, fairy-stockfish %.3f s\n' "$r" "$t1" "$t2" "$tf"
done

python3 - "${one[*]}" "${two[*]}" "${theirs[*]}" <<'PY'
import statistics, sys
one, two, fs = ([float(x) for x in a.split()] for a in sys.argv[1:4])
ours_leaves, fs_leaves = 3_751_915_714, 149_264_638
r1 = [ours_leaves / a / (fs_leaves / b) for a, b in zip(one, fs)]
r2 = [a / b for a, b in zip(one, two)]
print(f"median leaves/s: ours 1 thread {ours_leaves / statistics.median(one) / 1e6:.0f}M, "
      f"ours 2 threads {ours_leaves / statistics.median(two) / 1e6:.0f}M, "
      f"fairy-stockfish {fs_leaves / statistics.median(fs) / 1e6:.0f}M")
print(f"median ratio ours(1 thread)/fairy-stockfish: {statistics.median(r1):.1f}x")
print(f"median speed-up 2 threads over 1: {statistics.median(r2):.2f}x")
PY
