#!/bin/sh
# Solves the start position of every board from 3 to 6 files by 4 to 6 ranks, both rule
# sets, one JSON line each (solve --json) into OUT, smallest boards first. Every run gets
# the same time limit and two threads; boards up to 25 squares get solve's own table (16 or
# 128 MB: the whole table is written once at the start and a large one is slower to
# probe), larger ones HASH_MB; a board not proven within the limit is written with
# "winner": null.
#   scripts/solve-boards.sh OUT [SECONDS_PER_BOARD] [HASH_MB_ABOVE_25_SQUARES]
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
            if [ "$squares" -le 25 ]; then table=""; else table="--hash $hash"; fi
            # shellcheck disable=SC2086 # $table is empty or two words
            "$bin" solve --variant "$variant" --board "${files}x$ranks" --threads 2 \
                $table --time-limit "$seconds" --json >> "$out"
            tail -n 1 "$out" >&2
        done
    done
done
