// Week 6's capstone trained to a loss target, from JavaScript: jobToTarget's steps are the first step of simulateJob's
// own loss curve at or below the target; SSP with s = 0 is the synchronous job; a larger bound allows staler updates
// within (s + 1)·P − 1; jobTargetScaling marks the smallest wall among the points that reached the target and says the
// cap; bad input is a readable Error (a compressor with the asynchronous job, a target <= 0).
const test = require("node:test");
const assert = require("node:assert/strict");
const loadCore = require("./load_core.cjs");

const job = { workers: 4, steps: 600, compressor: "none", failures: false, targetLoss: 0.2 };

test("the synchronous steps to the target are the first of the job's own curve at the target", async () => {
  const core = await loadCore();
  const t = core.jobToTarget(job);
  assert.equal(t.reached, true);
  const losses = core.simulateJob({ ...job, train: true }).losses;
  const first = losses.findIndex((l) => l <= job.targetLoss);
  assert.ok(first > 0);
  assert.equal(t.steps, first);
  assert.equal(t.updates, 4 * first);
  assert.equal(t.loss, losses[first]);
  assert.ok(t.curveLoss instanceof Float64Array && t.curveLoss.length === first + 1);
  // the clock of those steps is simulateJob's for that many steps; without failures, checkpoints every 200 steps add on
  const clock = core.simulateJob({ ...job, steps: first, train: false });
  assert.equal(t.work, clock.work);
  assert.equal(t.wall, clock.work + Math.ceil(first / 200) * 20);
});

test("SSP with s = 0 is the synchronous job; a larger bound lets updates grow staler, within (s + 1)·P − 1", async () => {
  const core = await loadCore();
  const sync = core.jobToTarget(job);
  const ssp0 = core.jobToTarget({ ...job, asynchronous: true, staleness: 0 });
  assert.equal(ssp0.steps, sync.steps);
  assert.ok(Math.abs(ssp0.loss - sync.loss) <= 1e-12 * sync.loss, `${ssp0.loss} vs ${sync.loss}`);
  assert.ok(ssp0.maxStaleness <= 3);
  const slow = { ...job, asynchronous: true, stragglerProbability: 0.3, slowdown: 3, seed: 2 };
  const s8 = core.jobToTarget({ ...slow, staleness: 8 });
  assert.equal(s8.reached, true);
  assert.ok(s8.maxStaleness > 3 && s8.maxStaleness <= 9 * 4 - 1, String(s8.maxStaleness));
  const s0 = core.jobToTarget({ ...slow, staleness: 0 });
  assert.ok(s8.work / s8.steps < s0.work / s0.steps, "less waiting per step's worth of data");
});

test("the sweep marks the smallest wall among those that reached the target, and says the cap", async () => {
  const core = await loadCore();
  const sweep = core.jobTargetScaling(job, [1, 2, 4, 8]);
  assert.deepEqual(sweep.points.map((p) => p.workers), [1, 2, 4, 8]);
  const reached = sweep.points.filter((p) => p.reached);
  assert.ok(reached.length > 0);
  assert.equal(sweep.points[sweep.best].wall, Math.min(...reached.map((p) => p.wall)));
  for (const p of sweep.points) assert.equal(p.wall, core.jobToTarget({ ...job, workers: p.workers }).wall);
  const capped = core.jobTargetScaling({ ...job, steps: 20 }, [1, 2]);
  assert.equal(capped.best, -1);
  assert.deepEqual(capped.points.map((p) => [p.reached, p.steps]), [[false, 20], [false, 20]]);
});

test("bad input is a readable Error", async () => {
  const core = await loadCore();
  assert.throws(() => core.jobToTarget({ ...job, compressor: "top-k", asynchronous: true }),
    /the asynchronous \(SSP\) job sends whole gradients to its parameter server: choose compressor none, got top-k/);
  assert.throws(() => core.jobToTarget({ ...job, targetLoss: 0 }), /target_loss \(held-out loss to reach\) must be a finite number > 0, got 0/);
  assert.throws(() => core.jobTargetScaling(job, []), /1 to 16 worker counts/);
  assert.throws(() => core.jobToTarget({ ...job, staleness: -1 }), /staleness/);
});
