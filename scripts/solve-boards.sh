#!/bin/sh
# Solves the start position of every board from 3 to 6 files by 4 to 6 ranks, both rule
# sets, one JSON line each (solve --json) into OUT, smallest boards first. Every run gets
# the same time limit and two threads; the table grows with the board (the whole table is
# written once at the start, so an oversized one would cost small boards most of their
# time); a board not proven within the limit is written with "winner": null.
#   scripts/solve-boards.sh OUT [SECONDS_PER_BOARD] [HASH_MB_FOR_THE_LARGEST]
set -eu
out=${1:?usage: scripts/solve-boards.sh OUT [SECONDS] [HASH_MB]}
seconds=${2:-600}
hash=${3:-4096}
bin=${BIN:-target/release/breakthrough}
: > "$out"
for ranks in 4 5 6; do
    for files in 3 4 5 6; do
        for variant in breakthrough capture-only; do
            squares=$((files * ranks))
            if [ "$squares" -le 20 ]; then mb=64; elif [ "$squares" -le 25 ]; then mb=1024; else mb=$hash; fi
            "$bin" solve --variant "$variant" --board "${files}x$ranks" --threads 2 \
                --hash "$mb" --time-limit "$seconds" --json >> "$out"
            tail -n 1 "$out" >&2
        done
    done
done
