// The planner in JavaScript (core/bindings/planner_adapters.cpp) against `dsml plan`: both call plan_step, so the
// page and the CLI give the same numbers for the same run — here Table 1's rows (Narayanan et al. 2021) loaded as
// presets, a hand layout with ZeRO and sequence parallelism, and the search; bad input throws the core's sentence.
const test = require("node:test");
const assert = require("node:assert/strict");
const { execFileSync, spawnSync } = require("node:child_process");
const { existsSync } = require("node:fs");
const { join } = require("node:path");
const loadCore = require("./load_core.cjs");

const DSML = join(__dirname, "..", "..", "build", "native", "dsml");
const haveCli = existsSync(DSML);
const cli = (args) => JSON.parse(execFileSync(DSML, ["plan", ...args], { encoding: "utf8" }));

// The CLI's JSON is the module's object with every name in snake_case (both are written from the core's field
// table, dsml/plan_fields.h): the same fields, in the same order, every number the same double.
const snakeCase = (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const snakeKeys = (x) => Array.isArray(x) ? x.map(snakeKeys)
  : x !== null && typeof x === "object" ? Object.fromEntries(Object.entries(x).map(([k, v]) => [snakeCase(k), snakeKeys(v)]))
  : x;
function assertSamePlan(js, c) {
  const { model, gpu, published, ...plan } = c;  // what `--published` adds beside the plan
  assert.deepEqual(Object.keys(plan), Object.keys(snakeKeys(js)));
  assert.deepEqual(plan, snakeKeys(js));
  assert.equal(js.time.computeParts.memoryBound, c.time.compute_parts.memory_bound);  // a name, spelled by hand
}

const preset = (list, name) => list.find((x) => x.name === name);

test("Table 1's rows as presets: planStep equals `dsml plan --published`", { skip: !haveCli && "no native dsml" },
  async () => {
    const core = await loadCore();
    const presets = core.plannerPresets();
    assert.equal(presets.table1.length, 10);
    const a100 = preset(presets.gpus, "a100-80gb");
    for (const row of presets.table1) {
      const c = cli(["--published", row.model]);  // Megatron 2021: unfused attention; b and v chosen by the planner
      const plan = core.planStep({
        model: preset(presets.models, row.model),
        cluster: { gpu: a100, nodes: row.gpus / 8, gpusPerNode: 8 },
        layout: { t: row.t, p: row.p, v: c.layout.v, microBatch: c.layout.micro_batch, globalBatch: row.globalBatch,
                  attention: "unfused" },
      });
      assertSamePlan(plan, c);
    }
  });

test("a hand layout and the search: the same numbers as the CLI", { skip: !haveCli && "no native dsml" }, async () => {
  const core = await loadCore();
  const presets = core.plannerPresets();
  const model = preset(presets.models, "llama3-70b"), h100 = preset(presets.gpus, "h100-sxm");
  const plan = core.planStep({
    model, cluster: { gpu: h100, nodes: 32 },
    layout: { t: 8, p: 4, v: 2, d: 8, microBatch: 1, globalBatch: 512, zeroStage: 1, sequenceParallel: true,
              recomputation: "selective", overlapDp: true },
  });
  assertSamePlan(plan, cli(["--model", "llama3-70b", "--gpu", "h100-sxm", "--nodes", "32", "--t", "8", "--p", "4",
    "--v", "2", "--global-batch", "512", "--zero", "1", "--sequence-parallel", "--recompute", "selective",
    "--overlap-dp"]).plan);
  const best = core.searchLayouts({ model, cluster: { gpu: h100, nodes: 32 }, globalBatch: 512, keep: 3 });
  const fromCli = cli(["--model", "llama3-70b", "--gpu", "h100-sxm", "--nodes", "32", "--global-batch", "512",
    "--search", "--keep", "3"]).layouts;
  assert.equal(best.length, fromCli.length);
  best.forEach((p, i) => assertSamePlan(p, fromCli[i]));
});

test("bad input throws the core's sentence, as the CLI prints it", async () => {
  const core = await loadCore();
  const presets = core.plannerPresets();
  const request = {
    model: preset(presets.models, "gpt3-175b"), cluster: { gpu: preset(presets.gpus, "a100-80gb"), nodes: 8 },
    layout: { t: 8, p: 8, v: 5, d: 1, globalBatch: 512 },
  };
  const sentence = "96 layers are not divisible by p·v = 8·5 (interleaving gives each of the p stages v chunks of "
    + "equal depth)";
  assert.throws(() => core.planStep(request), { message: sentence });
  if (haveCli) {
    const r = spawnSync(DSML, ["plan", "--model", "gpt3-175b", "--gpu", "a100-80gb", "--nodes", "8", "--t", "8", "--p",
      "8", "--v", "5", "--global-batch", "512"], { encoding: "utf8" });
    assert.equal(r.stderr, `dsml: error: ${sentence}\n`);
  }
  assert.throws(() => core.planStep({ ...request, layout: { ...request.layout, v: 1, recomputation: "most" } }),
    /recomputation must be "none", "selective" or "full"/);
});

test("MoE and context parallelism: Mixtral 8x7B planned by the module and by `dsml plan` alike",
  { skip: !haveCli && "no native dsml" }, async () => {
    const core = await loadCore();
    const presets = core.plannerPresets();
    const model = preset(presets.models, "mixtral-8x7b"), h100 = preset(presets.gpus, "h100-sxm");
    assert.deepEqual([model.experts, model.topK, model.moeEvery], [8, 2, 1]);
    const plan = core.planStep({
      model, cluster: { gpu: h100, nodes: 16 },
      layout: { t: 4, c: 2, p: 2, d: 8, e: 8, globalBatch: 256, sequenceParallel: true, recomputation: "selective" },
    });
    assert.ok(plan.time.context > 0 && plan.time.expert > 0, "both new terms priced");
    assert.ok(plan.activeParameters < plan.parameters / 3, "top-2 of 8 experts: about 13B of 47B active");
    assertSamePlan(plan, cli(["--model", "mixtral-8x7b", "--gpu", "h100-sxm", "--nodes", "16", "--t", "4", "--c", "2",
      "--p", "2", "--e", "8", "--global-batch", "256", "--sequence-parallel", "--recompute", "selective"]).plan);
    // A custom MoE model through the same fields, and the rules it breaks.
    const bad = (layout, m = model) => () => core.planStep({ model: m, cluster: { gpu: h100, nodes: 16 },
      layout: { t: 4, p: 2, globalBatch: 256, ...layout } });
    assert.throws(bad({ c: 2, d: 8, e: 3 }), { message: "e = 3 must divide d = 8 (the experts are split over data-parallel ranks)" });
    assert.throws(bad({ c: 1, d: 16, e: 16 }), { message: "8 experts are not divisible by e = 16 (each GPU holds experts/e)" });
    assert.throws(bad({ c: 2, d: 8 }, { ...model, sequence: 32767 }),
      { message: "sequence 32767 is not divisible by c = 2 (context parallelism gives each GPU an equal slice of every sequence)" });
    assert.throws(bad({ c: 2, d: 8 }, { ...model, topK: 9 }), { message: "top-k must be between 1 and the 8 experts, got 9" });
  });

test("a GPU preset reads back as itself: its measured kernels cross the boundary and back", async () => {
  const core = await loadCore();
  const presets = core.plannerPresets();
  const h100 = preset(presets.gpus, "h100-sxm");
  assert.equal(h100.kernels.sms, 132);
  assert.ok(h100.kernels.attention.some((a) => a.kernel === "flash-attention-2" && a.headDim === 128));
  const model = preset(presets.models, "llama3-8b");
  const request = { model, cluster: { gpu: h100, nodes: 1 }, layout: { t: 1, p: 1, globalBatch: 8 } };
  const roundTrip = { ...request, cluster: { gpu: JSON.parse(JSON.stringify(h100)), nodes: 1 } };
  assert.equal(core.planStep(roundTrip).time.total, core.planStep(request).time.total);
  assert.equal(core.planStep(request).layout.d, 8, "d derived by the core: 8 GPUs over t·c·p = 1");
  // A broken measurement is refused by its field.
  const broken = { ...h100, kernels: { ...h100.kernels, attention: [{ kernel: "flash-attention-9", headDim: 128,
    sequences: [512], flops: [1e14] }] } };
  assert.throws(() => core.planStep({ ...request, cluster: { gpu: broken, nodes: 1 } }),
    /planStep: cluster: gpu: kernels: attention\[0\]: attention must be flash-attention-2/);
  assert.throws(() => core.planStep({ ...request, layout: { ...request.layout, precision: "fp4" } }),
    /precision must be "bf16" or "fp8", got "fp4"/);
});

test("attentionCost, searchRefusal and plannerValidation cross the boundary", async () => {
  const core = await loadCore();
  const presets = core.plannerPresets();
  const gpu = preset(presets.gpus, "a100-80gb"), model = preset(presets.models, "gpt3-6.7b");
  const fused = core.attentionCost({ model, gpu, kernel: "fused", microBatch: 2, t: 2 });
  const s = model.sequence;
  assert.equal(fused.countedFlops, 4 * 2 * s * s * 16 * 128);  // 4·b·s²·(a/t)·d_h
  assert.equal(fused.forwardFlops, fused.countedFlops / 2);     // causal: the blocks above the diagonal skipped
  assert.equal(core.attentionCost({ model, gpu, kernel: "unfused" }).activationBytes, 5 * 32 * s * s);
  assert.throws(() => core.attentionCost({ model, gpu, kernel: "fast" }), /attentionCost: attention must be/);
  const search = { model: preset(presets.models, "gpt3-175b"), cluster: { gpu, nodes: 1 }, globalBatch: 512 };
  assert.deepEqual(core.searchLayouts(search), []);
  assert.match(core.searchRefusal(search), /^none of the \d+ admissible layouts fits/);
  const v = core.plannerValidation();
  assert.deepEqual(v.tables.map((t) => [t.id, t.inSample, t.rows.length]),
    [["narayanan-table1", true, 10], ["llm-foundry-h100-bf16", false, 52], ["llm-foundry-a100-80gb", false, 61]]);
  assert.ok(v.constants.some((c) => c.fittedOn.startsWith("Narayanan")));
  if (haveCli) {
    const c = JSON.parse(execFileSync(DSML, ["plan", "--validate"], { encoding: "utf8" }));
    v.tables.forEach((t, i) => assert.equal(t.meanAbsError, c.tables[i].mean_abs_error, t.id));
  }
});
