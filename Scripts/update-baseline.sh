#!/usr/bin/env bash
# Rewrites the regression baseline (Reports/baseline/) from the release build: every
# registered policy at two sizes on the default trace and every preset on the HTTP demo
# trace, 5 repeats each on one thread. Run after an intended change of results or speed,
# then commit the baseline together with that change.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/ensure-deps.sh
swift build -c release --product cachelab >/dev/null
cachelab=.build/release/cachelab
mkdir -p Reports/baseline
"$cachelab" run --trace Traces/zipf-demo.oracleGeneral.bin --policies "$("$cachelab" policies --names)" \
  --sizes 0.01,0.1 --repeat 5 --serial --quiet --output Reports/baseline/policies.csv
# The demo trace is all HTTPS, which MKNetworkKit does not cache by default: also run it with always-cache.
"$cachelab" run --trace Traces/http-demo.cachelab.csv \
  --preset "$("$cachelab" presets --names),mknetworkkit:always-cache=true,mknetworkkit-intended:always-cache=true" \
  --repeat 5 --serial --quiet --output Reports/baseline/presets.csv
"$cachelab" regress --baseline Reports/baseline
