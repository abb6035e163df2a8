// Week 5's design helpers through the wasm core: optimal micro-batches (closed form beside the search), full
// recomputation by Korthikanti's formula, and every (t, p, d) of OPT-30B on 8 × 8 GPUs priced by the planner.
const test = require("node:test");
const assert = require("node:assert/strict");
const { execFileSync } = require("node:child_process");
const { existsSync } = require("node:fs");
const { join } = require("node:path");
const loadCore = require("./load_core.cjs");

const DSML = join(__dirname, "..", "..", "build", "native", "dsml");
const haveCli = existsSync(DSML);

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

// price3dLayouts: the rows are the planner's. Each row equals planStep of the same layout (a second binding, the
// planner's own) and `dsml layouts` (the CLI's); the factorisations are the hand list; pure data parallelism holds
// 16Ψ of model states, 4Ψ + 12Ψ/64 with ZeRO-1 (Ψ by hand: 48·(12h² + 13h) + (V + s)·h for OPT-30B).
const LAYOUT_CALL = { model: "opt-30b", nodes: 8, gpusPerNode: 8 };
const PSI_OPT30B = 48 * (12 * 7168 ** 2 + 13 * 7168) + (50272 + 2048) * 7168;

test("price3dLayouts: OPT-30B on 8 × 8, every (t, p, d) the planner accepts, each row planStep's", async () => {
  const core = await loadCore();
  const r = core.price3dLayouts(LAYOUT_CALL);
  assert.equal(r.model, "opt-30b");
  assert.equal(r.gpu, "a100-80gb");
  assert.equal(r.parameters, PSI_OPT30B);
  // t | 56 heads and t ≤ 8 GPUs a node; p | 48 layers and p | 64/t.
  const expected = [];
  for (const t of [1, 2, 4, 8]) for (const p of [1, 2, 4, 8, 16]) if (64 % (t * p) === 0) expected.push(`${t},${p},${64 / (t * p)}`);
  assert.deepEqual(r.rows.map((x) => `${x.t},${x.p},${x.d}`).sort(), expected.sort());
  const presets = core.plannerPresets();
  const model = presets.models.find((m) => m.name === "opt-30b"), gpu = presets.gpus.find((g) => g.name === "a100-80gb");
  for (const row of r.rows) {
    for (const [zeroStage, plan] of [[0, row.replicated], [1, row.zero1]]) {
      const direct = core.planStep({ model, cluster: { gpu, nodes: 8, gpusPerNode: 8 }, layout: { t: row.t, p: row.p, d: row.d,
        microBatch: 1, globalBatch: 512, zeroStage, sequenceParallel: true, recomputation: "none", overlapDp: false } });
      assert.deepEqual(plan.time, direct.time, `(${row.t}, ${row.p}, ${row.d}) ZeRO ${zeroStage}`);
      assert.deepEqual(plan.memory, direct.memory);
      assert.equal(plan.fits, direct.fits);
      assert.equal(row.microBatches, direct.microBatches);
    }
  }
  const dp = r.rows.find((row) => row.t === 1 && row.p === 1);
  const states = (plan) => plan.memory.params + plan.memory.grads + plan.memory.optimizer;
  assert.equal(states(dp.replicated), 16 * PSI_OPT30B);
  assert.equal(states(dp.zero1), 4 * PSI_OPT30B + (12 * PSI_OPT30B) / 64);
  assert.equal(dp.replicated.fits, false);
  assert.equal(dp.zero1.fits, false);
  assert.throws(() => core.price3dLayouts({ ...LAYOUT_CALL, model: "gpt5" }), /unknown model preset "gpt5"; choose one of: gpt-1\.7b/);
  assert.throws(() => core.price3dLayouts({ ...LAYOUT_CALL, recomputation: "some" }), /price3dLayouts/);
});

test("price3dLayouts equals `dsml layouts`, number for number", { skip: !haveCli && "no native dsml" }, async () => {
  const core = await loadCore();
  const js = core.price3dLayouts({ ...LAYOUT_CALL, recomputation: "selective" });
  const out = JSON.parse(execFileSync(DSML, ["layouts", "--model", "opt-30b", "--nodes", "8", "--gpus-per-node", "8",
    "--recompute", "selective"], { encoding: "utf8" }));
  assert.equal(out.parameters, js.parameters);
  assert.equal(out.capacity, js.capacity);
  assert.equal(out.layouts.length, js.rows.length);
  // The CLI prints a plan's time, memory and fits under planStep's names in snake_case (dsml/plan_fields.h).
  out.layouts.forEach((c, i) => {
    const row = js.rows[i];
    assert.deepEqual([c.t, c.p, c.d, c.micro_batches], [row.t, row.p, row.d, row.microBatches]);
    for (const [plan, cliPlan] of [[row.replicated, c.replicated], [row.zero1, c.zero1]]) {
      assert.deepEqual(Object.keys(cliPlan), ["time", "memory", "fits"]);
      const { computeParts, ...time } = plan.time;
      assert.deepEqual({ ...time, compute_parts: { matmul: computeParts.matmul, attention: computeParts.attention,
                                                   memory_bound: computeParts.memoryBound } }, cliPlan.time);
      assert.deepEqual(plan.memory, cliPlan.memory);
      assert.equal(plan.fits, cliPlan.fits);
    }
  });
});
