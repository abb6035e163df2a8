// watchdog_budget.test.mjs — the page's watchdog budget comes from the reference solution's own run time (issue 25
// §4.2): a multiple of it with a floor of a few seconds (web/exercise/watchdog_budget.js), not a fixed 5–30 s per
// exercise. Every code exercise of the course has its reference's time in web/exercise/reference_ms.js, every budget
// stops an endless loop within seconds, and the table is not stale: each reference, run again on the judge's slowest
// case, still fits its budget. Needs the wasm core (scripts/build.sh).
import test from "node:test";
import assert from "node:assert/strict";

import { EXERCISES } from "../exercises/course.mjs";
import REFERENCE_MS from "../../web/exercise/reference_ms.js";
import { FLOOR_MS, MULTIPLE, watchdogBudget } from "../../web/exercise/watchdog_budget.js";
import { referenceMs } from "../../bench/reference_times.mjs";

const code = EXERCISES.filter((e) => e.kind === "code");
const SECONDS = 15000;   // "stopped in seconds everywhere" (it was 30 s on five exercises)

test("every code exercise has its reference's run time, and no other id is listed", () => {
  assert.deepEqual(Object.keys(REFERENCE_MS).sort(), code.map((e) => e.id).sort());
  for (const [id, ms] of Object.entries(REFERENCE_MS)) assert.ok(Number.isInteger(ms) && ms > 0, `${id}: ${ms}`);
});

test("each budget is a multiple of its reference's time, at least the floor, and a few seconds at most", () => {
  assert.ok(FLOOR_MS >= 2000 && FLOOR_MS <= 5000 && MULTIPLE >= 5);
  for (const e of code) {
    const budget = watchdogBudget(e);
    assert.ok(budget >= FLOOR_MS && budget >= MULTIPLE * REFERENCE_MS[e.id], `${e.id}: ${budget} ms`);
    assert.ok(budget < Math.max(FLOOR_MS, MULTIPLE * REFERENCE_MS[e.id]) + 500, `${e.id}: ${budget} ms, no more than that`);
    assert.ok(budget <= SECONDS, `${e.id}: an endless loop would run ${budget / 1000} s before the watchdog stops it`);
  }
});

// The budget already allows MULTIPLE× the table's time (a loaded machine measures 2–4× slower): what must hold is that
// the reference itself, measured now, is not stopped by it.
test("the table is not stale: every reference, run again, fits its budget", { timeout: 600000 }, async () => {
  for (const e of code) {
    const ms = await referenceMs(e);
    assert.ok(ms <= watchdogBudget(e), `${e.id}: the reference now takes ${ms.toFixed(0)} ms; budget ${watchdogBudget(e)} ms ` +
      "— regenerate web/exercise/reference_ms.js (nice node bench/reference_times.mjs)");
  }
});
