// The planner page's attention and published-tables widgets and the planner's kernel and precision controls, in real
// Chromium: what they draw and say is what the core computes (asked here directly through core.attentionCost,
// core.plannerValidation and core.planStep with the presets, not through the page's modules), each chart has its
// text alternative, a control change redraws, the charts re-theme when the page turns dark, and at 360 px nothing
// overflows. DSML_SCREENSHOTS=<dir> also saves both widgets light, dark and at 360 px.
//   node --test --test-concurrency=1 tests/e2e/planner_widgets.test.mjs
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { openSite } from "./harness.mjs";
import { openLesson } from "./pages.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

const ATTENTION = "[data-widget=attention]";
const CALIBRATION = "[data-widget=calibration]";
const PLANNER = "[data-widget=planner]";
const shots = process.env.DSML_SCREENSHOTS;
const shoot = (page, selector, name) => (shots ? page.locator(selector).screenshot({ path: join(shots, name) }) : null);

// Every Chart.js chart in `selector`: its datasets' labels, point counts and first colour.
function charts(page, selector) {
  return page.evaluate(async (sel) => {
    const url = performance.getEntriesByType("resource").map((e) => e.name).find((n) => /\/vendor\/chart\.js$/.test(n));
    const { Chart } = await import(url);
    return [...document.querySelectorAll(`${sel} canvas`)].map((c) => Chart.getChart(c)).filter(Boolean)
      .map((ch) => ch.data.datasets.map((d) => ({ label: d.label, points: d.data.length, colour: d.borderColor })));
  }, selector);
}

// One attention core priced by the core, written as the widget writes it (web/units.js).
function attention(page, { model, gpu, s, t, kernel }) {
  return page.evaluate(async ({ model, gpu, s, t, kernel }) => {
    const units = await import(new URL("../../web/units.js", location.href).href);
    const core = window.dsml.core;
    const all = core.plannerPresets();
    const r = core.attentionCost({ model: { ...all.models.find((m) => m.name === model), sequence: s },
      gpu: all.gpus.find((g) => g.name === gpu), kernel, t, microBatch: 1 });
    return { time: units.formatSeconds(r.forwardSeconds + r.backwardSeconds), kept: units.formatBytes(r.activationBytes) };
  }, { model, gpu, s, t, kernel });
}

