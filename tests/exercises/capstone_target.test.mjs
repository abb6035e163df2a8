// capstone_target.test.mjs — Week 6's capstone trains its time-to-target sweep one P at a time (to show progress and
// stop between two): the report built from those runs is the core's whole sweep, points and best P alike.
//   node --test tests/exercises/capstone_target.test.mjs
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { DEFAULTS, TARGET_SWEEP, targetPoint, targetReport, targetReportOf } from "../../lessons/week6/capstone_setup.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();

for (const [name, settings] of [["synchronous, the defaults", { ...DEFAULTS, steps: 300 }],
  ["SSP, s = 2", { ...DEFAULTS, steps: 300, mode: "ssp", staleness: 2 }],
  ["a target no P reaches", { ...DEFAULTS, steps: 100, targetLoss: 0.02 }]]) {
  test(`capstone sweep, ${name}: one P at a time gives the core's whole sweep`, () => {
    const whole = targetReport(core, settings);
    const byP = targetReportOf(settings, TARGET_SWEEP.map((P) => targetPoint(core, settings, P)));
    assert.deepEqual(byP, whole);
  });
}

test("the best P is the soonest that reached the target; none reached is -1", () => {
  const p = (reached, wall) => ({ reached, wall });
  assert.equal(targetReportOf({}, [p(true, 9), p(true, 4), p(false, 1), p(true, 4)]).best, 1);
  assert.equal(targetReportOf({}, [p(false, 3), p(false, 1)]).best, -1);
});
