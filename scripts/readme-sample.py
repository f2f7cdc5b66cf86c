#!/usr/bin/env python3
"""The UCI session README.md shows, produced by the engine itself.

    scripts/readme-sample.py [BINARY]           print the session
    scripts/readme-sample.py --write [BINARY]   put it into README.md, between the
                                                `<!-- sample ... -->` markers

BINARY defaults to target/release/breakthrough. A person's lines start with `> `; the
engine's option lines and all but the first and last `info` lines are shown as `...`.
tests/readme.rs runs this script and checks README.md against what it prints, with the
numbers that vary from run to run (nps, time) left out of the comparison.
"""

import os
import re
import subprocess
import sys

COMMANDS = ["uci", "position startpos moves d2d3 e7e6", "go depth 8"]
BEGIN = "<!-- sample: scripts/readme-sample.py -->"
END = "<!-- end of sample -->"


def session(binary):
    """The engine's answer to each command, read until the answer is complete."""
    engine = subprocess.Popen(
        [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    out = []
    for command in COMMANDS:
        engine.stdin.write(command + "\n")
        engine.stdin.flush()
        out.append("> " + command)
        last = {"uci": "info string variant", "go depth 8": "bestmove"}.get(command)
        answer = []
        while last is not None:
            line = engine.stdout.readline()
            if not line:
                sys.exit(f"the engine stopped before answering '{command}'")
            answer.append(line.rstrip("\n"))
            if line.startswith(last):
                break
        out.extend(shorten(answer))
    engine.stdin.write("quit\n")
    engine.stdin.flush()
    out.append("> quit")
    engine.wait(timeout=10)
    return out


def shorten(answer):
    """Option lines and the middle `info` lines as `...`."""
    kept = []
    infos = [l for l in answer if l.startswith("info ")]
    for line in answer:
        if line.startswith("option "):
            if kept[-1:] != ["..."]:
                kept.append("...")
        elif line.startswith("info ") and line not in (infos[0], infos[-1]):
            if kept[-1:] != ["..."]:
                kept.append("...")
        else:
            kept.append(line)
    return kept


def main():
    args = sys.argv[1:]
    write = "--write" in args
    args = [a for a in args if a != "--write"]
    binary = args[0] if args else "target/release/breakthrough"
    text = "\n".join(["$ ./target/release/breakthrough"] + session(binary))
    if not write:
        print(text)
        return
    readme = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "README.md")
    with open(readme) as f:
        old = f.read()
    block = f"{BEGIN}\n```\n{text}\n```\n{END}"
    new, n = re.subn(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, old, flags=re.S)
    if n != 1:
        sys.exit(f"README.md needs exactly one pair of sample markers, found {n}")
    with open(readme, "w") as f:
        f.write(new)


if __name__ == "__main__":
    main()
