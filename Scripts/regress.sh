#!/usr/bin/env bash
# The regression gate (what CI runs after the tests): builds the release binary and replays
# Reports/baseline; exits non-zero when a result changed or replay got significantly slower.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/ensure-deps.sh
swift build -c release --product cachelab
.build/release/cachelab regress --baseline Reports/baseline
