#!/usr/bin/env bash
# Rewrites the regression baseline (Reports/baseline/) from the release build: every
# registered policy at two sizes on the default trace and every preset on the HTTP demo
# trace, 5 repeats each on one thread, and machine.txt (this machine, and the commit whose
# build made the figures: CI builds that commit as the speed reference). Run it after an
# intended change of results or speed, once that change is committed (the script refuses
# uncommitted sources), then commit the baseline.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "$(git status --porcelain -- Sources Package.swift)" ]; then
  echo "error: Sources/ or Package.swift has uncommitted changes; commit them first, so that the" >&2
  echo "baseline names the commit whose build measured it (CI builds it as the speed reference)" >&2
  exit 1
fi
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
# Records the machine and commit (and replays once more, so every figure comes from this build).
"$cachelab" regress --baseline Reports/baseline --update
"$cachelab" regress --baseline Reports/baseline --no-speed
