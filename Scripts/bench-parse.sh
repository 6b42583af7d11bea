#!/usr/bin/env bash
# Measures text-trace parse speed: 10 M requests (Zipf over 1 M objects, 64-bit keys) written
# as csv (time,key,size), txt (one key per line) and id-size (seq id size) into Traces/local/
# (git-ignored, ~900 MB), each replayed through one FIFO cache on one thread.
#
#   bash Scripts/bench-parse.sh [repeats]
#
# Prints, per format, the file size and the best of the repeats of
#   parse MB/s = file bytes / (process wall time - the cache's replay_seconds).
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=${1:-3}
bash Scripts/ensure-deps.sh
swift build -c release --product cachelab >/dev/null
cachelab=.build/release/cachelab
mkdir -p Traces/local Reports/local
csv=Traces/local/parse-10m.csv
if [ ! -f "$csv" ]; then
  "$cachelab" gen zipf --objects 1000000 --requests 10000000 --seed 1 --output "$csv" --quiet
  "$cachelab" convert "$csv" Traces/local/parse-10m.txt --quiet
  awk -F, 'NR > 1 { print NR - 1, $2, $3 }' "$csv" >Traces/local/parse-10m.idsize.txt
fi
printf '%-8s %10s %14s\n' format MB "parse MB/s"
for trace in "csv:$csv" "txt:Traces/local/parse-10m.txt" "id-size:Traces/local/parse-10m.idsize.txt"; do
  file=${trace#*:}
  bytes=$(stat -c %s "$file")
  best=0
  for _ in $(seq "$repeats"); do
    start=$(date +%s.%N)
    "$cachelab" run --trace "$trace" --policies fifo --sizes 1 --ignore-size --serial --quiet \
      --output Reports/local/parse.csv
    end=$(date +%s.%N)
    replay=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "replay_seconds") c = i } NR == 2 { print $c }' \
      Reports/local/parse.csv)
    speed=$(awk -v b="$bytes" -v s="$start" -v e="$end" -v r="$replay" 'BEGIN { printf "%.0f", b / 1e6 / (e - s - r) }')
    if [ "$speed" -gt "$best" ]; then best=$speed; fi
  done
  printf '%-8s %10.0f %14s\n' "${trace%%:*}" "$(awk -v b="$bytes" 'BEGIN { print b / 1e6 }')" "$best"
done
