#!/usr/bin/env bash
# Builds the release binary and links it as ~/.local/bin/cachelab (or $1/cachelab), so the
# README's commands work as written. Re-run after pulling to rebuild.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/ensure-deps.sh
swift build -c release --product cachelab >/dev/null
target=${1:-$HOME/.local/bin}
mkdir -p "$target"
ln -sf "$PWD/.build/release/cachelab" "$target/cachelab"
echo "linked $target/cachelab -> $PWD/.build/release/cachelab"
case ":$PATH:" in
  *":$target:"*) ;;
  *) echo "add it to your PATH: export PATH=\"$target:\$PATH\"" ;;
esac
