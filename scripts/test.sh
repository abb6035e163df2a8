#!/usr/bin/env bash
# Install what is missing, build everything and run every test: GoogleTest (ctest), the wasm module in
# Node, and the pages in real Chromium. Exits non-zero if anything fails.
#   bash scripts/test.sh --exercise ID   only the checks of exercise ID (every test named after it, in tests/exercises/;
#                                        seconds to a few minutes; the cores must have been built)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
if [ "${1:-}" = "--exercise" ] && [ -n "${2:-}" ]; then
  [ -f "$BUILD/wasm/wasm-node/dsml.cjs" ] || { echo "test.sh --exercise: no wasm core in $BUILD/wasm/wasm-node; run bash scripts/build.sh once" >&2; exit 2; }
  node --input-type=module -e '
    const { EXERCISES } = await import(process.argv[1]);
    if (!EXERCISES.some((e) => e.id === process.argv[2])) {
      console.error(`test.sh --exercise: no exercise ${process.argv[2]} in any lessons/*/exercises.js listed by web/lesson/course.js`);
      process.exit(2);
    }' "$ROOT/tests/exercises/course.mjs" "$2"
  log "the checks of $2 (node --test --test-name-pattern)"
  # Test names start with the id, or name it as a word: "w2-busbw: …", "w1-ping-pong checker: …" (ids contain "-").
  exec node --test --test-name-pattern="(^|[^a-z0-9-])$2([^a-z0-9-]|\$)" "$ROOT"/tests/exercises/*.test.mjs
elif [ $# -gt 0 ]; then
  echo "usage: bash scripts/test.sh [--exercise ID]" >&2; exit 2
fi
build_all
log "core tests (GoogleTest via ctest)"
ctest --test-dir "$BUILD/native" --output-on-failure -j"$(nproc)"
log "wasm module tests (node --test)"
node --test --test-concurrency="$(nproc)" "$ROOT"/tests/wasm/*.test.cjs
log "browser runtime and lesson modules in Node (node --test)"
node --test --test-concurrency="$(nproc)" "$ROOT"/tests/web/*.test.mjs
log "exercise checkers (node --test)"
node --test --test-concurrency="$(nproc)" "$ROOT"/tests/exercises/*.test.mjs
log "grading a class: submissions, the grader and the no-solutions site (node --test)"
node --test --test-concurrency="$(nproc)" "$ROOT"/tests/grading/*.test.mjs
log "page tests (Playwright on Chromium, one file per core: each opens its own browser, server and profile)"
# The longest files start first, so that the cores finish together rather than one waiting on a long file started
# last (the order only; every file runs). Measured with --test-reporter=tap: each file's suites' duration_ms.
# `node --test` would sort the files by name; scripts/run_in_order.mjs keeps this order.
# Last measured 2026-12-06 (CI=true, clean clone): lessons ≈ 170 s, reading ≈ 145 s, week3_widgets 137 s,
# progress_safety 107 s, offline 72 s, the rest under 65 s each (1436 s in all on 2 cores).
LONGEST_FIRST=(lessons reading week3_widgets progress_safety offline week6_widgets week6_workers week6_capstone
  step_through week4_workers csp run_isolation lab_panel week4_widgets week5_workers narrow_charts)
pages=()
for name in "${LONGEST_FIRST[@]}"; do
  if [ -f "$ROOT/tests/e2e/$name.test.mjs" ]; then pages+=("$ROOT/tests/e2e/$name.test.mjs"); fi
done
for file in "$ROOT"/tests/e2e/*.test.mjs; do
  [[ " ${pages[*]} " == *" $file "* ]] || pages+=("$file")
done
node "$ROOT/scripts/run_in_order.mjs" --concurrency "$(nproc)" "${pages[@]}"
log "every test passed"
