#!/usr/bin/env bash
# How our engine spends its clock, from the input logged by `INPUT_LOG=DIR scripts/match-fs.sh`.
# Usage: scripts/clock-use.sh DIR
# Prints the mean time left on our clock before our move N (every third move), and the time left
# at our last move of each game (median): what a game ended with unused.
set -euo pipefail
dir=${1:?directory of input logs}
compgen -G "$dir/in.*" > /dev/null || { echo "clock-use: no input logs (in.*) in $dir" >&2; exit 2; }
cat "$dir"/in.* | awk '
  function end_game() { if (have) { last[++games] = rem_last }; have = 0 }
  /^ucinewgame/ { end_game() }
  /^position/ {
    plies = 0; m = 0
    for (i = 1; i <= NF; i++) { if (m) plies++; if ($i == "moves") m = 1 }
  }
  /^go / {
    for (i = 2; i < NF; i++) { if ($i == "wtime") w = $(i + 1); if ($i == "btime") b = $(i + 1) }
    rem = (plies % 2 == 0) ? w : b
    move = int(plies / 2); sum[move] += rem; count[move]++
    if (move > maxmove) maxmove = move
    rem_last = rem; have = 1
  }
  END {
    end_game()
    printf "move  games  mean ms left\n"
    for (k = 0; k <= maxmove; k += 3) if (count[k]) printf "%4d  %5d  %6d\n", k, count[k], sum[k] / count[k]
    n = games
    for (i = 2; i <= n; i++) { v = last[i]; j = i - 1; while (j > 0 && last[j] > v) { last[j + 1] = last[j]; j-- } last[j + 1] = v }
    if (n) printf "games %d, time left at our last move: median %d ms, least %d ms\n", n, (n % 2 ? last[(n + 1) / 2] : (last[n / 2] + last[n / 2 + 1]) / 2), last[1]
  }'
