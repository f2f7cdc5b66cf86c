#!/usr/bin/env bash
# Makes the page's screenshots in docs/ (play.png, analysis.png, doorbraak.png, watch.png) by
# running the browser tests, which save them when SCREENSHOTS names a folder. Needs Debian's
# chromium and chromium-driver.
set -euo pipefail
cd "$(dirname "$0")/.."
SCREENSHOTS=$(realpath docs) BROWSER_TESTS=1 cargo test --release --test browser -- --test-threads 1
ls -la docs/*.png
