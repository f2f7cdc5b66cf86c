# Sourced by the match scripts: sets ENGINE to the binary to play, a fresh release build
# unless ENGINE names one (a copy, so a long match can run while the tree changes).
if [ -z "${ENGINE:-}" ]; then
  cargo build --release --quiet
  ENGINE=target/release/breakthrough
fi
