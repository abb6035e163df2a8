#!/usr/bin/env bash
# Install what is missing and build everything (native core, wasm core, site/) without serving or testing.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
build_all
log "built: $SITE"
