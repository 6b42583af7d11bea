#!/usr/bin/env bash
# The regression gate (what CI runs after the tests): builds the release binary and the
# reference build the baseline names (Scripts/build-reference.sh), then replays
# Reports/baseline: exits non-zero when a result changed, or when this build is slower than
# the reference side by side (overall beyond 10 %, one configuration beyond 25 %, each with
# 95 % confidence). Extra arguments go to `cachelab regress` (e.g. --history FILE.csv).
set -euo pipefail
cd "$(dirname "$0")/.."
reference="$(bash Scripts/build-reference.sh)"
started=$SECONDS
.build/release/cachelab regress --baseline Reports/baseline --speed-against "$reference" "$@"
echo "regression gate: $((SECONDS - started)) s (builds not counted)"
