// week4_probe.test.mjs — "w4-probe-stop" (lessons/week4/exercises/probe_stop.js) on the judge cluster: the
// reference stops the loader within a few batches of the trainer's target under every delivery order tried, sends
// exactly the epoch when the epoch runs out first (every plan has such a case), and each wrong loader fails with the
// mistake it makes named (judging.test.mjs judges it like every code exercise;
// this file adds what is particular to probe: how early the stop is seen, and that the judge is deterministic).
//   node --test tests/exercises/week4_probe.test.mjs
import test from "node:test";
import assert from "node:assert/strict";
import { probeStop as e } from "../../lessons/week4/exercises/probe_stop.js";
import { judgeAttempt, judgeEntry, plansFor } from "./judge.mjs";

test("w4-probe-stop: the reference stops within 3× the trainer's target, or at the epoch's end, the same way for the same seed", async () => {
  for (const { plan } of plansFor(e, 20)) {
    assert.ok(plan.some((entry) => entry.testCase.target > entry.testCase.limit), "a case where the epoch runs out first");
    assert.ok(plan.some((entry) => entry.testCase.target === entry.testCase.limit), "a case where both come at once");
    for (const entry of plan) {
      const { run, verdict } = await judgeEntry(e, e.solution, entry);
      assert.ok(verdict.pass, verdict.message);
      const { target, limit } = entry.testCase;
      if (target >= limit) assert.equal(run.results[0], limit, `the whole epoch of ${limit} for target ${target}`);
      else assert.ok(run.results[0] >= target && run.results[0] <= Math.min(3 * target + 3, limit), `sent ${run.results[0]} for target ${target}`);
      const again = await judgeEntry(e, e.solution, entry);
      assert.deepEqual(again.run.trace, run.trace, "a seeded judge run replays exactly");
    }
  }
});

test("w4-probe-stop: every wrong loader fails, naming its mistake; the starter fails", async () => {
  for (const w of e.wrongs) {
    const verdict = await judgeAttempt(e, w.code, 1);
    assert.equal(verdict.pass, false, w.name);
    assert.match(verdict.message, w.expect, w.name);
  }
  assert.equal((await judgeAttempt(e, e.starter, 1)).pass, false);
});
