#!/usr/bin/env bash
# Differential check of CacheLab against libCacheSim's reference C implementations, as shipped
# in the libcachesim Python package (pinned to 0.3.5).
#
#   bash Scripts/peer-diff.sh                 # every mapped policy x trace x mode x size
#   bash Scripts/peer-diff.sh --subset        # a small fast subset (for CI)
#   bash Scripts/peer-diff.sh --admissions bloom-filter,prob --only-differences
#                                             # admission rows only (none: the plain rows)
#   bash Scripts/peer-diff.sh --help          # all options of Scripts/peer_diff.py
#
# Creates .venv-peer/ at the repository root when missing (git-ignored), installs
# libcachesim==0.3.5 into it with pip when missing, then runs Scripts/peer_diff.py with all
# arguments passed through. The CacheLab binary comes from $CACHELAB (default
# .build/release/cachelab, relative to the repository root); traces from ../shared/traces
# beside the repository ($PEER_TRACES overrides). Exit status: that of peer_diff.py
# (0: no DIFFERENT row, 1: some row DIFFERENT, 2: set-up problem).
set -euo pipefail

script_dir="$(cd "$(dirname "$0")" && pwd)"
repo_root="$(cd "$script_dir/.." && pwd)"
venv="$repo_root/.venv-peer"
pin="libcachesim==0.3.5"

python="${PYTHON:-python3}"
if ! command -v "$python" >/dev/null 2>&1; then
  echo "peer-diff: $python not found (set PYTHON)" >&2
  exit 2
fi

if [ ! -x "$venv/bin/python" ] && ! "$python" -c 'import ensurepip, venv' >/dev/null 2>&1 \
  && command -v apt-get >/dev/null 2>&1; then
  # Debian and Ubuntu ship venv's pip bootstrap separately.
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
  echo "peer-diff: installing python3-venv" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get install -y --no-install-recommends python3-venv >/dev/null \
    || { $sudo apt-get update >/dev/null && $sudo apt-get install -y --no-install-recommends python3-venv >/dev/null; }
fi
if [ ! -x "$venv/bin/python" ]; then
  echo "peer-diff: creating $venv" >&2
  "$python" -m venv "$venv"
fi

installed="$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("libcachesim"))' 2>/dev/null || true)"
if [ "$installed" != "0.3.5" ]; then
  echo "peer-diff: installing $pin into $venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$pin"
fi

# A CACHELAB or PEER_TRACES given relative to the current directory is made absolute; the
# defaults are relative to the repository root (the script changes to it).
if [ -n "${CACHELAB:-}" ] && [[ "$CACHELAB" == */* ]] && [ -e "$CACHELAB" ]; then
  CACHELAB="$(cd "$(dirname "$CACHELAB")" && pwd)/$(basename "$CACHELAB")"
fi
export CACHELAB="${CACHELAB:-$repo_root/.build/release/cachelab}"
if [ -n "${PEER_TRACES:-}" ] && [ -d "$PEER_TRACES" ]; then
  PEER_TRACES="$(cd "$PEER_TRACES" && pwd)"
fi
export PEER_TRACES="${PEER_TRACES:-$script_dir/../../shared/traces}"
cd "$repo_root"
exec "$venv/bin/python" "$script_dir/peer_diff.py" "$@"
