// run_results.mjs — hand-made RunResults for the checker tests (web/README.md, "The Worker cluster"): one that
// finished with the given trace and results, and an assertion that a checker fails it with a message naming the mistake.
import assert from "node:assert/strict";

export const okRun = (trace, results) => ({ status: "ok", elapsedMs: 1, results, logs: [], trace, spans: [],
  error: null, deadlock: null, timeout: null });

/** (exercise, run, testCase, pattern) => void: the exercise's checker, given `core`, fails the run saying `pattern`. */
export const expectFailWith = (core) => (e, run, testCase, pattern) => {
  const v = e.check(run, testCase, core);
  assert.ok(!v.pass, `expected a failure matching ${pattern}, got a pass: ${v.message}`);
  assert.match(v.message, pattern);
};
