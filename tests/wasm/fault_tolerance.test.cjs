// Week 6's core from JavaScript: compressors on hand-made vectors and QSGD's unbiasedness, the collective each
// compressor needs, compressed training with and without error feedback, Young's and Daly's intervals against
// Daly's published example, the failure simulation against the closed form, and bad input as a readable Error.
const test = require("node:test");
const assert = require("node:assert/strict");
const loadCore = require("./load_core.cjs");

const model = { layers: 2, width: 8, hidden: 32 };

test("compressors on a small vector, with their bytes on the wire", async () => {
  const core = await loadCore();
  const v = [0.1, -3, 2, 0.5, -2];
  const top = core.compressGradient({ compressor: "top-k", ratio: 0.4, values: v });  // k = 2
  assert.ok(top.values instanceof Float64Array);
  assert.deepEqual([...top.values], [0, -3, 2, 0, 0]);
  assert.equal(top.bytes, 2 * 8);  // value + int32 index each
  const sign = core.compressGradient({ compressor: "sign", values: [1, -2, 3, 0] });
  assert.deepEqual([...sign.values], [1.5, -1.5, 1.5, 1.5]);
  assert.equal(sign.bytes, 1 + 4);
  const rank1 = core.compressGradient({ compressor: "powersgd", rank: 1, rows: 2, cols: 3, values: [1, 2, 3, 2, 4, 6] });
  for (const [i, x] of [1, 2, 3, 2, 4, 6].entries()) assert.ok(Math.abs(rank1.values[i] - x) < 1e-12);
});

test("QSGD is unbiased within 5 standard errors over 4000 seeds", async () => {
  const core = await loadCore();
  const v = [0.3, -1.2, 0.05, 0.8, -0.4, 2.0, 0.0, -0.7];
  const s = 2, trials = 4000, norm = Math.hypot(...v);
  const mean = new Array(v.length).fill(0);
  for (let seed = 0; seed < trials; ++seed) {
    const q = core.compressGradient({ compressor: "qsgd", levels: s, seed, values: v }).values;
    q.forEach((x, i) => { mean[i] += x / trials; });
  }
  const tolerance = 5 * (norm / s) * 0.5 / Math.sqrt(trials);
  mean.forEach((m, i) => assert.ok(Math.abs(m - v[i]) < tolerance, `coordinate ${i}: ${m} vs ${v[i]}`));
  assert.equal(core.qsgdVarianceBound(16, 2), 2);
});

test("linear codes go by all-reduce, top-k and sign by all-gather", async () => {
  const core = await loadCore();
  const wire = (compressor) => core.compressionWire({ compressor, ratio: 0.1, model, workers: 4,
                                                      network: { alpha: 5e-6, beta: 1e-9 } });
  const top = wire("top-k"), rand = wire("random-k"), power = wire("powersgd"), none = wire("none");
  assert.deepEqual(top.collectives, [{ collective: "all-gather", bytes: 4 * 4 * 208 }]);
  assert.equal(top.composesWithAllReduce, false);
  assert.deepEqual(rand.collectives, [{ collective: "all-reduce", bytes: 4 * 104 }]);
  assert.equal(power.collectives.length, 2);
  assert.equal(none.bytesPerStep, 6144);
  assert.equal(wire("sign").collectives[0].collective, "all-gather");
  assert.ok(top.commSeconds < top.uncompressedCommSeconds);
});

test("top-k lags without error feedback and catches up with it; reproducible by seed", async () => {
  const core = await loadCore();
  const run = (compressor, errorFeedback) => core.trainCompressed({ compressor, ratio: 0.01, errorFeedback, model,
                                                                   workers: 4, batch: 4, steps: 300, seed: 3, evalBatch: 32 });
  const full = run("none", false), plain = run("top-k", false), ef = run("top-k", true);
  assert.equal(plain.losses.length, 301);
  assert.equal(ef.cumulativeBytes[300], 300 * ef.bytesPerStep);
  assert.ok(plain.losses[300] > 2 * ef.losses[300], `${plain.losses[300]} vs ${ef.losses[300]}`);
  assert.ok(ef.losses[300] < 1.05 * full.losses[300]);
  assert.equal(run("top-k", true).losses[300], ef.losses[300]);
});

test("Young, Daly and the simulation of failures with rollback", async () => {
  const core = await loadCore();
  const { young, daly } = core.checkpointIntervals(300, 6 * 3600);
  assert.ok(Math.abs(young - 3600) < 1e-9);       // √(2·300·21600)
  assert.ok(Math.abs(daly / 60 - 57) < 0.5);      // Daly 2006, Fig. 4: 57 min
  assert.equal(core.fleetMtbf(5e4 * 3600, 10000), 5 * 3600);
  const request = { work: 6000, interval: 600, checkpoint: 60, restart: 120, nodeMtbf: 3600, runs: 2000, seed: 2 };
  const s = core.simulateCheckpointing(request);
  assert.ok(Math.abs(s.expectedWall - core.expectedWallTime({ ...request, mtbf: 3600 })) < 1e-9);
  assert.ok(Math.abs(s.meanWall - s.expectedWall) < 3 * s.ci95 / 1.96, `${s.meanWall} vs ${s.expectedWall}`);
  assert.equal(s.wall.length, 2000);
  const best = core.optimalInterval({ work: 1.8e6, checkpoint: 300, restart: 600, mtbf: 6 * 3600 });
  assert.ok(Math.abs(best / daly - 1) < 0.01);
});

test("elastic: 4 → 2 → 4 workers ends where one device ends", async () => {
  const core = await loadCore();
  const request = { model: { layers: 2, width: 4, hidden: 8 }, batch: 12, steps: 8, seed: 7, workers: 4,
                    changes: [{ step: 3, workers: 2 }, { step: 6, workers: 4 }] };
  for (const replicated of [false, true]) {
    const r = core.trainElastic({ ...request, replicated });
    assert.ok(r.maxRelativeDifference < 1e-13, `${r.maxRelativeDifference}`);
    assert.deepEqual([...r.workers], [4, 4, 4, 2, 2, 2, 4, 4]);
    r.losses.forEach((l, t) => assert.ok(Math.abs(l - r.singleLosses[t]) < 1e-12 * l));
    assert.equal(r.resizes[1].parameterBytesToJoiners, 2 * 128 * 8);
  }
  assert.throws(() => core.trainElastic({ ...request, changes: [{ step: 3, workers: 5 }] }),
                /global batch of 12 rows is not divisible by 5 workers/);
});

test("bad input is a readable Error", async () => {
  const core = await loadCore();
  assert.throws(() => core.compressGradient({ compressor: "zip", values: [1] }), /unknown compressor "zip"/);
  assert.throws(() => core.trainCompressed({ compressor: "top-k", ratio: 0, model, workers: 2 }),
                /ratio \(fraction of values kept\) must be in \(0, 1\], got 0/);
  assert.throws(() => core.checkpointIntervals(0, 3600), /checkpoint \(s to write one\) must be a finite number > 0/);
  assert.throws(() => core.simulateCheckpointing({ work: 100, interval: 10, checkpoint: 1 }),
                /simulateCheckpointing: nodeMtbf/);
  // The core's limit on what one study simulates (checkpoints × runs × nodes), in its words.
  assert.throws(() => core.simulateCheckpointing({ work: 86400, interval: 0.1, checkpoint: 0, nodeMtbf: 1e12, nodes: 100,
    runs: 1 }), /× 100 nodes \(each segment looks at every node's clock\) is more than the 5e\+07/);
  assert.equal(core.fleetMtbf(10, 2), 5);  // the module still works
});
