#!/usr/bin/env python3
"""Search speed of two or more builds, side by side in one run.

Each round runs every binary, in turn, through fixed-depth searches (`go depth DEPTH`,
standard rules, 64 MiB table, `ucinewgame` before each) of the same four positions and
takes nodes / time over the four. Prints each binary's median nodes per second and, for
two binaries, the ratio of the second to the first. With a fixed depth the node counts
must agree between builds that search alike; a difference is reported.

A binary may carry options after commas, set before the searches: `BINARY,Use NNUE=false`
or `BINARY,EvalFile=nets/x.nnue` compares evaluations of one build. `--variant` sets the rule
set (capture-only searches its own third position: the standard one steps diagonally).

Usage: scripts/bench-nps.py [--rounds 9] [--depth 17] [--variant V] BINARY[,OPT=VAL...]...
"""
import argparse
import statistics
import subprocess

POSITIONS = [
    "startpos",
    "startpos moves a2a3 h7h6 b2b3 g7g6 c2c3 f7f6",
    "startpos moves d2d3 e7e6 d3d4 e6e5 d4e5 d7e6 c2c3 c7c6 f2f3 f7f6 g2g3 b7b6",
    "fen 1pp2ppp/p2pp3/8/2P1Pp2/1P4P1/P2P1P1P/8/PPP3PP w",
]
CAPTURE_ONLY_THIRD = "startpos moves d2d3 e7e6 d3d4 e6e5 d4e5 d7d6 e5d6 c7d6 c2c3 f7f6"


def search(spec, depth, variant):
    """Total (nodes, milliseconds) over the positions."""
    binary, *options = spec.split(",")
    engine = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    engine.stdin.write(f"setoption name UCI_Variant value {variant}\n"
                       "setoption name Hash value 64\n")
    for option in options:
        name, value = option.split("=", 1)
        engine.stdin.write(f"setoption name {name} value {value}\n")
    nodes = ms = 0
    positions = list(POSITIONS)
    if variant == "capture-only":
        positions[2] = CAPTURE_ONLY_THIRD
    for position in positions:
        engine.stdin.write(f"ucinewgame\nposition {position}\ngo depth {depth}\n")
        engine.stdin.flush()
        last = None
        for line in engine.stdout:
            if line.startswith("info depth"):
                last = line.split()
            elif line.startswith("bestmove"):
                break
            elif "error" in line:
                raise SystemExit(f"{binary}: {line.strip()}")
        if last is None:
            raise SystemExit(f"{binary}: no info line for {position}")
        nodes += int(last[last.index("nodes") + 1])
        ms += int(last[last.index("time") + 1])
    engine.stdin.write("quit\n")
    engine.stdin.close()
    engine.wait()
    return nodes, max(ms, 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--depth", type=int, default=17)
    parser.add_argument("--variant", default="breakthrough")
    parser.add_argument("binaries", nargs="+")
    args = parser.parse_args()
    nps = {b: [] for b in args.binaries}
    nodes = {}
    for _ in range(args.rounds):
        for binary in args.binaries:
            n, ms = search(binary, args.depth, args.variant)
            nodes[binary] = n
            nps[binary].append(n * 1000 / ms)
    for binary in args.binaries:
        print(f"{binary}: median {statistics.median(nps[binary]) / 1e6:.2f}M nps "
              f"over {args.rounds} rounds, {nodes[binary]} nodes a round")
    if len(set(nodes.values())) > 1:
        print("note: the builds searched different trees (node counts differ)")
    if len(args.binaries) == 2:
        first, second = (statistics.median(nps[b]) for b in args.binaries)
        print(f"ratio second/first: {second / first:.3f}")


if __name__ == "__main__":
    main()
