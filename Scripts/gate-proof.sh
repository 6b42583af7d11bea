#!/usr/bin/env bash
# Proves on this machine that the side-by-side speed gate neither cries wolf nor is fooled,
# and writes what it saw to docs/gate-proof.md (stamped with date, commit and machine):
#   1. an unchanged tree passes three runs in a row (the reference: a separate release build
#      of the same commit);
#   2. it passes while two busy loops load both cores;
#   3. a 15 % slowdown injected into the shared replay loop (every configuration) fails it;
#   4. a 30 % slowdown of one policy (lru) alone fails it;
#   5. a debug build judged against the release build fails, naming every configuration;
# and, to calibrate 3 and 4, the injection build with nothing injected against the release
# build (two builds of one source differ a little in speed: code layout).
# The slowdowns come from a release build compiled with -DCACHELAB_INJECT_SLOWDOWN (in
# .build-inject; a normal build has no such code) and the environment variable
# CACHELAB_INJECT_SLOWDOWN (0.15: every cache's timed replay takes time ÷ 0.85; lru=0.30:
# only lru's, ÷ 0.70). Takes about 30 minutes on 2 cores. Exits 1 if any proof fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/ensure-deps.sh
reference="$(CACHELAB_REFERENCE_BUILD=always bash Scripts/build-reference.sh "$(git rev-parse HEAD)")"
swift build -c release --product cachelab -Xswiftc -DCACHELAB_INJECT_SLOWDOWN --scratch-path .build-inject >/dev/null
swift build --product cachelab >/dev/null
release=.build/release/cachelab
injected=.build-inject/release/cachelab
debug=.build/debug/cachelab
mkdir -p docs
record=docs/gate-proof.md.tmp
failures=0
commit="$(git rev-parse HEAD)$(git diff --quiet HEAD -- Sources Package.swift || echo ' (with uncommitted source changes)')"
machine="$(hostname), $(sed -n 's/^model name\t*: //p' /proc/cpuinfo 2>/dev/null | head -1 || uname -m), $(nproc) cores, $(uname -sr), $(swift --version 2>/dev/null | head -1)"
{
  echo "# The speed gate, proved on one machine"
  echo
  echo "Written by \`bash Scripts/gate-proof.sh\` on $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $commit,"
  echo "on $machine. Every figure below is this run's output; rerun the script to refresh it."
  echo
  echo "Each proof runs \`cachelab regress --baseline Reports/baseline --speed-against REFERENCE\`"
  echo "(10 rounds unless said) and shows its exit status, its time and what it printed about speed."
} > "$record"

# prove NAME EXPECTED-STATUS PATTERN CANDIDATE ENV=VALUE ARGS...: runs one gate and records
# it; proved when it exits EXPECTED-STATUS and its output matches the extended regex PATTERN.
prove() {
  local name="$1" expected="$2" pattern="$3" candidate="$4" setting="$5"
  shift 5
  local log status started=$SECONDS
  log="$(mktemp)"
  set +e
  env ${setting:+"$setting"} "$candidate" regress --baseline Reports/baseline "$@" >"$log" 2>&1
  status=$?
  set -e
  local seconds=$((SECONDS - started)) verdict=proved
  if [ "$status" != "$expected" ] || ! grep -Eq "$pattern" "$log"; then
    verdict="NOT PROVED (expected exit $expected and output matching /$pattern/)"
    failures=$((failures + 1))
  fi
  echo "$name: exit $status in $seconds s: $verdict" >&2
  {
    echo
    echo "## $name: $verdict"
    echo
    echo '```text'
    echo "\$ ${setting:+$setting }$candidate regress --baseline Reports/baseline $*"
    # sed, not head: head would stop reading, and a broken pipe would end the script (pipefail).
    grep -E '^(speed|  |Error|no regression)' "$log" | sed -n '1,40p'
    echo "(exit $status, $seconds s)"
    echo '```'
  } >> "$record"
  rm -f "$log"
}

pass='^speed: overall .*: not slower$'
for run in 1 2 3; do
  prove "Unchanged tree, run $run of 3" 0 "$pass" "$release" "" --speed-against "$reference"
done
python3 -c 'while 1: pass' & busy1=$!
python3 -c 'while 1: pass' & busy2=$!
trap 'kill $busy1 $busy2 2>/dev/null || true' EXIT
prove "Unchanged tree with two busy loops on both cores" 0 "$pass" "$release" "" --speed-against "$reference"
kill $busy1 $busy2 2>/dev/null || true
prove "Calibration: the injection build with nothing injected" 0 "$pass" "$injected" "" --speed-against "$release"
prove "A 15 % slowdown of every cache (the shared replay loop)" 1 '^speed: overall .*: SLOWER$' "$injected" \
  CACHELAB_INJECT_SLOWDOWN=0.15 --speed-against "$release"
prove "A 30 % slowdown of lru alone" 1 '^  Reports/baseline/policies.csv: lru @ ' "$injected" \
  CACHELAB_INJECT_SLOWDOWN=lru=0.30 --speed-against "$release"
# Every configuration named: "speed: N of N configurations slower".
prove "A debug build against the release build (6 rounds)" 1 '^speed: ([0-9]+) of \1 configurations slower' \
  "$debug" "" --speed-against "$release" --rounds 6
mv "$record" docs/gate-proof.md
echo "wrote docs/gate-proof.md ($failures proofs failed)" >&2
[ "$failures" -eq 0 ]
