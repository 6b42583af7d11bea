#!/usr/bin/env bash
# Sampled against exact sweeps on scarab (the largest shared trace): mean wall time of each
# (whole process, N runs) and the mean absolute error of the sampled miss ratios, per --sample
# setting and floor. Uses the installed binary (Scripts/install.sh), which is what users run.
# Usage: bash Scripts/bench-sample.sh [runs=20]
set -euo pipefail
cd "$(dirname "$0")/.."
trace=../shared/traces/scarab/scarab-recs.trace
[ -f "$trace" ] || { echo "error: $trace is missing (../shared/traces)" >&2; exit 1; }
bash Scripts/install.sh "$PWD/.build-install/bin" >/dev/null
python3 - "${1:-20}" "$trace" .build-install/release/cachelab <<'PY'
import csv, statistics, subprocess, sys, tempfile, time
runs, trace, cachelab = int(sys.argv[1]), sys.argv[2], sys.argv[3]
work = tempfile.mkdtemp()
def sweep(output, *extra):
    return [cachelab, "sweep", "--trace", trace, "--policies", "lru,sieve,s3fifo,arc", "--ignore-size", "--quiet",
            "--sizes", "1000,2132,4544,9686,20648,44014,93823,200000", "--output", output, *extra]
def seconds(command, count):
    times = []
    for _ in range(count):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.mean(times)
def ratios(path):
    return {(r["policy"], r["capacity_spec"]): float(r["miss_ratio"]) for r in csv.DictReader(open(path))}
exact = seconds(sweep(f"{work}/exact.csv"), max(3, runs // 4))
print(f"exact sweep: {exact:.3f} s")
print(f"{'sample':<10} {'floor':<6} {'mae':<8} {'largest':<8} {'seconds':<8} speed-up")
for sample, floor in [("0.01", "0"), ("0.01", "32"), ("0.01", "100"), ("0.1", "32"), ("8192obj", "32"), ("2000obj", "32")]:
    command = sweep(f"{work}/s.csv", "--sample", sample, "--sample-floor", floor)
    took = seconds(command, runs)
    e, s = ratios(f"{work}/exact.csv"), ratios(f"{work}/s.csv")
    errors = [abs(e[k] - s[k]) for k in e]
    print(f"{sample:<10} {floor:<6} {statistics.mean(errors):<8.4f} {max(errors):<8.4f} {took:<8.4f} {exact / took:.1f}x")
PY
