#!/usr/bin/env bash
# Install what is missing, build everything and run every test: GoogleTest (ctest), the wasm module in
# Node, and the pages in real Chromium. Exits non-zero if anything fails.
#   bash scripts/test.sh --exercise ID   every test named after exercise ID, in tests/exercises/, tests/web/ and the page
#                                        tests (tests/e2e/) with a test or suite named after it; prints what failed and a
#                                        line of summary (seconds to a few minutes; builds the wasm core first if there is none)
#   bash scripts/test.sh --changed BASE  what the change since commit BASE can break (scripts/change_scope.mjs): for a
#                                        lesson-only change (lessons/, web/, *.md) the site build, the Node tests of
#                                        tests/web and tests/exercises and the page tests of the changed pages, on the
#                                        wasm core already built (built if there is none); for any other change, everything
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
elif [ "${1:-}" = "--changed" ] && [ $# -eq 2 ]; then
  mapfile -t scope < <(node "$ROOT/scripts/change_scope.mjs" "$2")
  if [ "${scope[0]}" = lessons ]; then
    log "a lesson-only change since ${2:0:12}: the site build, the Node tests and $((${#scope[@]} - 1)) page test files"
    ensure_apt
    ensure_npm
    # The core's sources did not change: the wasm core built from them (CI restores it from its cache) still holds.
    [ -f "$BUILD/wasm/wasm-node/dsml.cjs" ] && [ -f "$BUILD/wasm/wasm/dsml.wasm" ] || build_wasm
    build_site
    log "Node tests: the browser runtime, links and lesson modules, the exercise checkers"
    node "$ROOT/scripts/run_in_order.mjs" --concurrency "$(nproc)" --timings "$BUILD/node_test_seconds.json" \
      "$ROOT"/tests/web/*.test.mjs "$ROOT"/tests/exercises/*.test.mjs
    if [ ${#scope[@]} -gt 1 ]; then
      log "page tests of the changed pages: ${scope[*]:1}"
      pages=("${scope[@]:1}")
      node "$ROOT/scripts/run_in_order.mjs" --concurrency "$(nproc)" --browser --timings "$BUILD/page_test_seconds.json" \
        "${pages[@]/#/$ROOT/}"
    fi
    log "every test of a lesson-only change passed"
    exit 0
  fi
  log "the change since ${2:0:12} is not lesson-only (or its base is unknown): every test"
elif [ $# -gt 0 ]; then
  echo "usage: bash scripts/test.sh [--exercise ID | --changed BASE]" >&2; exit 2
fi
build_all
log "core tests (GoogleTest via ctest)"
ctest --test-dir "$BUILD/native" --output-on-failure -j"$(nproc)"
log "Node tests: the wasm module, the browser runtime and lesson modules, the exercise checkers, grading a class"
# One run of the four folders, the longest file first (from the last run's timings): run folder by folder, each
# folder's longest file ended its phase on one core while the other waited.
node "$ROOT/scripts/run_in_order.mjs" --concurrency "$(nproc)" --timings "$BUILD/node_test_seconds.json" \
  "$ROOT"/tests/wasm/*.test.cjs "$ROOT"/tests/web/*.test.mjs "$ROOT"/tests/exercises/*.test.mjs "$ROOT"/tests/grading/*.test.mjs
log "benchmarks once at a small size"
# The wasm bench programs are outside the default build (CMakeLists.txt: dsml_wasm_bench); bench/mlp_step.sh and
# gemm_shapes run them, so they are built here. bench/smoke.mjs prints one line per bench; about 1 min of CPU in all.
cmake --build "$BUILD/wasm" -j"$(nproc)" --target mlp_step_wasm gemm_shapes_wasm
node "$ROOT/bench/smoke.mjs"
log "page tests (Playwright on Chromium: one browser, a fresh context per file, a file per core)"
# The page tests are CPU-bound: two files per core took as long as one (11 min 42 s for 281 tests against 11 min 9 s
# for 265) and loaded each file twice as much. The longest files start first, so that the cores finish together rather
# than one waiting on a long file started last: the order comes from the last run's timings, which the runner writes to
# build/page_test_seconds.json.
node "$ROOT/scripts/run_in_order.mjs" --concurrency "$(nproc)" --browser --timings "$BUILD/page_test_seconds.json" \
  "$ROOT"/tests/e2e/*.test.mjs
log "every test passed"
