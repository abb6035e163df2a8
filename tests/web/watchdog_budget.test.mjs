// watchdog_budget.test.mjs — the page's watchdog budget comes from the reference solution's own run time: a multiple
// of it with a floor of a few seconds (web/exercise/watchdog_budget.js), not a fixed 5–30 s per exercise. The times
// are in web/exercise/reference_ms.js; a code exercise not measured yet gets the fallback, which must stop an endless
// loop within seconds and let any reference through that a measured budget lets through. Every budget stops an
// endless loop within seconds, and the table is not stale: each reference, run again on the judge's slowest case,
// still fits its budget. Needs the wasm core (scripts/build.sh).
import test from "node:test";
import assert from "node:assert/strict";

import { EXERCISES } from "../exercises/course.mjs";
import REFERENCE_MS from "../../web/exercise/reference_ms.js";
import { FLOOR_MS, MULTIPLE, UNMEASURED_MS, watchdogBudget } from "../../web/exercise/watchdog_budget.js";
import { referenceMs } from "../../bench/reference_times.mjs";

const code = EXERCISES.filter((e) => e.kind === "code");
const measured = code.filter((e) => e.id in REFERENCE_MS);
const SECONDS = 15000;   // "stopped in seconds everywhere"
const measure = (id) => `measure it: nice node bench/reference_times.mjs --only ${id} (writes its entry in web/exercise/reference_ms.js)`;

test("the table lists code exercises only, each with a whole positive number of ms", (t) => {
  const ids = new Set(code.map((e) => e.id));
  for (const [id, ms] of Object.entries(REFERENCE_MS)) {
    assert.ok(ids.has(id), `${id}: listed in web/exercise/reference_ms.js but no code exercise of the course — delete its line`);
    assert.ok(Number.isInteger(ms) && ms > 0, `${id}: ${ms}`);
  }
  for (const e of code.filter((x) => !(x.id in REFERENCE_MS))) {
    t.diagnostic(`${e.id}: no reference time yet, so its budget is the fallback ${UNMEASURED_MS} ms; ${measure(e.id)}`);
  }
});

test("an exercise without a reference time gets a safe budget: stopped within seconds, never below a measured budget", () => {
  assert.equal(watchdogBudget({ id: "w0-not-measured" }), UNMEASURED_MS);
  assert.ok(UNMEASURED_MS <= SECONDS, `an endless loop would run ${UNMEASURED_MS / 1000} s`);
  for (const e of measured) assert.ok(watchdogBudget(e) <= UNMEASURED_MS, `${e.id}: ${watchdogBudget(e)} ms, above the fallback`);
});

test("each budget is a multiple of its reference's time, at least the floor, and a few seconds at most", () => {
  assert.ok(FLOOR_MS >= 2000 && FLOOR_MS <= 5000 && MULTIPLE >= 5);
  for (const e of measured) {
    const budget = watchdogBudget(e);
    assert.ok(budget >= FLOOR_MS && budget >= MULTIPLE * REFERENCE_MS[e.id], `${e.id}: ${budget} ms`);
    assert.ok(budget < Math.max(FLOOR_MS, MULTIPLE * REFERENCE_MS[e.id]) + 500, `${e.id}: ${budget} ms, no more than that`);
    assert.ok(budget <= SECONDS, `${e.id}: an endless loop would run ${budget / 1000} s before the watchdog stops it`);
  }
});

// The formula is written where the times are: the table's header states it with the constants the code uses.
test("reference_ms.js states the budget formula with watchdog_budget.js's constants", async () => {
  const { readFileSync } = await import("node:fs");
  const head = readFileSync(new URL("../../web/exercise/reference_ms.js", import.meta.url), "utf8").split("export")[0];
  assert.ok(head.includes(`budget = max(${FLOOR_MS / 1000} s, t_ref × ${MULTIPLE} rounded up to 0.5 s)`), head);
  assert.match(head, /CPU time plus the run's virtual time/);
});

// The budget already allows MULTIPLE× the table's time (a loaded machine measures 2–4× slower): what must hold is that
// the reference itself, measured now, is not stopped by it. One test per exercise, named after it
// (scripts/test.sh --exercise ID runs it).
for (const e of code) {
  test(`${e.id}: the reference, run again, fits its watchdog budget`, { timeout: 120000 }, async () => {
    const ms = await referenceMs(e);
    const fix = e.id in REFERENCE_MS ? `re-measure it: nice node bench/reference_times.mjs --only ${e.id}` : measure(e.id);
    assert.ok(ms <= watchdogBudget(e), `${e.id}: the reference now takes ${ms.toFixed(0)} ms; budget ${watchdogBudget(e)} ms — ${fix}`);
  });
}
