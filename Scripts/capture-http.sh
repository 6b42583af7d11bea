#!/usr/bin/env bash
# Makes a real HTTP capture on loopback (see Scripts/capture_http.py): a `cachelab gen http`
# workload served by a local origin behind a real proxy, whose own log is the capture:
# nginx's proxy_cache access log with $upstream_cache_status (Debian: nginx-light), Squid's
# native access.log with log_mime_hdrs (Debian: squid), or mitmproxy's HAR (mitmdump:
# python3 -m venv .venv-capture && .venv-capture/bin/pip install mitmproxy).
#
#   bash Scripts/capture-http.sh nginx --output Traces/captures/nginx-http.access.log --requests 1200 --seed 1
#   bash Scripts/capture-http.sh squid --output Traces/captures/squid-http.access.log --requests 1200 --seed 1
#   bash Scripts/capture-http.sh mitmproxy --output Traces/captures/mitmproxy-http.har --requests 160 --seed 1 --size-scale 1000
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product cachelab >/dev/null
CACHELAB=.build/release/cachelab exec python3 Scripts/capture_http.py "$@"
