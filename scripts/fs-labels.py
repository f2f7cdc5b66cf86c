#!/usr/bin/env python3
"""Labels positions of standard-rules games with Fairy-Stockfish's search score, for
`breakthrough tune` (distillation: fit our evaluation to a stronger engine's judgement).

  scripts/fs-labels.py label OUT.raw NODES EVERY PGN...   # every EVERY-th ply of each game
  scripts/fs-labels.py targets OUT.raw LAMBDA > OUT.labels

`label` replays each game in Fairy-Stockfish (btnmr), and for the positions it keeps writes
`FEN;score;result`: its score in centipawns after a search of NODES nodes, and the game's
result (1, 0.5, 0), both from the side to move's view. Two Fairy-Stockfish processes share
the games. `targets` fits the scale that maps those scores to the results (logistic, as the
tuner does for our evaluation), and writes `FEN;target` lines with
target = LAMBDA * result + (1 - LAMBDA) * 1 / (1 + 10^(-k * score / 400)).
"""
import multiprocessing
import re
import sys

from uci_client import FAIRY, FAIRY_STANDARD, Engine, read_games

MATE = 3000  # centipawns standing for a forced win or loss
WHITE_SCORE = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def decided_games(paths):
    """(start FEN or None, moves, white's score) of every game decided on the board."""
    return [
        (tags.get("FEN"), moves, WHITE_SCORE[tags["Result"]])
        for path in paths
        for tags, moves in read_games(path)
        if tags.get("Result") in WHITE_SCORE and "forfeit" not in tags.get("Termination", "")
    ]


def fen_and_score(fs, position, nodes):
    """Fairy-Stockfish's FEN of `position` and its score after `nodes` nodes (exact bounds only)."""
    fs.send(position)
    fs.send("d")
    fs.send(f"go nodes {nodes}")
    fen = score = None
    for line in fs.read_until("bestmove"):
        if line.startswith("Fen: "):
            fen = line[5:].strip()
        m = re.search(r" score (cp|mate) (-?\d+)", line)
        if m and " upperbound" not in line and " lowerbound" not in line:
            v = int(m.group(2))
            score = v if m.group(1) == "cp" else (MATE if v > 0 else -MATE)
    return fen, score


def label_games(args):
    games, nodes, every = args
    fs = Engine(FAIRY, FAIRY_STANDARD + [("Hash", 16)])
    out = []
    for start, moves, white in games:
        base = f"position fen {start}" if start else "position startpos"
        for ply in range(every - 1, len(moves), every):
            fen, score = fen_and_score(fs, base + (" moves " + " ".join(moves[:ply]) if ply else ""), nodes)
            if fen is None or score is None:
                continue
            result = white if fen.split()[1] == "w" else 1.0 - white
            out.append(f"{fen};{score};{result}")
        fs.send("ucinewgame")
    fs.quit()
    return out


def label(out, nodes, every, pgns):
    Engine(FAIRY, FAIRY_STANDARD).quit()  # a missing engine fails here, in one line
    games = decided_games(pgns)
    chunks = [games[i::16] for i in range(16)]
    with multiprocessing.Pool(2) as pool, open(out, "w") as f:
        for i, lines in enumerate(pool.imap_unordered(label_games, [(c, nodes, every) for c in chunks])):
            f.writelines(line + "\n" for line in lines)
            f.flush()
            print(f"chunk {i + 1}/16: {len(lines)} positions", file=sys.stderr)


def sigmoid(score, k):
    return 1.0 / (1.0 + 10 ** (-k * score / 400.0))


def targets(raw, lam):
    rows = []
    for line in open(raw):
        if not line.strip():
            continue
        fen, score, result = line.strip().split(";")
        rows.append((fen, int(score), float(result)))
    def loss(k):
        return sum((sigmoid(s, k) - r) ** 2 for _, s, r in rows) / len(rows)
    lo, hi = 0.01, 5.0
    for _ in range(60):
        a, b = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
        lo, hi = (lo, b) if loss(a) < loss(b) else (a, hi)
    k = (lo + hi) / 2
    print(f"{len(rows)} positions, k {k:.3f}, loss {loss(k):.4f}", file=sys.stderr)
    for fen, s, r in rows:
        print(f"{fen};{lam * r + (1 - lam) * sigmoid(s, k):.4f}")


if __name__ == "__main__":
    try:
        if len(sys.argv) >= 6 and sys.argv[1] == "label":
            label(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:])
        elif len(sys.argv) == 4 and sys.argv[1] == "targets":
            targets(sys.argv[2], float(sys.argv[3]))
        else:
            sys.exit(__doc__)
    except (OSError, ValueError, RuntimeError) as e:
        sys.exit(f"fs-labels.py: {e}")
