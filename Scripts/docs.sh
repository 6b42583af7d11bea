#!/usr/bin/env bash
# Regenerates every generated block in README.md and docs/ (registry tables, help texts:
# `<!-- generated: cachelab ARGS -->` … `<!-- end generated -->`) from the built cachelab;
# `GeneratedDocsTests` fails until they are current. docs/benchmarks.md comes from
# `bash Scripts/benchmarks.sh` instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/ensure-deps.sh
swift build --build-tests
CACHELAB_UPDATE_SNAPSHOTS=1 swift test --skip-build --filter GeneratedDocsTests
