#!/usr/bin/env bash
# Installs what CacheLab needs besides Swift: pkg-config, the GNU Scientific Library, the
# zstd, xz (liblzma) and zlib libraries for compressed traces, and OpenSSL's libcrypto (MD5
# file names in the file store). Does nothing when they are present; safe to run repeatedly.
set -euo pipefail
if ! command -v swift >/dev/null 2>&1; then
  echo "error: swift is not on PATH; install Swift 6.1 or later first (https://swift.org/install)" >&2
  exit 1
fi
modules=(gsl libzstd liblzma zlib libcrypto)
missing() {
  command -v pkg-config >/dev/null 2>&1 || return 0
  for module in "${modules[@]}"; do pkg-config --exists "$module" || return 0; done
  return 1
}
missing || exit 0
if [ "$(uname)" = Darwin ]; then
  echo "installing gsl, zstd, xz and pkg-config with Homebrew ..." >&2
  brew install gsl zstd xz pkg-config
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
packages=(libgsl-dev libzstd-dev liblzma-dev zlib1g-dev libssl-dev pkg-config)
echo "installing ${packages[*]} ..." >&2
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y --no-install-recommends "${packages[@]}" >/dev/null; then
  $sudo apt-get update >/dev/null
  $sudo apt-get install -y --no-install-recommends "${packages[@]}" >/dev/null
fi
for module in "${modules[@]}"; do
  pkg-config --exists "$module" || { echo "error: $module still not found by pkg-config" >&2; exit 1; }
done
