#!/usr/bin/env bash
# Measures single-thread replay speed per policy on the issue's benchmark trace:
# 20 M requests, Zipf(1.0) over 1 M objects, lognormal sizes 64 B–1 MiB, cache = 10 % of
# the working-set bytes. Generates the trace once into Traces/local/ (git-ignored, 480 MB).
#
#   bash Scripts/bench-speed.sh [policies] [repeats]
#
# Prints, per policy, the median and best of the repeats for
#   policy-only req/s (the CSV's requests_per_second: policy + engine time) and
#   end-to-end req/s (requests / wall time of the main pass: reading + replay).
set -euo pipefail
cd "$(dirname "$0")/.."
policies=${1:-fifo,lru,clock,sieve}
repeats=${2:-5}
bash Scripts/ensure-deps.sh
swift build -c release --product cachelab >/dev/null
trace=Traces/local/zipf-20m.oracleGeneral.bin
mkdir -p Traces/local Reports/local
if [ ! -f "$trace" ]; then
  .build/release/cachelab gen zipf --objects 1000000 --requests 20000000 --alpha 1.0 --seed 1 \
    --sizes lognormal:mu=8.318,sigma=1.5,min=64,max=1MiB --output "$trace"
fi
printf '%-10s %12s %12s %12s %12s %9s\n' policy "policy med" "policy best" "e2e med" "e2e best" "hit"
for policy in ${policies//,/ }; do
  results=()
  for _ in $(seq "$repeats"); do
    out=Reports/local/speed-$policy.csv
    line=$(.build/release/cachelab run --trace "$trace" --policies "$policy" --sizes 0.1 --serial --output "$out" | head -1)
    wall=$(sed -E 's/.* ([0-9.]+) s$/\1/' <<<"$line")
    results+=("$(python3 - "$out" "$wall" <<'PY'
import csv, sys
row = next(csv.DictReader(open(sys.argv[1])))
print(row["requests_per_second"], 20_000_000 / float(sys.argv[2]), row["hit_ratio"])
PY
)")
  done
  printf '%s\n' "${results[@]}" | python3 -c "
import sys, statistics
rows = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
p = [r[0] / 1e6 for r in rows]; e = [r[1] / 1e6 for r in rows]
print('%-10s %12.1f %12.1f %12.1f %12.1f %9.4f' % ('$policy', statistics.median(p), max(p), statistics.median(e), max(e), rows[0][2]))"
done
