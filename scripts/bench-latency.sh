#!/usr/bin/env bash
# Protocol latency of the engine, medians over ROUNDS: `stop` during `go infinite` to
# `bestmove`, `isready` during a search to `readyok`, and `go movetime T` to `bestmove`.
# Usage: scripts/bench-latency.sh [ROUNDS=20] [MOVETIME=1000]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
python3 - "${1:-20}" "${2:-1000}" <<'PY'
import subprocess, sys, time, statistics
rounds, movetime = int(sys.argv[1]), int(sys.argv[2])
p = subprocess.Popen(["target/release/breakthrough"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(line): p.stdin.write(line + "\n"); p.stdin.flush()
def wait(prefix):
    while True:
        line = p.stdout.readline()
        if line.startswith(prefix): return time.perf_counter()
stop, ready, mt = [], [], []
for _ in range(rounds):
    send("position startpos"); send("go infinite"); time.sleep(0.3)
    t = time.perf_counter(); send("isready"); ready.append(wait("readyok") - t)
    t = time.perf_counter(); send("stop"); stop.append(wait("bestmove") - t)
    t = time.perf_counter(); send(f"go movetime {movetime}"); mt.append(wait("bestmove") - t)
send("quit")
ms = lambda xs: f"median {statistics.median(xs) * 1000:.2f} ms, max {max(xs) * 1000:.2f} ms"
print(f"stop -> bestmove: {ms(stop)}")
print(f"isready -> readyok during search: {ms(ready)}")
print(f"go movetime {movetime} -> bestmove: {ms(mt)}")
PY
