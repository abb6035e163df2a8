// Week 5's design helpers through the wasm core: optimal micro-batches (closed form beside the search), full
// recomputation by Korthikanti's formula, and the (t, p, d) pricer for OPT-30B on 8 × 8 GPUs.
const test = require("node:test");
const assert = require("node:assert/strict");
const loadCore = require("./load_core.cjs");

test("optimalMicroBatches: P = 4, t = 1 s, o = 3 ms → m* = √1000, best 32", async () => {
  const core = await loadCore();
  const r = core.optimalMicroBatches({ stages: 4, compute: 1, overhead: 0.003, max: 64 });
  assert.ok(Math.abs(r.closedForm - Math.sqrt(1000)) < 1e-12);
  assert.equal(r.best, 32);
  assert.ok(Math.abs(r.bestStep - 1.19875) < 1e-12);
  assert.equal(r.steps.length, 64);
  assert.equal(Math.min(...r.steps), r.bestStep);
});

test("recomputationTradeoff: GPT-3 layer at t = 8 keeps 23 sbh, recomputation 2 sbh", async () => {
  const core = await loadCore();
  const r = core.recomputationTradeoff({ sequence: 2048, microBatch: 1, hidden: 12288, heads: 96, tensorParallel: 8 });
  assert.equal(r.keptBytes, 23 * 2048 * 12288);
  assert.equal(r.recomputedBytes, 2 * 2048 * 12288);
  assert.equal(r.computeFactor, 4 / 3);
});

test("price3dLayouts: OPT-30B on 8 × 8; pure DP does not fit, (8, 4, 2) does", async () => {
  const core = await loadCore();
  const r = core.price3dLayouts({ model: "opt-30b", nodes: 8, gpusPerNode: 8 });
  assert.equal(r.parameters, 12 * 48 * 7168 * 7168 + 50257 * 7168);
  assert.ok(r.rows.every((row) => row.t * row.p * row.d === 64));
  const dp = r.rows.find((row) => row.t === 1 && row.p === 1);
  assert.equal(dp.fits, false);
  assert.equal(dp.fitsZero1, false);
  const good = r.rows.find((row) => row.t === 8 && row.p === 4);
  assert.equal(good.fits, true);
  assert.equal(good.microBatches, 256);
  assert.throws(() => core.price3dLayouts({ model: "gpt5", nodes: 8, gpusPerNode: 8 }), /choose gpt3-6.7b, opt-30b/);
});
