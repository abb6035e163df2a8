// The planner page (lessons/planner/) in real Chromium: what the widgets show is what core.planStep returns
// for the controls' settings (asked here directly, not through the page's planner_setup.js), a Table 1 row loads
// into the planner, the search's layouts fit and can be used (and when none does it says why), a bad layout is
// refused in words, the sequence length is a control, an exercise passes with its answer and fails with the usual
// mistake, nothing overflows 360 px (inline math included), and the console stays clean.
//   node --test --test-concurrency=1 tests/e2e/planner.test.mjs
//   DSML_SCREENSHOTS=<dir> also saves the page at 360 px (the step section, light).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { openSite } from "./harness.mjs";
import { openLesson, waitVerdict } from "./pages.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

const PLANNER = "[data-widget=planner]";
const out = (page, key) => page.locator(`${PLANNER} [data-out=${key}]`).innerText();
const control = (page, label) => page.locator(PLANNER).getByLabel(label, { exact: true });

// core.planStep for `layout` on `nodes` 8-GPU nodes, formatted as the widget formats it (web/units.js).
// `sequence` replaces the model's own sequence length.
function expected(page, { model, gpu, nodes, layout, sequence }) {
  return page.evaluate(async ({ model, gpu, nodes, layout, sequence }) => {
    const units = await import(new URL("../../web/units.js", location.href).href);
    const core = window.dsml.core;
    const all = core.plannerPresets();
    const preset = all.models.find((m) => m.name === model);
    const r = core.planStep({ model: sequence ? { ...preset, sequence } : preset,
      cluster: { gpu: all.gpus.find((g) => g.name === gpu), nodes, gpusPerNode: 8 },
      layout });
    return { step: units.formatSeconds(r.time.total), mfu: `${units.formatNumber(100 * r.mfu)}%`,
      hfu: `${units.formatNumber(100 * r.hfu)}%`, tflops: units.formatNumber(r.tflopsPerGpu),
      memory: units.formatBytes(r.memory.total), d: String(r.layout.d), fits: r.fits ? "fits" : "does not fit",
      expert: units.formatSeconds(r.time.expert), context: units.formatSeconds(r.time.context) };
  }, { model, gpu, nodes, layout, sequence });
}
async function shown(page) {
  const o = {};
  for (const k of ["step", "mfu", "hfu", "tflops", "memory", "d", "fits"]) o[k] = await out(page, k);
  return o;
}
const numbersOnly = ({ expert, context, ...rest }) => rest;  // what shown() reads

