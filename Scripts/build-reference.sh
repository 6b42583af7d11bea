#!/usr/bin/env bash
# Builds the reference `cachelab` for the side-by-side speed gate and prints its path:
#   bash Scripts/build-reference.sh [COMMIT]
# COMMIT defaults to the commit Reports/baseline/machine.txt names (the build that measured
# the baseline). When Sources/ and Package.swift are the same at COMMIT as in the work tree,
# the reference is a copy of this tree's release build (same source, no second build);
# otherwise COMMIT's sources are exported to .build-reference/src and built in release mode
# sharing .build (its dependencies are already built there), and this tree's release build is
# rebuilt afterwards (CACHELAB_REFERENCE_BUILD=always builds COMMIT even when unchanged). The
# reference ends up in .build-reference/cachelab-<commit>.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/ensure-deps.sh
machine=Reports/baseline/machine.txt
commit="${1:-}"
if [ -z "$commit" ]; then
  commit="$(sed -n 's/^commit: *//p' "$machine" 2>/dev/null || true)"
  if [ -z "$commit" ] || [ "$commit" = unknown ]; then
    echo "error: $machine names no commit; run bash Scripts/update-baseline.sh from a clean checkout" >&2
    exit 1
  fi
fi
if ! git cat-file -e "$commit^{commit}" 2>/dev/null; then
  git fetch --quiet origin "$commit" 2>/dev/null || true
fi
if ! git cat-file -e "$commit^{commit}" 2>/dev/null; then
  echo "error: commit $commit (named by $machine) is not in this clone; refresh the baseline" >&2
  exit 1
fi
short="$(git rev-parse --short=12 "$commit")"
mkdir -p .build-reference
reference=".build-reference/cachelab-$short"
if [ "${CACHELAB_REFERENCE_BUILD:-}" != always ] && git diff --quiet "$commit" -- Sources Package.swift \
  && [ -z "$(git ls-files --others --exclude-standard Sources)" ]; then
  echo "reference: Sources/ and Package.swift are unchanged since $short; the reference is this tree's build" >&2
  swift build -c release --product cachelab >&2
  cp .build/release/cachelab "$reference.tmp"
else
  echo "reference: building cachelab at $short (Sources/ or Package.swift changed since)" >&2
  rm -rf .build-reference/src
  mkdir -p .build-reference/src
  git archive "$commit" | tar -x -C .build-reference/src
  swift build -c release --product cachelab --package-path .build-reference/src --scratch-path .build >&2
  cp .build/release/cachelab "$reference.tmp"
  # .build/release now holds the reference's modules: build this tree's again.
  swift build -c release --product cachelab >&2
fi
mv "$reference.tmp" "$reference"
echo "$reference"
