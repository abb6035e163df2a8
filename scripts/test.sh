#!/usr/bin/env bash
# Install what is missing, build everything and run every test: GoogleTest (ctest), the wasm module in
# Node, and the pages in real Chromium. Exits non-zero if anything fails.
#   bash scripts/test.sh --exercise ID   every test named after exercise ID, in tests/exercises/, tests/web/ and the page
#                                        tests (tests/e2e/) with a test or suite named after it; prints what failed and a
#                                        line of summary (seconds to a few minutes; builds the wasm core first if there is none)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
if [ "${1:-}" = "--exercise" ] && [ -n "${2:-}" ]; then
  [ -f "$BUILD/wasm/wasm-node/dsml.cjs" ] || { log "no wasm core yet: building it first"; build_course; }
  node --input-type=module -e '
    const { EXERCISES } = await import(process.argv[1]);
    if (!EXERCISES.some((e) => e.id === process.argv[2])) {
      console.error(`test.sh --exercise: no exercise ${process.argv[2]} in any lessons/*/exercises.js listed by web/lesson/course.js`);
      process.exit(2);
    }' "$ROOT/tests/exercises/course.mjs" "$2"
  # Test names start with the id, or name it as a word: "w2-busbw: …", "w1-ping-pong checker: …" (ids contain "-").
  # A page test file is run only if one of its tests or suites names the id (each file starts its own Chromium).
  mapfile -t pages < <(grep -lE "(test|describe)\(.*(^|[^a-z0-9-])$2([^a-z0-9-]|\$)" "$ROOT"/tests/e2e/*.test.mjs || true)
  log "the tests named after $2 in tests/exercises/, tests/web/${pages[*]:+ and ${pages[*]#$ROOT/}} (failures only)"
  DSML_REPORT_ID="$2" exec node --test --test-name-pattern="(^|[^a-z0-9-])$2([^a-z0-9-]|\$)" \
    --test-reporter="$ROOT/scripts/failures_reporter.mjs" --test-reporter-destination=stdout \
    "$ROOT"/tests/exercises/*.test.mjs "$ROOT"/tests/web/*.test.mjs "${pages[@]}"
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
log "benchmarks once at a small size"
# The wasm bench programs are outside the default build (CMakeLists.txt: dsml_wasm_bench); bench/mlp_step.sh and
# gemm_shapes run them, so they are built here. bench/smoke.mjs prints one line per bench; about 1 min of CPU in all.
cmake --build "$BUILD/wasm" -j"$(nproc)" --target mlp_step_wasm gemm_shapes_wasm
node "$ROOT/bench/smoke.mjs"
log "page tests (Playwright on Chromium: one browser, a fresh context per file, a file per core)"
# The longest files start first, so that the cores finish together rather than one waiting on a long file started
# last: the order comes from the last run's timings, which the runner writes to build/page_test_seconds.json.
node "$ROOT/scripts/run_in_order.mjs" --concurrency "$(nproc)" --browser --timings "$BUILD/page_test_seconds.json" \
  "$ROOT"/tests/e2e/*.test.mjs
log "every test passed"
