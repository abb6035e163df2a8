// The lab's MoE bindings (core/bindings/lab_moe_adapters.h): moeMlpInit's tensor order, trainSingleMoe's load,
// the router kernels against each other, and readable errors for bad input.
const test = require("node:test");
const assert = require("node:assert/strict");
const loadCore = require("./load_core.cjs");

const model = { layers: 4, width: 8, hidden: 16, activation: "gelu", residual: true };
const moe = { experts: 4, topK: 2, capacityFactor: 1.0 };

test("moeMlpInit: dense blocks as mlpInit's, MoE blocks router then experts' W_in, W_out", async () => {
  const core = await loadCore();
  const tensors = core.moeMlpInit({ model, moe, seed: 5 });
  const dense = core.mlpInit({ ...model, seed: 5 });
  assert.equal(tensors.length, 2 * 2 + 2 * (1 + 2 * 4));
  assert.deepEqual(tensors[0], dense[0]);   // block 0, dense
  assert.equal(tensors[2].length, 4 * 8);   // block 1's router, E × D
  assert.equal(tensors[3].length, 16 * 8);  // its expert 0's W_in, F × D
  assert.deepEqual(tensors[11], dense[4]);  // block 2, dense, after block 1's 9 tensors
});

test("trainSingleMoe: loss falls, the load counts every assignment of the last step", async () => {
  const core = await loadCore();
  const r = core.trainSingleMoe({ model, moe, groups: 4, optimizer: { kind: "adam", lr: 0.01 }, batch: 16, steps: 30, seed: 7 });
  assert.equal(r.losses.length, 30);
  assert.ok(r.losses[29] < r.losses[0]);
  assert.deepEqual(r.load.map((l) => l.block), [1, 3]);
  for (const l of r.load) assert.equal(l.kept.reduce((a, b) => a + b, 0) + l.dropped, 16 * 2);
});

test("moeRoute and moeRouterBackward: slots within capacity, dlogits rows sum to zero (softmax)", async () => {
  const core = await loadCore();
  const [, , router] = core.moeMlpInit({ model, moe, seed: 5 });
  const x = core.teacherBatch({ model, seed: 1, step: 0, batch: 6 }).inputs;
  const r = core.moeRoute(x, router, 6, 8, 2, 1.0);
  assert.equal(r.capacity, 3);   // ⌈1·2·6/4⌉
  assert.equal(r.slot.length, 12);
  assert.ok(r.slot.every((s) => s >= -1 && s < 3));
  const d = core.moeRouterBackward(r.probs, r.expert, new Float64Array(12).fill(0.5), 6, 2);
  assert.equal(d.length, 6 * 4);
  for (let t = 0; t < 6; t++) assert.ok(Math.abs(d.subarray(4 * t, 4 * t + 4).reduce((a, b) => a + b, 0)) < 1e-15);
});

test("bad input is named", async () => {
  const core = await loadCore();
  assert.throws(() => core.moeMlpInit({ model, moe: { ...moe, every: 9 }, seed: 1 }), /moeMlpInit: moe_every must be between 1 and the number of blocks L = 4/);
  assert.throws(() => core.moeMlpInit({ model: { ...model, residual: false }, moe }), /must be residual/);
  assert.throws(() => core.moeRoute(new Float64Array(10), new Float64Array(32), 2, 8, 1, 1), /moeRoute: x has 10 numbers, expected rows · width = 2 · 8 = 16/);
  assert.throws(() => core.moeRoute(new Float64Array(16), new Float64Array(32), 2, 8, 3, 1), /moeRoute: topK must be 1 or 2, got 3/);
  assert.throws(() => core.moeRouterBackward(new Float64Array(8), new Float64Array([0, 7]), new Float64Array(2), 2, 1),
    /moeRouterBackward: expert\[1\] must be an expert index 0 … 3/);
});
