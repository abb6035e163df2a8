// Week 5's mixture of experts through the wasm core: expert parallelism equal to the single-device layer, the
// all-to-all bytes of the trace by hand, load per expert, and the all-to-all priced on topologies.
const test = require("node:test");
const assert = require("node:assert/strict");
const loadCore = require("./load_core.cjs");

const moe = { width: 8, hidden: 16, experts: 4, topK: 2, capacityFactor: 1.0 };

test("expertParallel equals the single-device MoE; all-to-all bytes (R − 1)·(E/R)·C·D·8", async () => {
  const core = await loadCore();
  const r = core.expertParallel({ moe, ranks: 4, batch: 32, seed: 3 });
  assert.ok(r.outputRelativeDifference < 1e-14, `${r.outputRelativeDifference}`);
  assert.ok(r.gradientRelativeDifference < 1e-13, `${r.gradientRelativeDifference}`);
  assert.equal(r.capacity, 4);  // ⌈1.0·2·8/4⌉ per rank and expert
  assert.equal(r.allToAllBytesPerRank, 3 * 1 * 4 * 8 * 8);
  assert.equal(r.commBytes["all-to-all"], 4 * r.allToAllBytesPerRank);  // dispatch, combine, and both backwards
  assert.equal(r.load.reduce((a, b) => a + b, 0) + r.dropped, 32 * 2);
  assert.deepEqual(r.wanted.length, 4);
  assert.ok(r.load.every((l, e) => l <= Math.min(r.wanted[e], 4 * 4)));
});

test("priceExpertAllToAll: closed form on one switch, slower behind shared NICs", async () => {
  const core = await loadCore();
  const big = { ...moe, experts: 8, width: 6 };
  const flat = core.priceExpertAllToAll({ moe: big, tokensPerRank: 512, alpha: 1e-6, beta: 1e-11,
                                          topology: { kind: "fully-connected", ranks: 8, alpha: 1e-6, beta: 1e-11 } });
  assert.equal(flat.capacity, 128);              // ⌈1·2·512/8⌉
  assert.equal(flat.bytesPerRank, 8 * 128 * 6 * 2);
  assert.ok(Math.abs(flat.simulated - flat.closedForm) < 1e-15);
  const nodes = core.priceExpertAllToAll({ moe: big, tokensPerRank: 512, alpha: 1e-6, beta: 1e-11,
    topology: { kind: "hierarchical", nodes: 2, perNode: 4, intra: { alpha: 1e-6, beta: 1e-11 },
                inter: { alpha: 5e-6, beta: 4e-11 } } });
  assert.ok(nodes.simulated > 2 * flat.simulated);
});

test("bad MoE requests become readable errors", async () => {
  const core = await loadCore();
  assert.throws(() => core.expertParallel({ moe, ranks: 3, batch: 12 }), /R to divide the experts: E = 4, R = 3/);
  assert.throws(() => core.expertParallel({ moe: { ...moe, topK: 3 }, ranks: 2, batch: 8 }),
                /expertParallel: moe: topK must be a whole number/);
});