describe("the planner page's attention and published-tables widgets", () => {
  let page, problems;
  before(async () => { ({ page, problems } = await openLesson(site.context, site.url, "planner")); });
  after(async () => { await page.close(); });

  test("attention: fused beside unfused from 512 to 131 072 tokens, a readout and a data table from the core", async () => {
    const drawn = await charts(page, ATTENTION);
    assert.equal(drawn.length, 2, "a time chart and a memory chart");
    for (const chart of drawn) {
      assert.deepEqual(chart.slice(0, 2).map((d) => [d.label, d.points]),
        [["fused (FlashAttention)", 9], ["unfused (scores in HBM)", 9]]);
    }
    assert.match(drawn[1][2].label, /^h100-sxm memory, 80 GB$/);
    const readout = await page.locator(`${ATTENTION} [data-out=attention]`).innerText();
    const fused = await attention(page, { model: "llama3-8b", gpu: "h100-sxm", s: 8192, t: 1, kernel: "flash-attention-2" });
    const unfused = await attention(page, { model: "llama3-8b", gpu: "h100-sxm", s: 8192, t: 1, kernel: "unfused" });
    assert.ok(readout.includes(`takes ${fused.time} fused and ${unfused.time} unfused`), readout);
    assert.ok(readout.includes(`keeps ${fused.kept} fused against ${unfused.kept} unfused`), readout);
    assert.match(readout, /runs 50% of the forward FLOPs MFU counts/);
    // The text alternative: a sentence on both curves and the data of both charts, one row per sequence length.
    const last = { fused: await attention(page, { model: "llama3-8b", gpu: "h100-sxm", s: 131072, t: 1, kernel: "flash-attention-2" }),
      unfused: await attention(page, { model: "llama3-8b", gpu: "h100-sxm", s: 131072, t: 1, kernel: "unfused" }) };
    const summary = await page.locator(`${ATTENTION} .chart-summary`).innerText();
    assert.match(summary, /^From 512 to 131 072 tokens \(256× the sequence\), one layer's attention time grows/);
    assert.ok(summary.endsWith(`to ${last.fused.kept} against ${last.unfused.kept}.`), summary);
    assert.equal(await page.locator(`${ATTENTION} details.chart-data tbody tr`).count(), 9);
  });

  test("attention: a control change redraws from the core (GPT-3 on an A100 at t = 8, as in the prose)", async () => {
    const control = (label) => page.locator(ATTENTION).getByLabel(label, { exact: true });
    await control("Model").selectOption("gpt3-175b");
    await control("GPU").selectOption("a100-80gb");
    await control("Tensor t").selectOption("8");
    const readout = await page.locator(`${ATTENTION} [data-out=attention]`).innerText();
    const fused = await attention(page, { model: "gpt3-175b", gpu: "a100-80gb", s: 2048, t: 8, kernel: "flash-attention-2" });
    const unfused = await attention(page, { model: "gpt3-175b", gpu: "a100-80gb", s: 2048, t: 8, kernel: "unfused" });
    assert.ok(readout.startsWith("At gpt3-175b's own sequence of 2048 tokens on a100-80gb (t = 8, b = 1)"), readout);
    assert.ok(readout.includes(`takes ${fused.time} fused and ${unfused.time} unfused`), readout);
    // The prose's worked example is the same pair.
    assert.equal(await page.locator('[data-calc="att-ex-fused-time"]').innerText(), fused.time);
    assert.equal(await page.locator('[data-calc="att-ex-unfused-kept"]').innerText(), unfused.kept);
    assert.match((await charts(page, ATTENTION))[1][2].label, /^a100-80gb memory, 80 GB$/);
  });

  test("published tables: every row of the three tables on one chart, each table's errors, Table 1 in sample", async () => {
    const tables = await page.evaluate(() => window.dsml.core.plannerValidation().tables
      .map((t) => ({ id: t.id, rows: t.rows.length, inSample: t.inSample, mean: t.meanAbsError, worst: t.worstAbsError })));
    assert.deepEqual(tables.map((t) => [t.id, t.inSample]),
      [["narayanan-table1", true], ["llm-foundry-h100-bf16", false], ["llm-foundry-a100-80gb", false]]);
    const drawn = (await charts(page, CALIBRATION))[0];
    assert.deepEqual(drawn.slice(0, 3).map((d) => d.points), tables.map((t) => t.rows));
    assert.match(drawn[0].label, /\(in sample\)$/);
    assert.ok(!/in sample/.test(drawn[1].label) && !/in sample/.test(drawn[2].label));
    assert.deepEqual(drawn.slice(3).map((d) => d.label), ["y = x", "±15%"]);
    // Each table's rows, and the text alternative: one data row per published row.
    for (const [i, t] of tables.entries()) {
      assert.equal(await page.locator(`${CALIBRATION} table.planner-calibration`).nth(i).locator("tbody tr").count(), t.rows);
    }
    const total = tables.reduce((n, t) => n + t.rows, 0);
    assert.equal(await page.locator(`${CALIBRATION} details.chart-data tbody tr`).count(), total);
    assert.match(await page.locator(`${CALIBRATION} .chart-summary`).innerText(),
      /^Planner against published utilisation, one point per row: .*\(in sample\), 10 of 10 rows within ±15% \(0 above the band, 0 below\);/);
    // The prose's mean and worst are the core's.
    const percent = (x) => `${Number((100 * x).toPrecision(2))}%`;
    for (const [key, t] of [["t1", tables[0]], ["h100", tables[1]], ["a100", tables[2]]]) {
      assert.equal(await page.locator(`[data-calc="cal-${key}-mean"]`).innerText(), percent(t.mean), key);
      assert.equal(await page.locator(`[data-calc="cal-${key}-worst"]`).innerText(), percent(t.worst), key);
    }
    // The one fitted constant is named with what it was fitted on.
    assert.match(await page.locator(`${CALIBRATION} details:not(.chart-data) > summary`).last().innerText(),
      /1 fitted \(matmul_in_step \(every GPU\) on Narayanan et al\. 2021 Table 1/);
  });

  test("the planner's attention kernel and precision are controls: each re-prices the step, FP8 on an A100 is refused",
    async () => {
      const control = (label) => page.locator(PLANNER).getByLabel(label, { exact: true });
      const step = () => page.locator(`${PLANNER} [data-out=step]`).innerText();
      const priced = (layout, gpu = "a100-80gb") => page.evaluate(async ({ layout, gpu }) => {
        const units = await import(new URL("../../web/units.js", location.href).href);
        const all = window.dsml.core.plannerPresets();
        const r = window.dsml.core.planStep({ model: all.models.find((m) => m.name === "gpt3-175b"),
          cluster: { gpu: all.gpus.find((g) => g.name === gpu), nodes: 64, gpusPerNode: 8 }, layout });
        return units.formatSeconds(r.time.total);
      }, { layout, gpu });
      const base = { t: 8, p: 8, v: 1, microBatch: 1, globalBatch: 1536, zeroStage: 0, sequenceParallel: true,
        recomputation: "selective", overlapDp: true };
      assert.equal(await step(), await priced({ ...base, attention: "flash-attention-2", precision: "bf16" }));
      await control("Attention kernel").selectOption("unfused");
      assert.equal(await step(), await priced({ ...base, attention: "unfused", precision: "bf16" }));
      await control("Precision").selectOption("fp8");
      assert.match(await page.locator(`${PLANNER} [data-out=error]`).innerText(), /^Not a layout: .*fp8/i);
      await control("GPU").selectOption("h100-sxm");
      assert.equal(await step(), await priced({ ...base, attention: "unfused", precision: "fp8" }, "h100-sxm"));
      const legend = await page.locator(`${PLANNER} .planner-legend`).first().innerText();
      assert.match(legend, /matmuls .*attention core .*memory-bound kernels/s);
      for (const [label, v] of [["Attention kernel", "flash-attention-2"], ["Precision", "bf16"], ["GPU", "a100-80gb"]]) {
        await control(label).selectOption(v);
      }
    });

  test("the charts re-theme when the page turns dark, and at 360 px nothing overflows", async () => {
    const light = (await charts(page, ATTENTION))[0][0].colour;
    await shoot(page, ATTENTION, "planner-attention-light.png");
    await shoot(page, CALIBRATION, "planner-calibration-light.png");
    await page.emulateMedia({ colorScheme: "dark" });
    const want = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--chart-1").trim());
    assert.notEqual(want, light, "the dark palette's first chart colour is another");
    // The page re-themes its charts when it sees the change (web/ui/charts.js): wait for that, not for a time.
    let dark = light;
    for (let tries = 0; tries < 200 && dark !== want; tries++) {
      dark = (await charts(page, ATTENTION))[0][0].colour;
      if (dark !== want) await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
    }
    assert.equal(dark, want);
    await shoot(page, ATTENTION, "planner-attention-dark.png");
    await shoot(page, CALIBRATION, "planner-calibration-dark.png");
    await page.setViewportSize({ width: 360, height: 800 });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    await shoot(page, ATTENTION, "planner-attention-360.png");
    await shoot(page, CALIBRATION, "planner-calibration-360.png");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: "light" });
    assert.ok(wide <= 360, `the page is ${wide} px wide`);
    assert.deepEqual(problems, []);
  });
});
