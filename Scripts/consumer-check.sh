#!/usr/bin/env bash
# CacheLab as a versioned dependency, the way another package uses it: clones this repository's
# HEAD into a scratch folder, tags the clone 0.1.0, copies Examples/CustomPolicy beside it with
# its path dependency replaced by `.package(url: "file://…/CacheLab", from: "0.1.0")`, then
# builds it and runs its custom policy and preset through CacheLab's replayer. Fails if any
# target of the CacheLabKit product carries unsafe build flags (SwiftPM refuses them in a
# versioned dependency) or if the example's output lacks its policy's row.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d "${TMPDIR:-/tmp}/cachelab-consumer.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
git clone --quiet . "$scratch/CacheLab"
git -C "$scratch/CacheLab" -c user.name=ci -c user.email=ci@localhost tag -a 0.1.0 -m "consumer check" >/dev/null
cp -R Examples/CustomPolicy "$scratch/Consumer"
rm -rf "$scratch/Consumer/.build"
python3 - "$scratch/Consumer/Package.swift" "file://$scratch/CacheLab" <<'PY'
import sys
path, url = sys.argv[1], sys.argv[2]
text = open(path).read()
local = '.package(name: "CacheLab", path: "../..")'
if local not in text:
    sys.exit(f"consumer-check: {path} no longer has {local}")
open(path, "w").write(text.replace(local, f'.package(url: "{url}", from: "0.1.0")'))
PY
output=$(swift run --package-path "$scratch/Consumer" CustomPolicyDemo "$PWD/Traces/zipf-demo.oracleGeneral.bin" 2>&1) || {
  echo "$output" >&2
  echo "consumer-check: the consumer package failed against the tagged clone" >&2
  exit 1
}
grep -q "midpoint-lru" <<<"$output" || {
  echo "$output" >&2
  echo "consumer-check: the example printed no midpoint-lru row" >&2
  exit 1
}
echo "consumer-check: a package depending on CacheLab from: \"0.1.0\" built and ran its own policy"
tail -1 <<<"$output"
