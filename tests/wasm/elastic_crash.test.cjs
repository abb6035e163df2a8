// Elastic training after a crash from JavaScript: a rank lost during step 7 without handing over its
// state. ZeRO-1 rolls back to the checkpoint of step 5 and recomputes 5 and 6 on the survivors, then matches the
// uninterrupted run; DP carries on from the survivors' replicas.
const test = require("node:test");
const assert = require("node:assert/strict");
const loadCore = require("./load_core.cjs");

const request = { model: { layers: 2, width: 4, hidden: 8 }, batch: 12, steps: 10, seed: 7, workers: 4,
                  checkpointInterval: 5 };

test("a ZeRO-1 crash rolls back to the last checkpoint and then equals the uninterrupted run", async () => {
  const core = await loadCore();
  const whole = core.trainElastic(request);
  const r = core.trainElastic({ ...request, changes: [{ step: 7, workers: 3, crash: true }] });
  const e = r.resizes[0];
  assert.deepEqual([e.crash, e.restoredFrom, e.lostSteps, e.bytesRestored], [true, 5, 2, 3 * 128 * 8]);
  assert.deepEqual([...r.workers], [4, 4, 4, 4, 4, 3, 3, 3, 3, 3]);
  r.losses.forEach((l, t) => assert.ok(Math.abs(l - whole.losses[t]) < 1e-12 * l, `step ${t}`));
  assert.ok(r.maxRelativeDifference < 1e-12);
});

test("a DP crash loses only the step in flight; a crash that grows the world is refused", async () => {
  const core = await loadCore();
  const r = core.trainElastic({ ...request, replicated: true, changes: [{ step: 7, workers: 2, crash: true }] });
  assert.deepEqual([r.resizes[0].restoredFrom, r.resizes[0].lostSteps], [-1, 0]);
  assert.ok(r.maxRelativeDifference < 1e-12);
  assert.throws(() => core.trainElastic({ ...request, workers: 2, changes: [{ step: 3, workers: 4, crash: true }] }),
                /a crash at step 3 must leave fewer workers than the 2 running, got 4/);
});
