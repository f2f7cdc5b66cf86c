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
import math
import multiprocessing
import os
import re
import shutil
import subprocess
import sys

FS = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
INI = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "fs-variants.ini")
MATE = 3000  # centipawns standing for a forced win or loss


def read_games(paths):
    """(start FEN or None, moves, white's score) of every decided game."""
    games = []
    for path in paths:
        text = open(path).read()
        for block in re.split(r"\n\s*\n(?=\[)", text):
            tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', block))
            result = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(tags.get("Result"))
            if result is None or "forfeit" in tags.get("Termination", ""):
                continue
            body = re.sub(r"\[[^\]]*\]", "", block)
            body = re.sub(r"\{[^}]*\}", "", body)
            moves = [t for t in body.split() if re.fullmatch(r"[a-h][1-8][a-h][1-8]", t)]
            games.append((tags.get("FEN"), moves, result))
    return games


class Fs:
    def __init__(self):
        self.p = subprocess.Popen([FS], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send(f"setoption name VariantPath value {os.path.realpath(INI)}")
        self.send("setoption name UCI_Variant value btnmr")
        self.send("setoption name Hash value 16")
        self.sync()

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def sync(self):
        self.send("isready")
        while self.p.stdout.readline().strip() != "readyok":
            pass

    def fen_and_score(self, position, nodes):
        self.send(position)
        self.send("d")
        fen = None
        self.send("go nodes %d" % nodes)
        score = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("fairy-stockfish exited")
            if line.startswith("Fen: "):
                fen = line[5:].strip()
            m = re.search(r" score (cp|mate) (-?\d+)", line)
            if m and " upperbound" not in line and " lowerbound" not in line:
                v = int(m.group(2))
                score = v if m.group(1) == "cp" else (MATE if v > 0 else -MATE)
            if line.startswith("bestmove"):
                return fen, score


def label_games(args):
    games, nodes, every = args
    fs = Fs()
    out = []
    for start, moves, white in games:
        base = f"position fen {start}" if start else "position startpos"
        for ply in range(every - 1, len(moves), every):
            pos = base + (" moves " + " ".join(moves[:ply]) if ply else "")
            fen, score = fs.fen_and_score(pos, nodes)
            if fen is None or score is None:
                continue
            result = white if fen.split()[1] == "w" else 1.0 - white
            out.append(f"{fen};{score};{result}")
        fs.send("ucinewgame")
    fs.send("quit")
    return out


def label(out, nodes, every, pgns):
    games = read_games(pgns)
    chunks = [games[i::16] for i in range(16)]
    with multiprocessing.Pool(2) as pool, open(out, "w") as f:
        for i, lines in enumerate(pool.imap_unordered(label_games, [(c, nodes, every) for c in chunks])):
            f.write("\n".join(lines) + "\n")
            f.flush()
            print(f"chunk {i + 1}/16: {len(lines)} positions", file=sys.stderr)


def sigmoid(score, k):
    return 1.0 / (1.0 + 10 ** (-k * score / 400.0))


def targets(raw, lam):
    rows = []
    for line in open(raw):
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
