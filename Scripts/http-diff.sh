#!/usr/bin/env bash
# Differential harness (see Scripts/http_diff.py): seeded small HTTP workloads through the real
# nginx 1.22.1, Squid 5.7 and Varnish 7.1.1 (Debian: nginx-light, squid, varnish; installed by
# Scripts/ensure-capture-tools.sh) on loopback; each server's own log gives every request's
# hit or miss; one CacheLab trace (`cachelab` CSV with an `observed` column) per workload and
# server, replayed through the presets nginx, squid and varnish with
# `cachelab run --disagreements` to compare request by request.
#
#   bash Scripts/http-diff.sh                                  # 20 workloads per family, all servers
#   bash Scripts/http-diff.sh --workloads 2 --out /tmp/hd      # a small run (CI-sized)
#   bash Scripts/http-diff.sh --servers squid --families expiry,revalidate --seed 7
#   bash Scripts/http-diff.sh --cachelab .build/release/cachelab
#
# Options: --servers nginx,squid,varnish  --workloads N  --seed S  --out DIR
# (default Traces/local/http-diff)  --cachelab PATH (default .build/debug/cachelab, else
# .build/release/cachelab)  --families LIST  --per-second K  --sequential; see
# `python3 Scripts/http_diff.py --help`. It does not build CacheLab. Exit status: 0 when it
# ran, 1 when a server is missing or failed, 2 when cachelab failed on a trace.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 Scripts/http_diff.py "$@"
