// The lab's training panel in real Chromium: pressing Train runs the trainer on real Workers, the live loss
// points land on the single-device curve, and the report shows equality, a per-rank timeline, the memory each
// Worker held (matching the accountant where one exists) and the bytes by kind (matching the C++ log).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { LAB_TRAIN, openLesson, setLabControls } from "./pages.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

const FIG = LAB_TRAIN;
const configure = setLabControls;

async function train(page) {
  await page.locator(FIG).getByRole("button", { name: "Train" }).click();
  await page.waitForFunction((sel) => /steps\/s|could not|threw|Deadlock|watchdog/.test(
    document.querySelector(`${sel} .widget-readout`)?.textContent ?? ""), FIG, { timeout: 120000 });
  return page.locator(`${FIG} .widget-readout`).first().innerText();
}

describe("lab training panel", () => {
  test("3-D grid with 1F1B: the Workers' training equals one device; timeline, memory and bytes are shown", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "lab");
    await configure(page, { "Blocks L": "4", "Width D": "16", "Hidden F": "64", "Batch B": "16", dp: "2", tp: "2",
      pp: "2", "Micro-batches m": "2", Steps: "20" });
    const text = await train(page);
    assert.match(text, /20 steps on 8 Workers .* differ from single-device training by \d\.\de-1[4-7] \(relative\)/);
    assert.match(text, /the same training/);
    assert.equal(await page.locator(`${FIG} .train-timeline svg`).count(), 1);
    assert.equal(await page.locator(`${FIG} .train-memory .bar-row`).count(), 8);
    const kinds = await page.locator(`${FIG} .bytes-table tbody td:first-child`).allInnerTexts();
    assert.deepEqual(kinds.sort(), ["all-reduce over dp", "all-reduce over tp", "send over pp"]);
    // The live points sit on the reference curve.
    const { points, gap } = await page.evaluate(async () => {
      const { Chart } = await import("../../web/vendor/chart.js");
      const chart = Object.values(Chart.instances).find((c) => c.canvas.closest("[data-widget=train]"));
      const [ref, live] = chart.data.datasets;
      return { points: live.data.length,
        gap: Math.max(...live.data.map((p) => Math.abs(p.y - ref.data[p.x].y) / ref.data[p.x].y)) };
    });
    assert.equal(points, 20);
    assert.ok(gap < 1e-12, `live loss vs reference: ${gap}`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("FSDP on a pure data-parallel grid: memory equals the accountant's, bytes equal the C++ zero3 log", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "lab");
    await configure(page, { "Blocks L": "2", "Width D": "16", "Hidden F": "64", "Batch B": "16", dp: "4", tp: "1",
      pp: "1", "Sharding over dp": "on", "Micro-batches m": "1", Optimizer: "sgd", Steps: "20" });
    assert.match(await train(page), /the same training/);
    assert.match(await page.locator(`${FIG} .train-memory`).innerText(), /accountant .* predicts exactly these bytes/);
    const logged = await page.locator(`${FIG} .bytes-table tbody td:last-child`).allInnerTexts();
    assert.deepEqual(logged.map((t) => t.endsWith("✓")), [true, true], logged.join(" | "));
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("interleaved 1F1B (v = 2) on a 3-D grid trains on the Workers to the single-device model; a grid it cannot cut is explained", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "lab");
    await configure(page, { "Blocks L": "2", pp: "2", Schedule: "interleaved" });
    assert.match(await page.locator(`${FIG} .widget-readout`).first().innerText(),
      /interleaved 1F1B \(v = 2 chunks per stage\) needs pp·2 = 4 to divide the number of blocks L = 2/);
    assert.ok(await page.locator(FIG).getByRole("button", { name: "Train" }).isDisabled());
    await configure(page, { "Blocks L": "4", "Width D": "16", "Hidden F": "64", "Batch B": "16", dp: "2", tp: "2",
      pp: "2", "Micro-batches m": "2", Steps: "20" });
    const text = await train(page);
    assert.match(text, /20 steps on 8 Workers .* differ from single-device training by \d\.\de-1[4-7] \(relative\)/);
    assert.match(text, /the same training/);
    assert.equal(await page.locator(`${FIG} .train-memory .bar-row`).count(), 8);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("Step through one step: the whole rank program pauses per statement, tensors with shape and norm, Continue ends it", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "lab");
    await configure(page, { dp: "2", tp: "2", pp: "2" });
    await page.locator(FIG).getByRole("button", { name: "Step through one step" }).click();
    const box = page.locator(`${FIG} .train-step`);
    await page.waitForFunction((sel) => /Paused/.test(document.querySelector(`${sel} .train-step .run-status`)?.textContent ?? ""),
      FIG, { timeout: 60000 });
    assert.equal(await box.locator(".cm-content").getAttribute("aria-readonly"), "true", "the rank program is read-only");
    // Run to the next send/recv until a rank holds a tensor in a variable of its own (the first sends carry
    // activations); tensors inside objects are shown too, without a shape line.
    const TENSOR = /Float64Array\(\d+\) .* shape \[\d+\], ‖·‖₂ = [\d.]+/;
    let panel = "";
    for (let i = 0; i < 12 && !TENSOR.test(panel); i++) {
      const before = await box.locator(".step-where").innerText();
      await box.getByRole("button", { name: /To send\/recv/ }).click();
      await page.waitForFunction(([sel, was]) => {
        const where = document.querySelector(`${sel} .train-step .step-where`)?.textContent ?? "";
        return where !== was && /run to the next send\/recv/.test(where);
      }, [FIG, before], { timeout: 60000 });
      panel = await box.locator(".step-panel").innerText();
    }
    assert.match(panel, TENSOR, "a tensor with its shape and norm");
    assert.match(panel, /rank 7/, "all 8 ranks are shown");
    await box.getByRole("button", { name: /Continue/ }).click();
    await page.waitForFunction((sel) => /The run ended: every rank returned/.test(document.querySelector(`${sel} .train-step .run-status`)?.textContent ?? ""),
      FIG, { timeout: 120000 });
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("a grid that does not fit the model is explained and Train is disabled", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "lab");
    await configure(page, { "Blocks L": "2", pp: "4" });
    assert.match(await page.locator(`${FIG} .widget-readout`).first().innerText(), /pp = 4 must divide the number of blocks L = 2/);
    assert.ok(await page.locator(FIG).getByRole("button", { name: "Train" }).isDisabled());
    assert.deepEqual(problems, []);
    await page.close();
  });
});

