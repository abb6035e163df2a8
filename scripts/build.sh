#!/usr/bin/env bash
# Install what is missing and build everything (native core, wasm core, site/) without serving or testing.
#   bash scripts/build.sh --wasm-only   the wasm core and site/ only: what the course and an author's loop need (no
#                                       native core, tests, CLI or benchmarks; a few minutes on 2 cores from nothing)
#   bash scripts/build.sh --site-only   re-assemble site/ from lessons/ and web/ (≈ 1 s once the wasm core is built;
#                                       builds the wasm core first if there is none)
#   … --no-solutions (or DSML_NO_SOLUTIONS=1)   the site of a graded term: the reference solutions left out
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
args=()
for arg in "$@"; do
  if [ "$arg" = "--no-solutions" ]; then export DSML_NO_SOLUTIONS=1; else args+=("$arg"); fi
done
set -- ${args[@]+"${args[@]}"}
if [ "${1:-}" = "--site-only" ] && [ $# -eq 1 ]; then
  if [ -f "$BUILD/wasm/wasm/dsml.mjs" ]; then build_site; else log "no wasm core yet: building it first"; build_course; fi
  log "site re-assembled: $SITE"
  exit 0
elif [ "${1:-}" = "--wasm-only" ] && [ $# -eq 1 ]; then
  build_course
  log "built the wasm core and $SITE"
  exit 0
elif [ $# -gt 0 ]; then
  echo "usage: bash scripts/build.sh [--wasm-only | --site-only] [--no-solutions]" >&2; exit 2
fi
build_all
log "built: $SITE"