describe("the planner page", () => {
  let page, problems;
  before(async () => { ({ page, problems } = await openLesson(site.context, site.url, "planner")); });
  after(async () => { await page.close(); });

  test("the prose's numbers are the core's (calcs.js), and the planner starts on the worked example", async () => {
    const mismatched = await page.evaluate(async () => {
      const { CALCS } = await import(new URL("./calcs.js", location.href).href);
      return [...document.querySelectorAll("[data-calc]")].filter((el) => CALCS[el.dataset.calc](window.dsml.core) !== el.textContent)
        .map((el) => `${el.dataset.calc}: ${el.textContent}`);
    });
    assert.deepEqual(mismatched, []);
    const base = { model: "gpt3-175b", gpu: "a100-80gb", nodes: 64, layout: { t: 8, p: 8, v: 1, microBatch: 1,
      globalBatch: 1536, zeroStage: 0, sequenceParallel: true, recomputation: "selective", overlapDp: true } };
    assert.deepEqual(await shown(page), numbersOnly(await expected(page, base)));
    assert.equal(await out(page, "step"), await page.locator('[data-calc="ex-step"]').innerText());
    assert.equal(await out(page, "mfu"), await page.locator('[data-calc="ex-mfu"]').innerText());
  });

  // The MFU chart's marker label (B = 1536) sits where it covers no point or segment of the curve — the curve reaches
  // the top of the plot there, so the label goes to the bottom (web/ui/chart_plugins.js, data-labels-over); at 360 px too.
  test("the MFU chart's B label covers no part of the curve, at 1280 and at 360 px", async () => {
    const over = () => page.waitForFunction((sel) => document.querySelector(`${sel} canvas`)?.dataset.labelsOver, PLANNER)
      .then(() => page.locator(`${PLANNER} canvas`).first().getAttribute("data-labels-over"));
    await page.locator(`${PLANNER} canvas`).first().scrollIntoViewIfNeeded();
    assert.equal(await over(), "0");
    await page.setViewportSize({ width: 360, height: 800 });
    await page.waitForTimeout(500);   // Chart.js redraws on the resize
    assert.equal(await over(), "0");
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test("changing a control re-prices the step with the core: p = 4 (d = 16), then the H100, then ZeRO-1", async () => {
    const layout = { t: 8, p: 4, v: 1, microBatch: 1, globalBatch: 1536, zeroStage: 0, sequenceParallel: true,
      recomputation: "selective", overlapDp: true };
    await control(page, "Pipeline p").fill("4");
    assert.deepEqual(await shown(page), numbersOnly(await expected(page, { model: "gpt3-175b", gpu: "a100-80gb", nodes: 64, layout })));
    await control(page, "GPU").selectOption("h100-sxm");
    assert.deepEqual(await shown(page), numbersOnly(await expected(page, { model: "gpt3-175b", gpu: "h100-sxm", nodes: 64, layout })));
    await control(page, "ZeRO stage").selectOption("1");
    const z1 = numbersOnly(await expected(page, { model: "gpt3-175b", gpu: "h100-sxm", nodes: 64, layout: { ...layout, zeroStage: 1 } }));
    assert.deepEqual(await shown(page), z1);
    // The bars say the same numbers in words: the memory legend ends with the GPU's capacity.
    assert.match(await page.locator(`${PLANNER} .planner-legend`).nth(1).innerText(), /capacity 80 GB HBM/);
  });

  test("a layout the core refuses is explained in words, and a good one brings the numbers back", async () => {
    await control(page, "Pipeline p").fill("7");
    assert.match(await out(page, "error"), /Not a layout: t·c·p = 8·1·7 = 56 does not divide the cluster's 512 GPUs/);
    await control(page, "Pipeline p").fill("32");
    await control(page, "Chunks per GPU v").fill("5");
    assert.match(await out(page, "error"), /96 layers are not divisible by p·v = 32·5/);
    await control(page, "Chunks per GPU v").fill("1");
    assert.equal(await out(page, "d"), "2");
  });

  test("a Table 1 row loads into the planner on the layout the core priced it, and the table's figure is the planner's",
    async () => {
      await page.getByRole("button", { name: "Load row 10, gpt-1t, into the planner" }).click();
      // Table 1 gives t = 8, p = 64 on 3072 GPUs and a batch of 3072; the core chose b and v (the table gives neither).
      const layout = await page.evaluate(() => window.dsml.core.plannerValidation().tables
        .find((t) => t.id === "narayanan-table1").rows[9].layout);
      assert.deepEqual([layout.t, layout.p, layout.d, layout.globalBatch, layout.attention, layout.recomputation],
        [8, 64, 6, 3072, "unfused", "full"]);
      for (const [label, value] of [["Model", "gpt-1t"], ["Pipeline p", "64"], ["Tensor t", "8"], ["Nodes (8 GPUs each)", "384"],
        ["Chunks per GPU v", String(layout.v)], ["Micro-batch b", String(layout.microBatch)], ["Recomputation", "full"],
        ["Attention kernel", "unfused"], ["Precision", "bf16"]]) {
        assert.equal(await control(page, label).inputValue(), value, label);
      }
      const want = numbersOnly(await expected(page, { model: "gpt-1t", gpu: "a100-80gb", nodes: 384, layout }));
      assert.deepEqual(await shown(page), want);
      assert.equal(await page.locator("[data-widget=calibration] [data-out=predicted]").nth(9).innerText(), want.tflops);
    });

  test("the search lists layouts that fit, fastest first, and “Use” puts one into the controls", async () => {
    await control(page, "Model").selectOption("gpt3-175b");
    await control(page, "Nodes (8 GPUs each)").fill("64");
    await control(page, "Global batch B").fill("1536");
    await page.getByRole("button", { name: "Find the fastest layouts that fit" }).click();
    const rows = page.locator(`${PLANNER} .planner-best tbody tr`);
    assert.ok(await rows.count() >= 1);
    const steps = await rows.evaluateAll((trs) => trs.map((tr) => tr.children[8].textContent));
    await rows.first().getByRole("button", { name: /^Use / }).click();
    assert.equal(await out(page, "fits"), "fits");
    assert.equal(await out(page, "step"), steps[0]);
  });

  test("when the search finds nothing it says why: no nodes, a batch no d·b divides, a model too large", async () => {
    const search = page.getByRole("button", { name: "Find the fastest layouts that fit" });
    const said = () => page.locator(`${PLANNER} [data-out=search-message]`).innerText();
    await control(page, "Nodes (8 GPUs each)").fill("0");
    await search.click();
    assert.match(await said(), /Nodes \(8 GPUs each\) must be a whole number ≥ 1/);
    // gpt-1.7b's 24 layers on 512 GPUs: t·p ≤ 8·24, so d ≥ 4 — even — and 1537 is odd.
    await control(page, "Model").selectOption("gpt-1.7b");
    await control(page, "Nodes (8 GPUs each)").fill("64");
    await control(page, "Global batch B").fill("1537");
    await search.click();
    assert.match(await said(), /The search found no layout of gpt-1\.7b on 512 a100-80gb GPUs with B = 1537: global batch 1537 is not divisible by d·b for any layout/);
    // One node cannot hold GPT-3's 175 billion parameters (16 bytes each) in 8 × 80 GB.
    await control(page, "Model").selectOption("gpt3-175b");
    await control(page, "Nodes (8 GPUs each)").fill("1");
    await control(page, "Global batch B").fill("64");
    await search.click();
    assert.match(await said(), /The search found no layout of gpt3-175b on 8 a100-80gb GPUs with B = 64: none of the \d+ admissible layouts fits: the smallest .* needs [\d.]+ GB of the GPU's 80\.0 GB/);
    assert.equal(await page.locator(`${PLANNER} .planner-best table`).count(), 0);
    await control(page, "Nodes (8 GPUs each)").fill("64");
    await control(page, "Global batch B").fill("1536");
  });

  test("the sequence length is a control: it re-prices the step, a new model brings its own, a bad one is refused",
    async () => {
      await control(page, "Model").selectOption("gpt3-175b");
      assert.equal(await control(page, "Sequence s (tokens)").inputValue(), "2048");
      for (const [label, v] of [["GPU", "a100-80gb"], ["Tensor t", "8"], ["Pipeline p", "8"], ["Chunks per GPU v", "1"],
        ["Context c", "1"], ["Expert e", "1"], ["Micro-batch b", "1"], ["ZeRO stage", "0"],
        ["Attention kernel", "flash-attention-2"], ["Precision", "bf16"]]) {
        const el = control(page, label);
        if (["GPU", "ZeRO stage", "Attention kernel", "Precision"].includes(label)) await el.selectOption(v); else await el.fill(v);
      }
      await control(page, "Sequence s (tokens)").fill("4096");
      const layout = { t: 8, p: 8, v: 1, c: 1, e: 1, microBatch: 1, globalBatch: 1536, zeroStage: 0,
        sequenceParallel: await control(page, "Sequence parallel").isChecked(),
        recomputation: await control(page, "Recomputation").inputValue(),
        overlapDp: await control(page, "Overlap DP with backward").isChecked() };
      const at4k = numbersOnly(await expected(page, { model: "gpt3-175b", gpu: "a100-80gb", nodes: 64, layout, sequence: 4096 }));
      assert.deepEqual(await shown(page), at4k);
      assert.notDeepEqual(at4k, numbersOnly(await expected(page, { model: "gpt3-175b", gpu: "a100-80gb", nodes: 64, layout })));
      await control(page, "Sequence s (tokens)").fill("0");
      assert.match(await out(page, "error"), /Not a layout: Sequence s \(tokens\) must be a whole number ≥ 1/);
      // A context-parallel degree the sequence does not divide is the core's refusal, in its words.
      await control(page, "Sequence s (tokens)").fill("2049");
      await control(page, "Context c").fill("2");
      await control(page, "Pipeline p").fill("4");
      assert.match(await out(page, "error"), /sequence 2049 is not divisible by c = 2/);
      await control(page, "Context c").fill("1");
      await control(page, "Pipeline p").fill("8");
      await control(page, "Model").selectOption("llama3-8b");
      assert.equal(await control(page, "Sequence s (tokens)").inputValue(), "8192");
      await control(page, "Model").selectOption("gpt3-175b");
      assert.equal(await control(page, "Sequence s (tokens)").inputValue(), "2048");
    });

  test("Mixtral 8x7B with context and expert parallelism: the new parts of the step are the core's, bad e refused",
    async () => {
      await control(page, "Model").selectOption("mixtral-8x7b");
      await control(page, "GPU").selectOption("h100-sxm");
      await control(page, "Nodes (8 GPUs each)").fill("16");
      for (const [label, v] of [["Tensor t", "4"], ["Pipeline p", "2"], ["Chunks per GPU v", "1"], ["Context c", "2"],
        ["Expert e", "8"], ["Micro-batch b", "1"], ["Global batch B", "256"], ["ZeRO stage", "1"],
        ["Attention kernel", "flash-attention-2"]]) {
        const el = control(page, label);
        if (label === "ZeRO stage" || label === "Attention kernel") await el.selectOption(v); else await el.fill(v);
      }
      await control(page, "Recomputation").selectOption("selective");
      await control(page, "Sequence parallel").check();
      const layout = { t: 4, p: 2, v: 1, c: 2, e: 8, microBatch: 1, globalBatch: 256, zeroStage: 1,
        sequenceParallel: true, recomputation: "selective", overlapDp: await control(page, "Overlap DP with backward").isChecked() };
      const want = await expected(page, { model: "mixtral-8x7b", gpu: "h100-sxm", nodes: 16, layout });
      assert.deepEqual(await shown(page), numbersOnly(want));
      const legend = await page.locator(`${PLANNER} .planner-legend`).first().innerText();
      assert.ok(legend.includes(`expert all-to-all ${want.expert}`), legend);
      assert.ok(legend.includes(`context-parallel K/V ring ${want.context}`), legend);
      assert.match(await out(page, "active"), /G$/);
      await control(page, "Expert e").fill("3");
      assert.match(await out(page, "error"), /Not a layout: e = 3 must divide d = 8/);
      await control(page, "Expert e").fill("1");
      await control(page, "Context c").fill("1");
    });

  test("an exercise passes with its answer and fails with the usual mistake (HFU for MFU)", async () => {
    const id = "planner-mfu";
    await page.evaluate((i) => { const c = window.dsml.exercises.get(i); c.setAnswer(c.exercise.wrongAnswer(c.params, window.dsml.core)); return c.submit(); }, id);
    await waitVerdict(page, id, "fail");
    await page.evaluate((i) => { const c = window.dsml.exercises.get(i); c.setAnswer(c.expected()); return c.submit(); }, id);
    assert.match(await waitVerdict(page, id, "pass"), /Correct/);
  });

  test("at 360 px nothing overflows the page (the tables scroll in their own box) and no formula is cut", async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    // Inline math wraps only between its terms: a formula wider than its paragraph is clipped at the page's edge.
    // Display math scrolls in its own box (.m-display), so only what lies outside one is measured.
    const cut = await page.evaluate(() => {
      const edge = document.querySelector("main article").getBoundingClientRect().right;
      return [...document.querySelectorAll("main .m")].filter((el) => !el.closest(".m-display, .scroll-x"))
        .filter((el) => [...el.getClientRects()].some((r) => r.right > edge + 0.5))
        .map((el) => el.dataset.tex);
    });
    if (process.env.DSML_SCREENSHOTS) {
      await page.locator("#step").screenshot({ path: join(process.env.DSML_SCREENSHOTS, "planner-step-360.png") });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.ok(wide <= 360, `the page is ${wide} px wide`);
    assert.deepEqual(cut, [], "inline formulas wider than the column at 360 px");
    assert.deepEqual(problems, []);
  });
});
