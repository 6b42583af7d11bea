#!/usr/bin/env bash
# Runs the reader and engine fuzz tests with many cases (default 20000 per format, rows per engine case): every mutated file
# must read fully or stop with a clean path:record error, never trap or hang.
#   bash Scripts/fuzz.sh [cases-per-format]
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/ensure-deps.sh
CACHELAB_FUZZ_CASES=${1:-20000} swift test --filter "ReaderFuzzTests|EngineFuzzTests" 2>&1 | grep -E 'fuzz |✘|Test run'
