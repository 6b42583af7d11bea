#!/usr/bin/env bash
# Makes a real HTTP capture on loopback (see Scripts/capture_http.py): a `cachelab gen http`
# workload served by a local origin behind a real nginx proxy_cache; nginx's own access log,
# with $upstream_cache_status, is the capture. Needs nginx (Debian: nginx-light).
#
#   bash Scripts/capture-http.sh nginx --output Traces/captures/nginx-http.access.log --requests 1200 --seed 1
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product cachelab >/dev/null
CACHELAB=.build/release/cachelab exec python3 Scripts/capture_http.py "$@"
