#!/usr/bin/env python3
"""How many positions of the forced-wins suite a search reports exactly.

For each position (K plies to the end with best play, K > 0) the engine searches with
`go depth K+EXTRA` (the normal search, default EXTRA 2) or `go mate M` (`--mate`: the
proven search, M = moves for the winner), and the reported score is compared with the
suite's: `mate (K+1)/2` when the side to move wins, `mate -K/2` when it loses.

Usage: scripts/suite-exact.py [--extra 2] [--mate] [BINARY]
"""
import argparse
import os
import subprocess
import time

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument("--extra", type=int, default=2)
parser.add_argument("--mate", action="store_true")
parser.add_argument("binary", nargs="?", default=os.path.join(here, "../target/release/breakthrough"))
args = parser.parse_args()

cases = []
for line in open(os.path.join(here, "../tests/data/forced-wins.epd")):
    if line.startswith("#") or not line.strip():
        continue
    fen, _, plies = [f.strip() for f in line.split(";")]
    k = int(plies.split()[1])
    if k > 0:
        cases.append((fen, k))

commands = []
for fen, k in cases:
    limit = f"mate {(k + 1) // 2}" if args.mate else f"depth {k + args.extra}"
    commands.append(f"ucinewgame\nposition fen {fen}\ngo {limit}\n")
started = time.time()
out = subprocess.run([args.binary], input="".join(commands), capture_output=True, text=True).stdout
seconds = time.time() - started

exact = 0
blocks = out.split("bestmove")[:-1]
for (fen, k), block in zip(cases, blocks):
    scores = [l.split(" score ")[1].split()[:2] for l in block.splitlines()
              if l.startswith("info depth") and " score " in l and "bound" not in l]
    want = ["mate", str((k + 1) // 2 if k % 2 else -k // 2)]
    if args.mate and k % 2 == 0:
        exact += "no forced win" in block
    elif scores and scores[-1] == want:
        exact += 1
how = "go mate M" if args.mate else f"go depth K+{args.extra}"
print(f"{how}: {exact} of {len(cases)} exact ({seconds:.1f} s)")
