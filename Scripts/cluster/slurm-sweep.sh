#!/bin/bash
# A sharded sweep as a Slurm job array: each task simulates 1/8 of the (policy × size) grid,
# reading its shard from SLURM_ARRAY_TASK_ID/COUNT (--shard auto); a dependent job merges.
#   sbatch --export=ALL,TRACE=/data/cdn.oracleGeneral.zst,OUT=$PWD/out Scripts/cluster/slurm-sweep.sh
#   sbatch --dependency=afterok:<job id> --wrap "cachelab merge $PWD/out/shard-*.csv --output $PWD/sweep.csv"
# POLICIES and SIZES hold commas, which --export=NAME=VALUE splits at: set them in the
# environment instead (POLICIES=lru,arc SIZES=log:0.001:0.5:20 sbatch --export=ALL,TRACE=... ...).
# Checked on a real single-node Slurm by Scripts/cluster/slurm-check.sh.
#SBATCH --job-name=cachelab-sweep
#SBATCH --array=0-7
#SBATCH --cpus-per-task=4
#SBATCH --mem=8G
set -euo pipefail
: "${TRACE:?set TRACE to the trace file}"
: "${OUT:?set OUT to a shared output folder}"
cachelab sweep --trace "$TRACE" --policies "${POLICIES:-lru,sieve,s3fifo,arc,wtinylfu}" \
  --sizes "${SIZES:-log:0.001:0.5:20}" --shard auto \
  --output "$OUT/shard-${SLURM_ARRAY_TASK_ID}.csv" --quiet
