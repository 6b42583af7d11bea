#!/bin/bash
# Runs Scripts/cluster/slurm-sweep.sh, unchanged, on a real Slurm: starts the single-node
# cluster of slurm-local.sh, submits the script as a 4-task job array and `cachelab merge` as a
# job that depends on it, waits for both, checks that every task and the merge completed with
# exit code 0:0, and that the merged report equals the same sweep run unsharded in every column
# but the timing ones. Stops the cluster again unless it was already running. As root:
#   CACHELAB=.build/release/cachelab bash Scripts/cluster/slurm-check.sh
# Environment: CACHELAB (the binary), TRACE, POLICIES, SIZES (the sweep), SLURM_LOCAL (state).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
LOCAL=$ROOT/Scripts/cluster/slurm-local.sh
CACHELAB=$(realpath "${CACHELAB:-.build/release/cachelab}")
TRACE=$(realpath "${TRACE:-Traces/zipf-demo.oracleGeneral.bin}")
POLICIES=${POLICIES:-lru,fifo,sieve,s3fifo,arc}
SIZES=${SIZES:-log:0.001:0.5:12}
fail() {
  echo "slurm-check: $*" >&2
  exit 1
}
[ "$(id -u)" = 0 ] || fail "must run as root (slurm-local.sh starts munged, slurmctld and slurmd)"
[ -x "$CACHELAB" ] || fail "no cachelab binary at $CACHELAB (swift build -c release)"
[ -f "$TRACE" ] || fail "no trace at $TRACE"
now() { date +%s.%N; }
since() { printf '%.1f' "$(echo "$(now) - $1" | bc)"; }

started=$(now)
# Stop the cluster on every way out, unless it ran before this check (then it is someone's).
if bash "$LOCAL" status 2>/dev/null; then ours=0; else ours=1; fi
stop_cluster() { [ "$ours" = 0 ] || bash "$LOCAL" stop; }
trap stop_cluster EXIT
eval "$(bash "$LOCAL" start)"
up=$(since "$started")

OUT=$(dirname "$SLURM_CONF")/check-$$
rm -rf "$OUT"
mkdir -p "$OUT/bin"
ln -s "$CACHELAB" "$OUT/bin/cachelab"
# The jobs inherit this environment (--export=ALL): cachelab on PATH, and the sweep's settings,
# which cannot go through --export=NAME=VALUE since it splits values at commas.
export PATH="$OUT/bin:$PATH" TRACE OUT POLICIES SIZES
jobs_started=$(now)
array=$(sbatch --parsable --array=0-3 --cpus-per-task=1 --mem=1G --export=ALL \
  --output="$OUT/task-%A_%a.log" Scripts/cluster/slurm-sweep.sh)
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes --mem=1G \
  --export=ALL --job-name=cachelab-merge --output="$OUT/merge-%j.log" \
  --wrap "cachelab merge $OUT/shard-*.csv --output $OUT/merged.csv")
echo "submitted: array job $array (4 tasks of slurm-sweep.sh), merge job $merge (afterok:$array)"

# Wait until neither job is pending or running any more, for at most 10 minutes.
deadline=$(($(date +%s) + 600))
while [ -n "$(squeue -h -j "$array,$merge" -o %i 2>/dev/null)" ]; do
  [ "$(date +%s)" -lt "$deadline" ] || fail "jobs still queued after 10 minutes; logs in $OUT"
  sleep 0.2
done
ran=$(since "$jobs_started")

# Every task and the merge: state and exit code (slurmctld keeps finished jobs for MinJobAge).
records=$({ scontrol -o show job "$array" && scontrol -o show job "$merge"; } 2>&1) \
  || fail "slurmctld does not answer: $records"
awk '{
  line = ""
  for (i = 1; i <= NF; i++) if ($i ~ /^(JobId|ArrayTaskId|JobName|JobState|ExitCode|RunTime)=/) line = line " " $i
  print " " line
}' <<<"$records"
completed=$(grep -c 'JobState=COMPLETED .*ExitCode=0:0' <<<"$records" || true)
if [ "$(wc -l <<<"$records")" != 5 ] || [ "$completed" != 5 ] || [ ! -s "$OUT/merged.csv" ]; then
  tail -n 5 "$OUT"/*.log >&2 || true
  fail "$completed of 5 jobs (4 tasks and the merge) completed with exit code 0:0; logs in $OUT"
fi

sweep_started=$(now)
"$CACHELAB" sweep --trace "$TRACE" --policies "$POLICIES" --sizes "$SIZES" --output "$OUT/whole.csv" --quiet
swept=$(since "$sweep_started")
# The merged report must equal the unsharded one but for the columns that time the process
# (docs/commands/merge.md): same columns, same rows in the same order, same values.
python3 - "$OUT" <<'EOF' || fail "reports differ; they are in $OUT"
import csv, glob, sys
out = sys.argv[1]
timing = {"replay_seconds", "requests_per_second", "peak_memory_bytes"}
def read(path):
    with open(path, newline="") as file:
        rows = list(csv.reader(file))
    return rows[0], rows[1:]
(merged_header, merged), (whole_header, whole) = read(f"{out}/merged.csv"), read(f"{out}/whole.csv")
if merged_header != whole_header:
    sys.exit(f"columns differ: {sorted(set(merged_header) ^ set(whole_header))}")
if len(merged) != len(whole):
    sys.exit(f"merged report has {len(merged)} rows, the unsharded one {len(whole)}")
compared = [i for i, name in enumerate(merged_header) if name not in timing]
differing = [(row, merged_header[i], a[i], b[i]) for row, (a, b) in enumerate(zip(merged, whole))
             for i in compared if a[i] != b[i]]
if differing:
    sys.exit(f"{len(differing)} cells differ, first: {differing[:5]}")
shards = [len(read(path)[1]) for path in sorted(glob.glob(f"{out}/shard-*.csv"))]
print(f"merged report equals the unsharded sweep: {len(merged)} rows ({' + '.join(map(str, shards))}"
      f" from the shards) x {len(compared)} columns, timing columns aside")
EOF

rm -rf "$OUT"
trap - EXIT
stop_started=$(now)
stop_cluster
echo "times: cluster up $up s, array + merge $ran s, unsharded sweep $swept s," \
  "cluster down $(since "$stop_started") s, whole check $(since "$started") s"
