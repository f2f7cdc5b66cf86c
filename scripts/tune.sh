#!/usr/bin/env bash
# Self-play then Texel tuning: the engine plays itself, and the evaluation weights of
# that rule set are fitted to the results and written into the rule set's weights.rs.
# Usage: scripts/tune.sh [VARIANT=breakthrough] [GAMES=4000] [NODES=40000] [SEED=1]
# Afterwards: cargo build --release, then scripts/sprt.sh against the old binary.
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:-breakthrough}; games=${2:-4000}; nodes=${3:-40000}; seed=${4:-1}
cargo build --release --quiet
engine=$(mktemp /tmp/breakthrough-selfplay.XXXXXX)
cp target/release/breakthrough "$engine" && chmod +x "$engine"
mkdir -p tuning
pgn="tuning/selfplay-$variant-$seed.pgn"
target/release/breakthrough match --variant "$variant" \
  --engine "cmd=$engine name=a" --engine "cmd=$engine name=b" --each "nodes=$nodes" \
  --games "$games" --random-plies 10 --seed "$seed" --concurrency 2 --pgn "$pgn" | tail -4
rm -f "$engine"
case "$variant" in
  doorbraak) weights=src/rulesets/doorbraak/weights.rs ;;
  *) weights=src/rulesets/breakthrough/weights.rs ;;
esac
target/release/breakthrough tune --variant "$variant" --write "$weights" "$pgn"
cargo fmt   # lay the written numbers out as rustfmt does, so `cargo fmt --check` stays clean
