#!/usr/bin/env python3
"""Where games against Fairy-Stockfish were lost: both engines' view of our positions.

Usage: scripts/lost-positions.py ENGINE PGN [FROM_PLY TO_PLY MOVETIME_MS [won]]

For every game of PGN (written by scripts/match-fs.sh) that `breakthrough` lost (or won, with
`won`), and every ply from FROM_PLY to TO_PLY (default 36 62) where it was to move, searches the
position for MOVETIME_MS (default 300) with ENGINE and with Fairy-Stockfish (btnmr) and prints
one line: round, ply, the move played, then each engine's score (side to move's view; a mate
as +-10000 less its distance), depth and best move. Runs one search at a time.
"""
import re
import sys

from uci_client import FAIRY, FAIRY_STANDARD, Engine, read_games


def search(engine, moves, movetime):
    """(score, depth, best move) of the last completed iteration."""
    engine.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
    engine.send(f"go movetime {movetime}")
    lines = engine.read_until("bestmove")
    score = depth = None
    for line in lines:
        m = re.search(r"depth (\d+) .*score (cp|mate) (-?\d+)", line)
        if m:
            depth, value = int(m.group(1)), int(m.group(3))
            score = value if m.group(2) == "cp" else (10000 - abs(value)) * (1 if value > 0 else -1)
    return score, depth, lines[-1].split()[1]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    engine_path, pgn = sys.argv[1], sys.argv[2]
    numbers = [int(a) for a in sys.argv[3:6]]
    first, last, movetime = numbers + [36, 62, 300][len(numbers):]
    want_won = sys.argv[6:7] == ["won"]
    ours, fairy = Engine(engine_path), Engine(FAIRY, FAIRY_STANDARD)
    for headers, moves in read_games(pgn):
        we_are_white = headers["White"] == "breakthrough"
        if ((headers["Result"] == "1-0") == we_are_white) != want_won:
            continue
        for ply in range(first, min(last, len(moves))):
            if (ply % 2 == 0) != we_are_white:
                continue
            a, b = search(ours, moves[:ply], movetime), search(fairy, moves[:ply], movetime)
            print(
                f"round {headers['Round']} ply {ply} played {moves[ply]}"
                f" | ours {a[0]} depth {a[1]} {a[2]} | fairy {b[0]} depth {b[1]} {b[2]}",
                flush=True,
            )


if __name__ == "__main__":
    main()
