"""What the Python scripts share: reading match PGNs and driving a UCI engine."""
import os
import re
import shutil
import subprocess
import sys

FAIRY = os.environ.get("FAIRY_STOCKFISH") or shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
VARIANTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fs-variants.ini")
# Standard rules without Fairy-Stockfish's 50-move draw.
FAIRY_STANDARD = [("VariantPath", VARIANTS), ("UCI_Variant", "btnmr")]


def read_games(path):
    """(tags, moves) of each game of a PGN file written by `breakthrough match`."""
    for text in open(path).read().split("[Event ")[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', text))
        body = re.sub(r"\{[^}]*\}", "", text.split("\n\n", 1)[1] if "\n\n" in text else "")
        yield tags, [t for t in body.split() if re.fullmatch(r"[a-h][1-8][a-h][1-8]", t)]


class Engine:
    """A UCI engine process, set up with `options` ((name, value) pairs)."""

    def __init__(self, command, options=()):
        if shutil.which(command) is None:
            hint = " (install it: apt-get install fairy-stockfish)" if command == FAIRY else ""
            sys.exit(f"{os.path.basename(sys.argv[0])}: {command} is not an executable{hint}")
        self.process = subprocess.Popen(
            [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.read_until("readyok")

    def send(self, line):
        self.process.stdin.write(line + "\n")

    def read_until(self, prefix):
        """The lines the engine writes up to and including the first starting with `prefix`."""
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit(f"{os.path.basename(sys.argv[0])}: engine {self.process.args[0]} closed its output")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def quit(self):
        self.send("quit")
        self.process.wait()