// The status reads "an 8-block model" (not "a an 8-block model"), and a stopped run's chart
// summary — the canvas's screen-reader text too — describes that run, not the finished one before it.
describe("lab status and chart text", () => {
  test("the status has one article; a stopped run's chart summary speaks of the stopped run", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "lab");
    await configure(page, { "Blocks L": "8", "Width D": "16", "Hidden F": "64", "Batch B": "16", dp: "2", tp: "1",
      pp: "1", "Micro-batches m": "1", Steps: "20" });
    const status = await page.locator(`${FIG} .widget-readout`).first().innerText();
    assert.match(status, /each holding its part of an 8-block model/);
    assert.doesNotMatch(status, /\ba an?\b/);
    await configure(page, { "Blocks L": "4" });
    assert.match(await page.locator(`${FIG} .widget-readout`).first().innerText(), /part of a 4-block model/);
    assert.match(await train(page), /20 steps on 2 Workers/);
    const summary = () => page.locator(`${FIG} .chart-summary`).innerText();
    assert.match(await summary(), /in 20 steps/);
    // (dp = 2: the ranks meet in all-reduce every step, so their progress reaches the page while they run)
    await configure(page, { Steps: "100", "Blocks L": "8", "Width D": "64", "Hidden F": "256", "Batch B": "64" });
    await page.locator(FIG).getByRole("button", { name: "Train" }).click();
    assert.match(await summary(), /^Training on 2 Workers/);
    await page.waitForFunction((sel) => document.querySelector(`${sel} progress`)?.value >= 2, FIG, { timeout: 120000 });
    await page.locator(FIG).getByRole("button", { name: "Stop" }).click();
    await page.waitForFunction((sel) => /Stopped after/.test(document.querySelector(`${sel} .widget-readout`)?.textContent ?? ""),
      FIG, { timeout: 60000 });
    const stopped = await summary();
    assert.match(stopped, /^Stopped after \d+ of 100 steps: the Workers' loss went from \d/);
    assert.doesNotMatch(stopped, /in 20 steps/);
    const described = await page.evaluate((sel) => {
      const canvas = document.querySelector(`${sel} canvas`);
      return document.getElementById(canvas.getAttribute("aria-describedby"))?.textContent;
    }, FIG);
    assert.equal(described, stopped);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
