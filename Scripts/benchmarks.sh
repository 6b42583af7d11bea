#!/usr/bin/env bash
# The benchmark set: builds CacheLab in release mode, measures every section (replay speed and
# peak memory per policy, engine and presets, parsing, sampling, sweeps, a fresh clone's first
# build; the libcachesim package side by side when .venv-peer/ has it or --peer-python names
# one) and writes docs/benchmarks.md and docs/benchmarks.csv, stamped with date, commit,
# machine and tool versions. Measure on an otherwise idle machine.
#
#   bash Scripts/benchmarks.sh                                # every section but test-suite
#   bash Scripts/benchmarks.sh --sections build,test-suite    # the README's two commands
#   bash Scripts/benchmarks.sh --sections policies --policies lru,sieve --repeats 5
#   bash Scripts/benchmarks.sh --help
set -euo pipefail
cd "$(dirname "$0")/.."
case " $* " in *" --help "* | *" -h "*) exec python3 Scripts/benchmarks.py --help ;; esac
bash Scripts/ensure-deps.sh
swift build -c release --product cachelab >/dev/null
peer=()
if [ -x .venv-peer/bin/python ] && [[ " $* " != *" --peer-python "* ]] \
  && .venv-peer/bin/python -c 'import libcachesim' >/dev/null 2>&1; then
  peer=(--peer-python .venv-peer/bin/python)
fi
exec python3 Scripts/benchmarks.py "${peer[@]}" "$@"
