#!/usr/bin/env bash
# The whole test suite (what CI runs): installs the system libraries if missing, checks
# formatting, then builds and runs every test, the DocC catalogs and the library example
# (Examples/CustomPolicy, as a versioned dependency of a tagged clone). Tests that read
# ../shared/traces fail under CI=true when a trace is missing, and are skipped with a message
# otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/ensure-deps.sh
swift format lint --strict --recursive Sources Tests Package.swift Benchmarks/Package.swift Benchmarks/Benchmarks \
  Examples/CustomPolicy/Package.swift Examples/CustomPolicy/Sources
swift build --build-tests
# Tests that time real disk reads against the model run alone, once the rest has finished:
# beside the other suites' threads their timings measure the scheduler, not the store.
CACHELAB_MEASURE_ALONE=1 swift test --skip-build
swift test --skip-build --filter MeasuredVersusModelledTests
# The library's DocC catalogs (Sources/*/*.docc) build without a warning (broken links fail).
swift package generate-documentation --target CacheCore --target Engine --target Replay --warnings-as-errors >/dev/null
# CacheLab as a library: a separate package that depends on a tagged clone (`from: "0.1.0"`)
# defines, registers and runs its own policy and preset.
bash Scripts/consumer-check.sh
