#!/usr/bin/env bash
# Measures the engine path against the policy path, and the HTTP presets end to end:
#  1. LRU on a 5 M-request Zipf(0.9) trace over 100 000 objects at 10 MiB, as a plain policy
#     (--policies lru) and as a memory-only engine (--memory lru:10MiB): requests per second
#     of replay (the CSV's requests_per_second) and the ratio;
#  2. the sdwebimage, afnetworking, kingfisher and nuke presets on a 1 M-request `gen http`
#     trace (CacheLab CSV, ~137 MB): engine requests per second, and end to end (requests /
#     wall time of the whole command, reading the CSV included);
#  3. the cachelab CSV reader alone: MB/s of the same file through a one-object FIFO (wall
#     time minus replay time).
# Traces go to Traces/local/ (git-ignored). Best of `repeats` runs (default 3).
#
#   bash Scripts/bench-engine.sh [repeats]
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=${1:-3}
bash Scripts/ensure-deps.sh
swift build -c release --product cachelab >/dev/null
cachelab=.build/release/cachelab
mkdir -p Traces/local Reports/local
zipf=Traces/local/engine-zipf-5m.oracleGeneral.bin
http=Traces/local/engine-http-1m.cachelab.csv
[ -f "$zipf" ] || "$cachelab" gen zipf --objects 100000 --requests 5000000 --alpha 0.9 --seed 1 --output "$zipf" --quiet
[ -f "$http" ] || "$cachelab" gen http --requests 1000000 --seed 1 --output "$http" >/dev/null
out=Reports/local/engine-bench.csv

# best <command...>: runs it `repeats` times; prints "best_rps best_e2e_rps hit_ratio".
best() {
  local best_rps=0 best_e2e=0 hit=""
  for _ in $(seq "$repeats"); do
    local start end
    start=$(date +%s.%N)
    "$@" --quiet --output "$out"
    end=$(date +%s.%N)
    read -r rps requests hit < <(python3 -c "
import csv; r = next(csv.DictReader(open('$out')))
print(r['requests_per_second'], r['requests'], r['hit_ratio'])")
    best_rps=$(python3 -c "print(max($best_rps, $rps))")
    best_e2e=$(python3 -c "print(max($best_e2e, $requests / ($end - $start)))")
  done
  echo "$best_rps $best_e2e $hit"
}

read -r policy_rps _ policy_hit < <(best "$cachelab" run --trace "$zipf" --policies lru --sizes 10MiB)
read -r engine_rps _ engine_hit < <(best "$cachelab" run --trace "$zipf" --memory lru:10MiB)
printf '%-28s %10s %14s\n' path "hit ratio" "M req/s"
printf '%-28s %10s %14.1f\n' "policy lru" "$policy_hit" "$(python3 -c "print($policy_rps / 1e6)")"
printf '%-28s %10s %14.1f\n' "engine --memory lru" "$engine_hit" "$(python3 -c "print($engine_rps / 1e6)")"
printf 'engine / policy: %.0f %%\n\n' "$(python3 -c "print(100 * $engine_rps / $policy_rps)")"

printf '%-12s %10s %16s %18s\n' preset "hit ratio" "engine M req/s" "end to end M req/s"
for preset in sdwebimage afnetworking kingfisher nuke; do
  read -r rps e2e hit < <(best "$cachelab" run --trace "$http" --preset "$preset")
  printf '%-12s %10s %16.2f %18.2f\n' "$preset" "$hit" "$(python3 -c "print($rps / 1e6)")" \
    "$(python3 -c "print($e2e / 1e6)")"
done

bytes=$(stat -c %s "$http")
fastest=0
for _ in $(seq "$repeats"); do
  start=$(date +%s.%N)
  "$cachelab" run --trace "$http" --policies fifo --sizes 1 --ignore-size --serial --quiet --output "$out"
  end=$(date +%s.%N)
  replay=$(python3 -c "import csv; print(next(csv.DictReader(open('$out')))['replay_seconds'])")
  fastest=$(python3 -c "print(max($fastest, $bytes / 1e6 / ($end - $start - $replay)))")
done
printf '\ncachelab CSV reader: %.0f MB/s (%s MB)\n' "$fastest" "$(python3 -c "print(round($bytes / 1e6))")"
