#!/usr/bin/env bash
# SPRT of the working tree's engine against an earlier binary, as engine testers do.
# Usage: scripts/sprt.sh BASE_BINARY [VARIANT=breakthrough] [TC=2+0.02] [MAX_GAMES=2000] [extra match args...]
# Stops at the SPRT verdict (elo0=0 elo1=10 alpha=0.05 beta=0.05) or after MAX_GAMES.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?base binary}; variant=${2:-breakthrough}; tc=${3:-2+0.02}; games=${4:-2000}
shift $(( $# < 4 ? $# : 4 ))
cargo build --release --quiet
new=$(mktemp /tmp/breakthrough-new.XXXXXX)
cp target/release/breakthrough "$new" && chmod +x "$new"
target/release/breakthrough match --variant "$variant" \
  --engine "cmd=$new name=new" --engine "cmd=$base name=base" \
  --each "tc=$tc" --games "$games" --random-plies 6 --concurrency 2 \
  --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 "$@" | grep -v '^Finished game' || true
rm -f "$new"
