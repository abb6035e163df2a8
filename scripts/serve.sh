#!/usr/bin/env bash
# Install what is missing, build everything and serve the course on http://127.0.0.1:${PORT:-8000}.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
build_all
log "serving $SITE: the course is at http://127.0.0.1:${PORT:-8000}/lessons/  (Ctrl-C to stop)"
exec node "$ROOT/scripts/serve.mjs" "$SITE" --port "${PORT:-8000}"
