#!/usr/bin/env bash
# Install what is missing and build everything (native core, wasm core, site/) without serving or testing.
#   bash scripts/build.sh --site-only   re-assemble site/ from lessons/ and web/ (≈ 1 s; the cores must have been built)
#   … --no-solutions (or DSML_NO_SOLUTIONS=1)   the site of a graded term: the reference solutions left out
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
args=()
for arg in "$@"; do
  if [ "$arg" = "--no-solutions" ]; then export DSML_NO_SOLUTIONS=1; else args+=("$arg"); fi
done
set -- "${args[@]}"
if [ "${1:-}" = "--site-only" ] && [ $# -eq 1 ]; then
  [ -f "$BUILD/wasm/wasm/dsml.mjs" ] || { echo "build.sh --site-only: no wasm core in $BUILD/wasm/wasm; run bash scripts/build.sh once" >&2; exit 2; }
  build_site
  log "site re-assembled: $SITE"
  exit 0
elif [ $# -gt 0 ]; then
  echo "usage: bash scripts/build.sh [--site-only] [--no-solutions]" >&2; exit 2
fi
build_all
log "built: $SITE"
