#!/usr/bin/env bash
# Runs CacheLab's hot-path benchmarks (the separate package in Benchmarks/, built with
# ordo-one/benchmark into Benchmarks/.build), prints their results, and checks each
# benchmark's p90 against the committed static thresholds in Benchmarks/Thresholds/ within
# the tolerances set in Benchmarks/Benchmarks/CacheLabBenchmarks/CacheLabBenchmarks.swift.
#
#   bash Scripts/bench.sh                         # run every benchmark + threshold check
#   bash Scripts/bench.sh --filter 'Replay_.*'    # only some (regex matching whole names)
#   bash Scripts/bench.sh --update                # re-measure and rewrite the thresholds
#
# Exit status: 0 within tolerance; non-zero on a regression, on an improvement beyond the
# tolerance (the check is two-sided: re-measure with --update and commit the new files), or
# on a build or run failure. The run is kept as the baseline 'bench' in
# Benchmarks/.benchmarkBaselines/ (git-ignored). Measure on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/ensure-deps.sh

thresholds="$PWD/Benchmarks/Thresholds"
update=false
if [ "${1:-}" = "--update" ]; then
  update=true
  shift
fi

cores=$(getconf _NPROCESSORS_ONLN)
if [ -r /proc/loadavg ]; then
  read -r load _ </proc/loadavg
  if awk -v load="$load" -v cores="$cores" 'BEGIN { exit !(load >= cores) }'; then
    echo "warning: load average $load on $cores cores: timings will be slow and the check may fail" >&2
  fi
fi

benchmark() {
  swift package --package-path Benchmarks --allow-writing-to-package-directory benchmark "$@" --no-progress
}

# One run, stored as a baseline, printed, then checked or written as thresholds.
benchmark baseline update bench "$@"
benchmark baseline read bench
if $update; then
  benchmark thresholds update bench --path "$thresholds"
  echo "bench: thresholds rewritten in Benchmarks/Thresholds/; review and commit them"
  exit 0
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
benchmark thresholds check bench --path "$thresholds" 2>&1 | tee "$log" || status=$?
if [ "$status" -eq 0 ]; then
  echo "bench: every benchmark is within its thresholds"
elif grep -q "is WORSE than" "$log"; then
  echo "bench: REGRESSION against Benchmarks/Thresholds (deviations above)" >&2
elif grep -q "is BETTER than" "$log"; then
  echo "bench: faster than Benchmarks/Thresholds beyond tolerance; if real, run bash Scripts/bench.sh --update" >&2
else
  echo "bench: threshold check failed (exit $status)" >&2
fi
exit "$status"
