#!/usr/bin/env python3
"""A scripted UCI engine for the match runner's tests.

It plays the first legal move (Breakthrough rules, either variant) and misbehaves on
request:  fake_engine.py MODE [--after N] [--delay MS] [--log FILE]
MODE: ok | illegal | garbage | empty | none | crash | hang | deaf | nouciok | pass
'pass' answers every go with bestmove 0000 (a legal move in Doorbraak only).
--after N: behave for the first N moves of each game, then misbehave.
--delay MS: think this long before every bestmove.
--log FILE: append every line received.
'hang' never answers go but obeys stop; 'deaf' ignores stop too.
"""
import sys
import time

args = sys.argv[1:]
mode = args[0] if args else "ok"
after = int(args[args.index("--after") + 1]) if "--after" in args else 0
delay = int(args[args.index("--delay") + 1]) / 1000 if "--delay" in args else 0.0
log = open(args[args.index("--log") + 1], "a") if "--log" in args else None

capture_only = False
files, ranks, white, black, side = 8, 8, set(), set(), "w"
moves_this_game = 0


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def set_fen(fen):
    global files, ranks, white, black, side
    rows = fen.split()[0].split("/")
    side = fen.split()[1]
    ranks = len(rows)
    white, black = set(), set()
    for i, row in enumerate(rows):
        rank, f = ranks - 1 - i, 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                (white if ch == "P" else black).add((f, rank))
                f += 1
        files = f


def name(sq):
    return "abcdefgh"[sq[0]] + str(sq[1] + 1)


def legal():
    us, them = (white, black) if side == "w" else (black, white)
    dr = 1 if side == "w" else -1
    result = []
    for (f, r) in sorted(us):
        for df in (-1, 0, 1):
            t = (f + df, r + dr)
            if not (0 <= t[0] < files and 0 <= t[1] < ranks) or t in us:
                continue
            if df == 0 and t in them:
                continue
            if df != 0 and capture_only and t not in them:
                continue
            result.append(((f, r), t))
    return result


def play(text):
    global side
    frm = ("abcdefgh".index(text[0]), int(text[1]) - 1)
    to = ("abcdefgh".index(text[2]), int(text[3]) - 1)
    us, them = (white, black) if side == "w" else (black, white)
    us.discard(frm)
    us.add(to)
    them.discard(to)
    side = "b" if side == "w" else "w"


def bestmove():
    global moves_this_game
    moves_this_game += 1
    if delay:
        time.sleep(delay)
    misbehave = moves_this_game > after
    if mode == "pass":
        out("bestmove 0000")
        return True
    moves = legal()
    if mode == "ok" or not misbehave:
        out("info depth 3 score cp 0 nodes 100 nps 5000 pv " + name(moves[0][0]) + name(moves[0][1]))
        out("bestmove " + name(moves[0][0]) + name(moves[0][1]))
    elif mode == "illegal":
        frm = moves[0][0]
        out("bestmove " + name(frm) + name(frm)[0] + str(frm[1] + (4 if side == "w" else -2)))
    elif mode == "garbage":
        out("bestmove xyzzy")
    elif mode == "empty":
        out("bestmove")
    elif mode == "none":
        out("bestmove (none)")
    elif mode == "crash":
        sys.exit(3)
    elif mode in ("hang", "deaf"):
        return False
    return True


thinking = False
if mode == "nouciok":
    time.sleep(60)
for raw in sys.stdin:
    line = raw.strip()
    if log:
        log.write(line + "\n")
        log.flush()
    if line == "uci":
        out("id name Fake " + mode)
        out("option name UCI_Variant type combo default breakthrough var breakthrough var capture-only var doorbraak")
        out("uciok")
    elif line == "isready":
        out("readyok")
    elif line.startswith("setoption name UCI_Variant value"):
        capture_only = line.split()[-1] == "capture-only"
    elif line == "ucinewgame":
        moves_this_game = 0
    elif line.startswith("position") and mode != "pass":
        words = line.split()
        if words[1] == "startpos":
            set_fen("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w")
            rest = words[2:]
        else:
            set_fen(" ".join(words[2:4]))
            rest = words[8:]
        if rest and rest[0] == "moves":
            for m in rest[1:]:
                play(m)
    elif line.startswith("go"):
        thinking = not bestmove()
    elif line == "stop":
        if thinking and mode != "deaf":
            out("bestmove " + name(legal()[0][0]) + name(legal()[0][1]))
            thinking = False
    elif line == "quit":
        break
