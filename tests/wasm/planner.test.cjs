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

// The CLI's snake_case JSON beside the module's camelCase object: every number the same double.
function assertSamePlan(js, c) {
  for (const k of ["compute", "bubble", "tensor", "pipeline", "data", "optimizer", "total"])
    assert.equal(js.time[k], c.time_s[k], `time.${k}`);
  for (const k of ["params", "grads", "optimizer", "activations", "total"])
    assert.equal(js.memory[k], c.memory_bytes[k], `memory.${k}`);
  assert.equal(js.hardwareFlops, c.hardware_flops);
  assert.equal(js.modelFlops, c.model_flops);
  assert.equal(js.mfu, c.mfu);
  assert.equal(js.hfu, c.hfu);
  assert.equal(js.tflopsPerGpu, c.tflops_per_gpu);
  assert.equal(js.tokensPerS, c.tokens_per_s);
  assert.equal(js.fits, c.fits);
  assert.equal(js.microBatches, c.layout.micro_batches);
}

const preset = (list, name) => list.find((x) => x.name === name);

test("Table 1's rows as presets: planStep equals `dsml plan --published`", { skip: !haveCli && "no native dsml" },
  async () => {
    const core = await loadCore();
    const presets = core.plannerPresets();
    assert.equal(presets.table1.length, 10);
    const a100 = preset(presets.gpus, "a100-80gb");
    for (const row of presets.table1) {
      const plan = core.planStep({
        model: preset(presets.models, row.model),
        cluster: { gpu: a100, nodes: row.gpus / 8, gpusPerNode: 8 },
        layout: { t: row.t, p: row.p, d: row.gpus / (row.t * row.p), globalBatch: row.globalBatch },
      });
      assertSamePlan(plan, cli(["--published", row.model]));
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
  const sentence = "96 layers are not divisible by p·v = 8·5 (each of the p stages holds v chunks of equal depth)";
  assert.throws(() => core.planStep(request), { message: sentence });
  if (haveCli) {
    const r = spawnSync(DSML, ["plan", "--model", "gpt3-175b", "--gpu", "a100-80gb", "--nodes", "8", "--t", "8", "--p",
      "8", "--v", "5", "--global-batch", "512"], { encoding: "utf8" });
    assert.equal(r.stderr, `dsml: error: ${sentence}\n`);
  }
  assert.throws(() => core.planStep({ ...request, layout: { ...request.layout, v: 1, recomputation: "most" } }),
    /recomputation must be "none", "selective" or "full"/);
});
