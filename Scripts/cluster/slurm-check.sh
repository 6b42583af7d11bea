#!/bin/bash
# Runs Scripts/cluster/slurm-sweep.sh, unchanged, on a real Slurm: starts the single-node
# cluster of slurm-local.sh, submits the script as a 4-task job array and `cachelab merge` as a
# job that depends on it, waits for both, and checks that the merged report equals the same
# sweep run unsharded in every column but the timing ones. Stops what it started. As root:
#   CACHELAB=.build/release/cachelab bash Scripts/cluster/slurm-check.sh
# Environment: CACHELAB (the binary), TRACE, POLICIES, SIZES (the sweep), SLURM_LOCAL (state).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
CACHELAB=$(realpath "${CACHELAB:-.build/release/cachelab}")
TRACE=$(realpath "${TRACE:-Traces/zipf-demo.oracleGeneral.bin}")
POLICIES=${POLICIES:-lru,fifo,sieve,s3fifo,arc}
SIZES=${SIZES:-log:0.001:0.5:12}
[ -x "$CACHELAB" ] || { echo "slurm-check: no cachelab binary at $CACHELAB (swift build -c release)" >&2; exit 1; }
now() { date +%s.%N; }
since() { printf '%.1f' "$(echo "$(now) - $1" | bc)"; }

started=$(now)
eval "$(bash Scripts/cluster/slurm-local.sh start)"
trap 'bash "$ROOT/Scripts/cluster/slurm-local.sh" stop' EXIT
up=$(since "$started")

OUT=$(dirname "$SLURM_CONF")/check-$$
rm -rf "$OUT"
mkdir -p "$OUT/bin"
ln -s "$CACHELAB" "$OUT/bin/cachelab"
jobs_started=$(now)
# The sweep's settings go through the environment (--export=ALL): --export=NAME=VALUE splits
# values at commas, and policy and size lists have them.
array=$(PATH="$OUT/bin:$PATH" TRACE=$TRACE OUT=$OUT POLICIES=$POLICIES SIZES=$SIZES \
  sbatch --parsable --array=0-3 --cpus-per-task=1 --mem=1G --output="$OUT/task-%A_%a.log" --export=ALL \
  Scripts/cluster/slurm-sweep.sh)
merge=$(PATH="$OUT/bin:$PATH" sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes --mem=1G \
  --output="$OUT/merge-%j.log" --export=ALL \
  --wrap "cachelab merge $OUT/shard-*.csv --output $OUT/merged.csv")
echo "submitted: array job $array (4 tasks of slurm-sweep.sh), merge job $merge (afterok:$array)"

# Wait until neither job is queued or running (a generous bound: 10 minutes).
for ((tenths = 0; tenths < 6000; tenths++)); do
  [ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] && break
  sleep 0.1
done
[ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] || { echo "slurm-check: jobs still queued after 10 minutes" >&2; exit 1; }
ran=$(since "$jobs_started")

# Every task and the merge must have completed with exit code 0:0.
(scontrol -o show job "$array"; scontrol -o show job "$merge") | awk '{
  line = ""
  for (i = 1; i <= NF; i++) if ($i ~ /^(JobId|ArrayTaskId|JobName|JobState|ExitCode)=/) line = line " " $i
  print " " line
}'
failed=$( (scontrol -o show job "$array"; scontrol -o show job "$merge") \
  | grep -vc 'JobState=COMPLETED .*ExitCode=0:0' || true)
if [ "$failed" != 0 ] || [ ! -s "$OUT/merged.csv" ]; then
  echo "slurm-check: a job did not complete; logs:" >&2
  tail -n 5 "$OUT"/*.log >&2 || true
  exit 1
fi

"$CACHELAB" sweep --trace "$TRACE" --policies "$POLICIES" --sizes "$SIZES" --output "$OUT/whole.csv" --quiet
python3 - "$OUT/merged.csv" "$OUT/whole.csv" <<'EOF'
import csv, sys
timing = {"replay_seconds", "requests_per_second", "peak_memory_bytes"}
merged, whole = (list(csv.DictReader(open(path, newline=""))) for path in sys.argv[1:3])
if len(merged) != len(whole):
    sys.exit(f"slurm-check: merged report has {len(merged)} rows, the unsharded one {len(whole)}")
differing = [(index, column) for index, (a, b) in enumerate(zip(merged, whole))
             for column in a if column not in timing and a[column] != b.get(column)]
if differing:
    sys.exit(f"slurm-check: merged report differs from the unsharded one: {differing[:5]}")
columns = len([c for c in merged[0] if c not in timing])
print(f"merged report equals the unsharded sweep: {len(merged)} rows x {columns} columns (timing columns aside)")
EOF
echo "times: cluster up $up s, array + merge $ran s, whole check $(since "$started") s"
