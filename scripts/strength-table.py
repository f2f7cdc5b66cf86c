#!/usr/bin/env python3
"""Ratings of the skill levels from the calibration matches (docs/results.md, "Strength levels").

Usage: scripts/strength-table.py DIR
DIR holds `breakthrough match --json` summaries named greedy-0.json (greedy v level 0) and
L<k>-L<k+1>.json (level k v level k+1, k = 0..19; level 20 is full strength). Each pair's
logistic Elo difference (a 100% score is taken as one half game less, and marked) is chained
from the greedy player at 1000. The chain is noisy (about +-55 Elo a pair at 40 games), so
the table the engine uses is its monotone fit (pool adjacent violators: a higher level is
never rated below a lower one). Prints the markdown table and the Rust array.
"""
import json
import math
import sys
from pathlib import Path


def elo(score):
    return -400 * math.log10(1 / score - 1)


def pair(path):
    d = json.loads(Path(path).read_text())
    a, b = d["engines"]
    games = a["games"]
    wins_b = b["wins"] + b["draws"] / 2
    clamped = wins_b in (0, games)
    s = min(max(wins_b, 0.5), games - 0.5) / games
    return games, b["wins"], a["wins"], elo(s), clamped


def monotone(values):
    blocks = [[v, 1] for v in values]
    i = 0
    while i < len(blocks) - 1:
        if blocks[i][0] > blocks[i + 1][0]:
            total = blocks[i][0] * blocks[i][1] + blocks[i + 1][0] * blocks[i + 1][1]
            n = blocks[i][1] + blocks[i + 1][1]
            blocks[i : i + 2] = [[total / n, n]]
            i = max(i - 1, 0)
        else:
            i += 1
    out = []
    for v, n in blocks:
        out += [v] * n
    return out


def main():
    d = Path(sys.argv[1])
    rows = []
    games, w, l, diff, clamped = pair(d / "greedy-0.json")
    rating = 1000 + diff
    rows.append((0, games, w, l, diff, clamped, rating))
    for k in range(20):
        games, w, l, diff, clamped = pair(d / f"L{k}-L{k + 1}.json")
        rating += diff
        rows.append((k + 1, games, w, l, diff, clamped, rating))
    fitted = monotone([r[6] for r in rows[:20]])
    print("| level | nodes a move | games v the level below | score | Elo step | Elo (chained) | Elo (table) |")
    print("|---|---|---|---|---|---|---|")
    for (level, games, w, l, diff, clamped, rating), fit in zip(rows, fitted + [None]):
        below = "greedy" if level == 0 else f"level {level - 1}"
        nodes = f"{int(100 * 1.65 ** level):,}" if level < 20 else "(time)"
        step = f"{'>' if clamped else ''}{diff:+.0f}"
        table = f"{fit:.0f}" if fit is not None else "-"
        print(f"| {level} | {nodes} | {games} v {below} | {w} - {l} | {step} | {rating:.0f} | {table} |")
    print()
    print("pub(crate) const ELO_OF_LEVEL: [f64; 20] = [")
    print("    " + ", ".join(f"{v:.1f}" for v in fitted) + ",")
    print("];")


if __name__ == "__main__":
    main()
