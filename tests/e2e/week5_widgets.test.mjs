// Week 5's widgets in real Chromium: each starts on the prose's numbers (the same core calls as calcs.js), its
// controls change what the core computes, the pipeline trainer equals one device, and nothing scrolls the page
// sideways at 360 px. (The widgets' core calls are timed by bench/week5_core_calls.mjs: a measurement, not a test.)
//   node --test --test-concurrency=1 tests/e2e/week5_widgets.test.mjs
import { LINKS } from "../../web/hardware.js";
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { openLesson } from "./pages.mjs";
import { calc, readout } from "./widget_probes.mjs";
import { LAYOUT_EXAMPLE } from "../../lessons/week5/scale_setup.js";
import { formatBytes, formatSeconds } from "../../web/units.js";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

const choose = (page, widget, label, value) =>
  page.locator(`[data-widget=${widget}] .widget-controls label`, { hasText: label }).locator("xpath=..").locator("select").selectOption(value);

describe("week 5 widgets", () => {
  let page, problems;
  before(async () => { ({ page, problems } = await openLesson(site.context, site.url, "week5")); });
  after(async () => { await page.close(); });

  test("tensor split: starts on the prose's all-gather and all-reduce; InfiniBand is slower", async () => {
    const text = await readout(page, "tp-split");
    assert.ok(text.includes(await calc(page, "tp-gather")) && text.includes(await calc(page, "tp-reduce")), text);
    await choose(page, "tp-split", "Link", "ib");
    assert.notEqual(await readout(page, "tp-split"), text);
  });

  test("pipeline timeline: 1F1B at P 4, m 8 as in the prose; every schedule draws; interleaved and ZB-H1 match their sections", async () => {
    const text = await readout(page, "pipeline-timeline");
    assert.ok(text.includes(`Step ${await calc(page, "pp-makespan")}`) && text.includes(await calc(page, "pp-over")), text);
    await choose(page, "pipeline-timeline", "Schedule", "interleaved");
    const interleaved = await readout(page, "pipeline-timeline");
    assert.ok(interleaved.includes(await calc(page, "il-over")), interleaved);
    // The prose's 28.5 (a stage's forward) and the widget's step are one number in two named units.
    assert.ok(interleaved.includes(`Step ${await calc(page, "il-makespan-chunks")}`), interleaved);
    assert.match(interleaved, /time unit: one chunk's forward, 1\/2 of a stage's/);
    // Every forward box carries its micro-batch, and the axis names the chunk's unit.
    const forwards = await page.evaluate(() => [...document.querySelectorAll("[data-widget=pipeline-timeline] svg g")]
      .filter((g) => g.querySelector("rect.pl-F")).map((g) => g.querySelector("text")?.textContent ?? null));
    assert.equal(forwards.length, 4 * 8 * 2);
    assert.deepEqual(forwards.filter((t) => t === null), [], "unlabelled forward boxes");
    assert.match(await page.locator("[data-widget=pipeline-timeline] svg.pipeline-svg").textContent(), /units of one chunk's forward/);
    await choose(page, "pipeline-timeline", "Schedule", "zb-h1");
    assert.ok((await readout(page, "pipeline-timeline")).includes(await calc(page, "zb-over")));
    const kinds = await page.locator("[data-widget=pipeline-timeline] svg rect.pl-W").count();
    assert.equal(kinds, 4 * 8, "one W box per micro-batch per device");
    await choose(page, "pipeline-timeline", "Schedule", "gpipe");
    assert.match(await readout(page, "pipeline-timeline"), /Peak activations per device: 8, 8, 8, 8/);
  });

  test("pipeline timeline: Train runs the schedule beside one device, equal to rounding", async () => {
    await choose(page, "pipeline-timeline", "Schedule", "zb-h1");
    await page.locator("[data-widget=pipeline-timeline] button", { hasText: "Train beside one device" }).click();
    const text = await page.locator("[data-widget=pipeline-timeline] .widget-train").innerText();
    const diff = Number(/parameters within ([\d.e+-]+)/.exec(text)[1]);
    assert.ok(diff < 1e-12, text);
  });

  test("pipeline compare: the formulas hold at t_w = 1; with t_w > t_f ZB-H1 leaves more bubble than its estimate", async () => {
    const text = await readout(page, "pipeline-compare");
    assert.ok(text.includes(`ZB-H1 ${await calc(page, "zb-over")} (formula ${await calc(page, "zb-over")}`), text);
    await page.locator("[data-widget=pipeline-compare] input[type=range]").fill("2");
    assert.match(await page.locator("[data-widget=pipeline-compare] .chart-summary").innerText(), /fixed order leaves more bubble/);
  });

  test("micro-batches, ZeRO memory, experts and layouts start on the prose's numbers", async () => {
    const mb = await readout(page, "micro-batches");
    assert.ok(mb.includes(await calc(page, "mb-closed")) && mb.includes(`best whole m ${await calc(page, "mb-best")}`), mb);
    await choose(page, "micro-batches", "Stages P", "2");
    assert.notEqual(await readout(page, "micro-batches"), mb);
    assert.ok((await readout(page, "zero-memory")).includes(await calc(page, "z7-dp")));
    await choose(page, "zero-memory", "Model", "175B");
    assert.match(await readout(page, "zero-memory"), /^175B/);
    const ex = await readout(page, "experts");
    assert.ok(ex.includes(`= ${await calc(page, "moe-capacity")} per expert`) && ex.includes(`${await calc(page, "moe-dropped")} of 128`), ex);
    await page.locator("[data-widget=experts] input[type=range]").first().fill("3");
    assert.match(await readout(page, "experts"), /\b0 of 128 assignments dropped/);
    const lay = await readout(page, "layouts");
    assert.ok(lay.includes(`${await calc(page, "l-fits")} fit`) && lay.includes(await calc(page, "l-best")) &&
      lay.includes(`${await calc(page, "l-best-step")} a step`), lay);
    const table = page.locator("[data-widget=layouts] table");
    assert.deepEqual(await table.locator("thead th").allInnerTexts(),
      ["(t, p, d)", "m", "memory", "step", "compute", "bubble", "tensor", "pipeline", "data"]);
    // The starred row is the planner's: planStep of its layout, called here on the planner's own binding, gives the
    // same cells.
    const starred = await table.locator("tbody tr", { hasText: "★" }).locator("td").allInnerTexts();
    const [t, p, d] = starred[0].match(/\d+/g).map(Number);
    const plan = await page.evaluate(([example, layout]) => {
      const core = window.dsml.core, presets = core.plannerPresets();
      return core.planStep({ model: presets.models.find((m) => m.name === example.model),
        cluster: { gpu: presets.gpus.find((g) => g.name === example.gpu), nodes: example.nodes, gpusPerNode: example.gpusPerNode },
        layout: { ...layout, microBatch: 1, globalBatch: 512, sequenceParallel: true, recomputation: "none", overlapDp: false } });
    }, [LAYOUT_EXAMPLE, { t, p, d }]);
    const sec = (x) => formatSeconds(x, { digits: 3 });
    assert.deepEqual(starred.slice(1), [String(plan.microBatches), formatBytes(plan.memory.total, { digits: 3 }),
      sec(plan.time.total), ...["compute", "bubble", "tensor", "pipeline", "data"].map((k) => sec(plan.time[k]))]);
    await choose(page, "layouts", "Optimizer state", "zero1");
    const z1 = await readout(page, "layouts");
    assert.ok(z1.includes(`${await calc(page, "l-fits-z1")} fit`) && z1.includes(await calc(page, "l-z1-best")), z1);
    assert.ok(await table.evaluate((el) => el.scrollWidth <= el.clientWidth), "the table fits at 1280 px");
    const struck = await table.locator("tbody tr").evaluateAll((rows) => rows.filter((r) => r.style.textDecoration === "line-through")
      .map((r) => r.textContent.includes("(does not fit)")));
    assert.ok(struck.length > 0 && struck.every(Boolean), JSON.stringify(struck));
    assert.deepEqual(problems, []);
  });

  test("FSDP prefetch: the readout is stepCost's, prefetch is faster, a faster link exposes less", async () => {
    const fig = page.locator("[data-widget=fsdp-prefetch]");
    await fig.scrollIntoViewIfNeeded();
    await fig.locator(".widget-readout").waitFor();
    const seconds = (text, label) => {
      const m = text.match(new RegExp(`${label}: ([\\d.]+) (s|ms|µs)`));
      return Number(m[1]) * { s: 1, ms: 1e-3, "µs": 1e-6 }[m[2]];
    };
    const exposedShare = (text) => Number(text.match(/\((\d+) ?%\) is communication/)[1]);
    const ib = await readout(page, "fsdp-prefetch");
    const core = await page.evaluate(({ alpha, beta }) => {  // the course's InfiniBand HDR (web/hardware.js)
      const request = { strategy: "zero3", grid: { dp: 64 }, model: { layers: 32, width: 4096, hidden: 16384, activation: "gelu" },
        batch: 2048 * 64, flops: 150e12, alpha, beta, elementBytes: 2 };
      return [false, true].map((overlap) => window.dsml.core.stepCost({ ...request, overlap }).total);
    }, { alpha: LINKS.infiniband.alpha, beta: LINKS.infiniband.beta });
    assert.ok(Math.abs(seconds(ib, "No prefetch") / core[0] - 1) < 0.01, `${ib} vs ${core}`);
    assert.ok(Math.abs(seconds(ib, "; prefetch") / core[1] - 1) < 0.01, `${ib} vs ${core}`);
    assert.ok(core[1] < core[0]);
    await choose(page, "fsdp-prefetch", "Link", "nvlink");
    const nvlink = await readout(page, "fsdp-prefetch");
    assert.ok(exposedShare(nvlink) < exposedShare(ib), `${nvlink} / ${ib}`);
    assert.equal(await fig.locator("svg rect.ph-span").count() > 20, true, "both timelines drawn");
    assert.deepEqual(problems, []);
  });

  test("no sideways scroll at 360 px", async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    await page.waitForTimeout(300);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
    // The pipeline timeline redrawn on a phone is drawn in pixels 640 wide and scrolls in its box: its text stays its
    // size (a 1000-unit drawing squeezed to 640 px made it 7.7 px).
    const timeline = page.locator("[data-widget=pipeline-timeline] svg.pipeline-svg");
    const before = await timeline.getAttribute("aria-label");
    await choose(page, "pipeline-timeline", "Schedule", "gpipe");
    await page.waitForFunction((b) => document.querySelector("[data-widget=pipeline-timeline] svg.pipeline-svg")?.getAttribute("aria-label") !== b, before);
    const smallest = await timeline.locator("text").evaluateAll((ts) => Math.min(...ts.map((t) => t.getBoundingClientRect().height)));
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.equal(overflow, false);
    assert.ok(smallest >= 10, `smallest timeline text ${smallest} px tall`);
  });
});
