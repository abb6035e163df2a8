// The planner page (lessons/planner/, issue 27) in real Chromium: what the widgets show is what core.planStep returns
// for the controls' settings (asked here directly, not through the page's planner_setup.js), a Table 1 row loads
// into the planner, the search's layouts fit and can be used, a bad layout is refused in words, an exercise passes
// with its answer and fails with the usual mistake, nothing overflows 360 px, and the console stays clean.
//   node --test --test-concurrency=1 tests/e2e/planner.test.mjs
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { openLesson, waitVerdict } from "./pages.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

const PLANNER = "[data-widget=planner]";
const out = (page, key) => page.locator(`${PLANNER} [data-out=${key}]`).innerText();
const control = (page, label) => page.locator(PLANNER).getByLabel(label, { exact: true });

// core.planStep for `layout` on `nodes` 8-GPU nodes, formatted as the widget formats it (web/units.js).
function expected(page, { model, gpu, nodes, layout }) {
  return page.evaluate(async ({ model, gpu, nodes, layout }) => {
    const units = await import(new URL("../../web/units.js", location.href).href);
    const core = window.dsml.core;
    const all = core.plannerPresets();
    const r = core.planStep({ model: all.models.find((m) => m.name === model),
      cluster: { gpu: all.gpus.find((g) => g.name === gpu), nodes, gpusPerNode: 8 },
      layout: { ...layout, d: (nodes * 8) / (layout.t * layout.p) } });
    return { step: units.formatSeconds(r.time.total), mfu: `${units.formatNumber(100 * r.mfu)}%`,
      hfu: `${units.formatNumber(100 * r.hfu)}%`, tflops: units.formatNumber(r.tflopsPerGpu),
      memory: units.formatBytes(r.memory.total), d: String(r.layout.d), fits: r.fits ? "fits" : "does not fit" };
  }, { model, gpu, nodes, layout });
}
async function shown(page) {
  const o = {};
  for (const k of ["step", "mfu", "hfu", "tflops", "memory", "d", "fits"]) o[k] = await out(page, k);
  return o;
}

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
    assert.deepEqual(await shown(page), await expected(page, base));
    assert.equal(await out(page, "step"), await page.locator('[data-calc="ex-step"]').innerText());
    assert.equal(await out(page, "mfu"), await page.locator('[data-calc="ex-mfu"]').innerText());
  });

  test("changing a control re-prices the step with the core: p = 4 (d = 16), then the H100, then ZeRO-1", async () => {
    const layout = { t: 8, p: 4, v: 1, microBatch: 1, globalBatch: 1536, zeroStage: 0, sequenceParallel: true,
      recomputation: "selective", overlapDp: true };
    await control(page, "Pipeline p").fill("4");
    assert.deepEqual(await shown(page), await expected(page, { model: "gpt3-175b", gpu: "a100-80gb", nodes: 64, layout }));
    await control(page, "GPU").selectOption("h100-sxm");
    assert.deepEqual(await shown(page), await expected(page, { model: "gpt3-175b", gpu: "h100-sxm", nodes: 64, layout }));
    await control(page, "ZeRO stage").selectOption("1");
    const z1 = await expected(page, { model: "gpt3-175b", gpu: "h100-sxm", nodes: 64, layout: { ...layout, zeroStage: 1 } });
    assert.deepEqual(await shown(page), z1);
    // The bars say the same numbers in words: the memory legend ends with the GPU's capacity.
    assert.match(await page.locator(`${PLANNER} .planner-legend`).nth(1).innerText(), /capacity 80 GB HBM/);
  });

  test("a layout the core refuses is explained in words, and a good one brings the numbers back", async () => {
    await control(page, "Pipeline p").fill("7");
    assert.match(await out(page, "error"), /Not a layout: t·p = 8·7 must divide the 512 GPUs/);
    await control(page, "Pipeline p").fill("32");
    await control(page, "Chunks per GPU v").fill("5");
    assert.match(await out(page, "error"), /96 layers are not divisible by p·v = 32·5/);
    await control(page, "Chunks per GPU v").fill("1");
    assert.equal(await out(page, "d"), "2");
  });

  test("a Table 1 row loads into the planner, and the table's prediction is the planner's", async () => {
    await page.getByRole("button", { name: "Load row 10, gpt-1t, into the planner" }).click();
    assert.equal(await control(page, "Model").inputValue(), "gpt-1t");
    assert.equal(await control(page, "Pipeline p").inputValue(), "64");
    assert.equal(await control(page, "Recomputation").inputValue(), "full");
    const row = { model: "gpt-1t", gpu: "a100-80gb", nodes: 384, layout: { t: 8, p: 64, v: 1, microBatch: 1,
      globalBatch: 3072, zeroStage: 0, sequenceParallel: false, recomputation: "full", overlapDp: false } };
    const want = await expected(page, row);
    assert.deepEqual(await shown(page), want);
    assert.equal(await page.locator("[data-widget=table1] [data-out=predicted]").nth(9).innerText(), want.tflops);
  });

  test("the search lists layouts that fit, fastest first, and “Use” puts one into the controls", async () => {
    await control(page, "Model").selectOption("gpt3-175b");
    await control(page, "Nodes (8 GPUs each)").fill("64");
    await control(page, "Global batch B").fill("1536");
    await page.getByRole("button", { name: "Find the fastest layouts that fit" }).click();
    const rows = page.locator(`${PLANNER} .planner-best tbody tr`);
    assert.ok(await rows.count() >= 1);
    const steps = await rows.evaluateAll((trs) => trs.map((tr) => tr.children[6].textContent));
    await rows.first().getByRole("button", { name: /^Use / }).click();
    assert.equal(await out(page, "fits"), "fits");
    assert.equal(await out(page, "step"), steps[0]);
  });

  test("an exercise passes with its answer and fails with the usual mistake (HFU for MFU)", async () => {
    const id = "planner-mfu";
    await page.evaluate((i) => { const c = window.dsml.exercises.get(i); c.setAnswer(c.exercise.wrongAnswer(c.params, window.dsml.core)); return c.submit(); }, id);
    await waitVerdict(page, id, "fail");
    await page.evaluate((i) => { const c = window.dsml.exercises.get(i); c.setAnswer(c.expected()); return c.submit(); }, id);
    assert.match(await waitVerdict(page, id, "pass"), /Correct/);
  });

  test("at 360 px nothing overflows the page (the tables scroll in their own box)", async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.ok(wide <= 360, `the page is ${wide} px wide`);
    assert.deepEqual(problems, []);
  });
});
