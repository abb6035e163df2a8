// Week 6's capstone from JavaScript: simulateJob with nothing going wrong is stepCost's dp-bucketed step (one bucket)
// times the steps; its wall split sums to the wall time; the loss is trainCompressed's; failures change the wall time
// and not the loss; jobScaling's efficiency is at most 1 and falls with P; bad input is a readable Error, and so is a
// job that would practically never finish.
const test = require("node:test");
const assert = require("node:assert/strict");
const loadCore = require("./load_core.cjs");

const quiet = { workers: 8, steps: 50, compressor: "none", failures: false, checkpointSeconds: 0 };
const near = (a, b, rel, what) => assert.ok(Math.abs(a - b) <= rel * Math.abs(b), `${what}: ${a} vs ${b}`);

test("with nothing going wrong the job is the step cost model times the steps", async () => {
  const core = await loadCore();
  const run = core.simulateJob(quiet);
  const step = core.stepCost({ strategy: "dp-bucketed", grid: { dp: 8 }, model: { layers: 32, width: 4096, hidden: 16384 },
    batch: 8 * 4096, flops: 150e12, alpha: 10e-6, beta: 1 / 25e9, elementBytes: 2, bucketBytes: 1e30 });
  near(run.wall, 50 * step.total, 1e-12, "wall");
  assert.equal(run.failures, 0);
  assert.ok(run.losses instanceof Float64Array && run.losses.length === 51);
  const parts = Object.values(run.split).reduce((a, b) => a + b, 0);
  near(parts, run.wall, 1e-12, "split");
  assert.equal(run.efficiency, run.split.compute / run.wall);
});

test("failures change the wall time, never the loss; the loss is trainCompressed's", async () => {
  const core = await loadCore();
  const job = { ...quiet, workers: 4, steps: 40, compressor: "top-k", ratio: 0.1, failures: true, nodeMtbf: 1800,
    checkpointEvery: 10, checkpointSeconds: 1, restartSeconds: 10, detectionSeconds: 1 };
  let hit = null;
  for (let seed = 0; seed < 40 && !(hit?.failures > 0); ++seed) hit = core.simulateJob({ ...job, seed });
  assert.ok(hit.failures > 0, "a failure happened");
  const calm = core.simulateJob({ ...job, failures: false, seed: 0 });
  assert.ok(hit.wall > calm.wall);
  assert.ok(hit.split.lostWork + hit.split.restarts > 0);
  const train = core.trainCompressed({ compressor: "top-k", ratio: 0.1, errorFeedback: true, model: { layers: 2, width: 8, hidden: 32 },
    workers: 4, batch: 4, steps: 40, lr: 0.05, seed: 3, evalBatch: 64 });
  assert.deepEqual([...calm.losses], [...train.losses]);
  assert.deepEqual([...hit.losses], [...train.losses]);
  assert.equal(core.simulateJob({ ...job, train: false }).losses.length, 0);
  assert.equal(hit.bytesPerWorker, 40 * hit.bytesPerStep);
  assert.equal(hit.composesWithAllReduce, false);
});

test("efficiency against P is at most 1 and falls without failures", async () => {
  const core = await loadCore();
  const ps = [1, 2, 4, 8, 16, 64, 256, 1024];
  const sweep = core.jobScaling({ ...quiet, stragglerProbability: 0.01, checkpointSeconds: 20 }, ps);
  assert.deepEqual(sweep.map((p) => p.workers), ps);
  sweep.forEach((p, i) => {
    assert.ok(p.efficiency <= 1);
    if (i > 0) assert.ok(p.efficiency <= sweep[i - 1].efficiency, `P = ${p.workers}`);
  });
  const hit = core.jobScaling({ ...quiet, failures: true, checkpointSeconds: 20, nodeMtbf: 86400 }, ps);
  hit.forEach((p, i) => assert.ok(p.efficiency < p.failureFreeEfficiency, `P = ${ps[i]}`));
});

test("bad input is a readable Error", async () => {
  const core = await loadCore();
  assert.throws(() => core.simulateJob({ ...quiet, workers: 0 }), /simulateJob: workers must be a whole number >= 1/);
  assert.throws(() => core.simulateJob({ ...quiet, stragglerProbability: 2 }), /straggler_probability must be in \[0, 1\]/);
  assert.throws(() => core.simulateJob({ ...quiet, compressor: "zip" }), /unknown compressor "zip"/);
  assert.throws(() => core.jobScaling(quiet, []), /the sweep needs 1 to 64 worker counts/);
});

test("a job that would practically never finish is refused at once, in steps, with the interval that would", async () => {
  const core = await loadCore();
  // 256 GPUs of 6 h MTBF (a fleet MTBF of 84.4 s), one checkpoint after 1000 steps of 1.4 s: ~e^17 retries.
  const job = { workers: 256, steps: 1000, compressor: "none", nodeMtbf: 6 * 3600, checkpointEvery: 1000, train: false };
  const start = performance.now();
  let message = "";
  assert.throws(() => core.simulateJob(job), (e) => { message = e.message; return true; });
  assert.ok(performance.now() - start < 1000, `refused in ${performance.now() - start} ms`);
  assert.match(message, /^with a checkpoint every 1000 steps \(1390 s of work\), 20 s to write one, a restart of 300 s and a fleet MTBF of 84\.4 s \(21600 s \/ 256 GPUs\), the run would be expected to fail about 8\.9e\+08 times .*; checkpoint more often — every (\d+) steps/);
  const every = Number(/every (\d+) steps \([\d.]+ s of work\), Daly's best interval/.exec(message)[1]);
  const run = core.simulateJob({ ...job, checkpointEvery: every });
  assert.ok(run.failures > 0 && Number.isFinite(run.wall), `${run.failures} failures`);
});
