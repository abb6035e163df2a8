#!/usr/bin/env bash
# Install what is missing, build the wasm core and site/ (the course needs nothing native) and serve the course on http://127.0.0.1:${PORT:-8000}.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
build_course
log "serving $SITE: the course is at http://127.0.0.1:${PORT:-8000}/lessons/  (Ctrl-C to stop)"
exec node "$ROOT/scripts/serve.mjs" "$SITE" --port "${PORT:-8000}"
