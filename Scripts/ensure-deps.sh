#!/usr/bin/env bash
# Installs what CacheLab needs besides Swift: pkg-config and the GNU Scientific Library.
# Does nothing when they are present; safe to run repeatedly.
set -euo pipefail
if ! command -v swift >/dev/null 2>&1; then
  echo "error: swift is not on PATH; install Swift 6.1 or later first (https://swift.org/install)" >&2
  exit 1
fi
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists gsl; then
  exit 0
fi
if [ "$(uname)" = Darwin ]; then
  echo "installing gsl and pkg-config with Homebrew ..." >&2
  brew install gsl pkg-config
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
echo "installing libgsl-dev and pkg-config ..." >&2
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y --no-install-recommends libgsl-dev pkg-config >/dev/null; then
  $sudo apt-get update >/dev/null
  $sudo apt-get install -y --no-install-recommends libgsl-dev pkg-config >/dev/null
fi
pkg-config --exists gsl || { echo "error: GSL still not found by pkg-config" >&2; exit 1; }
