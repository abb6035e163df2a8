#!/usr/bin/env bash
# Install what is missing, build everything and run every test: GoogleTest (ctest), the wasm module in
# Node, and the pages in real Chromium. Exits non-zero if anything fails.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
build_all
log "core tests (GoogleTest via ctest)"
ctest --test-dir "$BUILD/native" --output-on-failure -j"$(nproc)"
log "wasm module tests (node --test)"
node --test "$ROOT"/tests/wasm/*.test.cjs
log "browser runtime and lesson modules in Node (node --test)"
node --test "$ROOT"/tests/web/*.test.mjs
log "exercise checkers (node --test)"
node --test "$ROOT"/tests/exercises/*.test.mjs
log "page tests (Playwright on Chromium)"
node --test --test-concurrency=1 "$ROOT"/tests/e2e/*.test.mjs
