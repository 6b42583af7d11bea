#!/usr/bin/env bash
# The main job: builds CacheLab in release mode and compares LRU, FIFO, CLOCK and SIEVE at
# four sizes (1 %, 5 %, 10 %, 20 % of the working set) on the default trace in Traces/,
# printing a table and writing Reports/demo.csv. Installs libgsl-dev first if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/ensure-deps.sh
swift build -c release --product cachelab
mkdir -p Reports
.build/release/cachelab run \
  --trace Traces/zipf-demo.oracleGeneral.bin \
  --policies lru,fifo,clock,sieve \
  --sizes 0.01,0.05,0.1,0.2 \
  --output Reports/demo.csv
