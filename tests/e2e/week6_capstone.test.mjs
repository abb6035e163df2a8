// Week 6's capstone in real Chromium: the report's numbers and sentences are the ones written down in
// capstone_expected.mjs (closed forms where the job has one, the seeded run's frozen values elsewhere), the controls
// change the report, a job that would never finish is refused with a message, Stop ends the time-to-target sweep,
// and the report printed with its button — its time-to-target table and charts included — is ONE page on A4 and on
// Letter, with the rest of the page hidden. (That the page's sweep, one P at a time, is the core's whole sweep is
// Node's: tests/exercises/capstone_target.test.mjs; the report's numbers are the core's, tests/core.)
//   node --test --test-concurrency=1 tests/e2e/week6_capstone.test.mjs
//   DSML_SCREENSHOTS=dir also saves the printed report (print media) and the widget on screen as PNGs there.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { EXPECTED } from "./capstone_expected.mjs";
import { openSite } from "./harness.mjs";
import { openLesson } from "./pages.mjs";
import { DEFAULTS } from "../../lessons/week6/capstone_setup.js";

const SHOTS = process.env.DSML_SCREENSHOTS;
let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

const widget = "[data-widget=capstone]";
// Wait until the report has been drawn for settings other than `previous` (a JSON string, or null).
const drawn = async (page, previous = null) => {
  await page.waitForFunction(([w, p]) => {
    const f = document.querySelector(w);
    return f?.dataset.state === "done" && f.dataset.settings !== p;
  }, [widget, previous], { timeout: 240000 });
  return page.locator(widget).getAttribute("data-settings");
};
const cells = (page) => page.locator(`${widget} [data-key]`).evaluateAll((tds) =>
  Object.fromEntries(tds.map((td) => [td.dataset.key, td.textContent])));
// One page: the PDF's page objects (Chromium writes them uncompressed).
const pages = (pdf) => (pdf.toString("latin1").match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length;

// The settings the controls test ends on: the defaults, then 16 GPUs, no stragglers, PowerSGD.
const CHANGED = { ...DEFAULTS, workers: 16, stragglerProbability: 0, compressor: "powersgd" };
// Then the time to the target asynchronously: SSP with the default bound.
const ASYNC = { ...CHANGED, mode: "ssp" };
// The time-to-target table as the page shows it: P (with "(best)"), steps, wall-clock.
const targetRows = (page) => page.locator(`${widget} .report-target-table tbody tr`).evaluateAll((trs) => trs.map((tr) => ({
  workers: tr.cells[0].textContent, steps: tr.cells[1].textContent, wall: tr.cells[4].textContent })));
async function checkTarget(page, expected) {
  assert.deepEqual(await targetRows(page), expected.rows);
  assert.equal(await page.locator(`${widget} .report-target-summary`).innerText(), expected.summary);
  assert.equal(await page.locator(`${widget} .report-target svg.report-chart`).count(), 2);
  if (expected.best !== null) {
    assert.equal(await page.locator(`${widget} .report-target-table tr.is-best`).getAttribute("data-workers"), String(expected.best));
    // the best P is marked on both charts, in their legends
    assert.equal(await page.locator(`${widget} .report-target svg text`, { hasText: `best: P = ${expected.best}` }).count(), 2);
  }
}

describe("week 6 capstone", () => {
  let page, problems;
  before(async () => {
    ({ page, problems } = await openLesson(site.context, site.url, "week6"));
  });
  after(async () => { await page.close(); });

  test("the report starts on the default 64-GPU job and its numbers are the core's", async () => {
    const settings = JSON.parse(await drawn(page));
    assert.deepEqual(settings, { ...DEFAULTS });
    const expected = EXPECTED.defaults;
    const shown = await cells(page);
    for (const [key, text] of Object.entries(expected.cells)) assert.equal(shown[key], text, key);
    assert.deepEqual(await page.locator(`${widget} .report-findings li`).allInnerTexts(), expected.findings);
    assert.match(await page.locator(`${widget} .job-report h3`).innerText(), /on 64 GPUs$/);
    await checkTarget(page, expected.target);
    assert.deepEqual(problems, []);
  });

  test("no chart's legend lies over its curves", async () => {
    await drawn(page);
    const overlaps = await page.locator(`${widget} svg.report-chart:not(.report-bar)`).evaluateAll((svgs) => svgs.flatMap((svg) => {
      const marks = [...svg.querySelectorAll("polyline, circle")].map((m) => m.getBBox());
      const top = Math.min(...marks.map((b) => b.y));
      return [...svg.querySelectorAll(".rc-legend")].filter((t) => { const b = t.getBBox(); return b.y + b.height > top + 0.5; })
        .map((t) => `${svg.getAttribute("aria-label")}: “${t.textContent}”`);
    }));
    assert.deepEqual(overlaps, []);
  });

  test("the printed report is one page on A4 and on Letter, with nothing else of the page", async () => {
    await drawn(page);
    await page.evaluate(() => document.documentElement.classList.add("print-report"));
    for (const format of ["A4", "Letter"]) {
      const pdf = await page.pdf({ format, printBackground: true });
      assert.equal(pages(pdf), 1, `${format}: ${pages(pdf)} pages`);
    }
    await page.emulateMedia({ media: "print" });
    const visible = await page.evaluate(() => ({
      report: document.querySelector(".job-report").getBoundingClientRect().height > 0,
      others: ["#compression", "#failures", ".lesson-head", ".widget-controls", ".site-header", "#widget-capstone .widget-readout"]
        .filter((s) => document.querySelector(s)?.getBoundingClientRect().height > 0),
    }));
    assert.deepEqual(visible, { report: true, others: [] });
    // The time-to-target block prints too: its four rows, the best marked, both charts.
    const printed = await page.evaluate(() => {
      const shown = (el) => el.getClientRects().length > 0;
      const block = document.querySelector("#widget-capstone .report-target");
      return {
        block: Boolean(block) && shown(block),
        rows: [...(block?.querySelectorAll("tbody tr") ?? [])].filter(shown).map((tr) => tr.dataset.workers),
        best: /^\d+ \(best\)$/.test(block?.querySelector("tr.is-best")?.cells[0].textContent ?? ""),
        charts: [...(block?.querySelectorAll("svg.report-chart") ?? [])].filter(shown).length,
        marked: [...(block?.querySelectorAll("svg text") ?? [])].filter((t) => /^best: P = \d+$/.test(t.textContent)).length,
      };
    });
    assert.deepEqual(printed, { block: true, rows: ["1", "2", "4", "8"], best: true, charts: 2, marked: 2 });
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.setViewportSize({ width: 794, height: 1123 });   // A4 at 96 dpi
      await page.screenshot({ path: join(SHOTS, "week6-capstone-report-print.png"), fullPage: true });
    }
    await page.emulateMedia({ media: "screen" });
    await page.evaluate(() => document.documentElement.classList.remove("print-report"));
    // Printed without the button (Ctrl+P), the whole page prints: the report among the rest.
    const whole = await page.pdf({ format: "A4" });
    assert.ok(pages(whole) > 3);
    assert.deepEqual(problems, []);
  });

  test("on a phone the charts' text stays legible and inside each chart", async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    await page.waitForFunction((w) => document.querySelectorAll(`${w} svg.report-chart:not(.report-bar)`).length >= 2, widget,
      { timeout: 240000 });
    const charts = await page.locator(`${widget} svg.report-chart:not(.report-bar)`).evaluateAll((svgs) => svgs.map((svg) => {
      const box = svg.getBoundingClientRect();
      const ticks = [...svg.querySelectorAll("text.rc-tick")].map((t) => t.getBoundingClientRect());
      return { width: box.width, smallest: Math.min(...ticks.map((r) => r.height)),
        outside: ticks.filter((r) => r.right > box.right + 0.5 || r.left < box.left - 0.5).length };
    }));
    assert.ok(charts.length >= 2, JSON.stringify(charts));
    // A 400-unit chart drawn ~290 px wide: 9.5-unit ticks were 6.4 px text; the phone's sizes keep them ≥ 9 px.
    for (const c of charts) assert.ok(c.smallest >= 10 && c.outside === 0, JSON.stringify(c));
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  // The three controls are moved at once: the page computes the report being drawn and then only the latest settings
  // (core_tasks.js latest), and data-settings says which settings the finished report is for.
  test("the controls change the report: fewer GPUs, no stragglers, another compressor", async () => {
    const previous = await drawn(page);
    await page.locator(`${widget} select`).first().selectOption("16");
    const straggler = page.locator(`${widget} input[type=range]`).nth(5);   // steps, lr, ratio, every, MTBF, p
    await straggler.fill("0");
    await straggler.dispatchEvent("input");
    await page.locator(`${widget} select`).nth(1).selectOption("powersgd");
    let settings = JSON.parse(await drawn(page, previous));
    while (JSON.stringify(settings) !== JSON.stringify(CHANGED)) settings = JSON.parse(await drawn(page, JSON.stringify(settings)));
    assert.deepEqual(settings, CHANGED);
    const expected = EXPECTED.changed;
    const shown = await cells(page);
    for (const [key, text] of Object.entries(expected.cells)) assert.equal(shown[key], text, key);
    assert.deepEqual(await page.locator(`${widget} .report-findings li`).allInnerTexts(), expected.findings);
    assert.match(await page.locator(`${widget} .job-report h3`).innerText(), /on 16 GPUs$/);
    assert.match(await page.locator(`${widget} .report-settings:not(.report-target-summary)`).innerText(), /PowerSGD \(rank 4\) with error feedback/);
    assert.ok(await page.locator(`${widget} input[type=range]`).nth(2).isDisabled(), "k/n is off for PowerSGD");
    await checkTarget(page, expected.target);
    assert.ok(await page.locator(`${widget} input[type=range]`).nth(8).isDisabled(), "no staleness bound when synchronous");
    assert.deepEqual(problems, []);
  });

  // (That the page's one-P-at-a-time sweep is the core's whole sweep, in both modes and when no P reaches the
  // target, is Node's: tests/exercises/capstone_target.test.mjs, "capstone sweep, …: one P at a time gives the core's
  // whole sweep".)
  test("asynchronously the time to the target is SSP's, its bound enabled; Stop ends the next sweep between two jobs, the last finished sweep kept", async () => {
    const previous = await drawn(page);
    await page.locator(`${widget} select`).nth(5).selectOption("ssp");   // P, compressor, EF, model, rows, mode
    const settings = await drawn(page, previous);
    assert.deepEqual(JSON.parse(settings), ASYNC);
    await checkTarget(page, EXPECTED.async.target);
    assert.ok(!(await page.locator(`${widget} input[type=range]`).nth(8).isDisabled()), "the bound is a control now");
    assert.deepEqual(problems, []);

    const shown = await page.locator(`${widget} .report-target-table`).innerText();
    await page.locator(`${widget} select`).nth(5).selectOption("sync");
    const row = page.locator(`${widget} .sweep-progress`);
    await row.waitFor({ state: "visible", timeout: 120000 });
    assert.equal(await row.locator("progress").getAttribute("max"), "4");
    await row.getByRole("button", { name: "Stop the sweep" }).click();
    await page.waitForFunction((w) => document.querySelector(w).dataset.state === "stopped", widget, { timeout: 120000 });
    assert.match(await page.locator(`${widget} .widget-readout`).innerText(),
      /The time-to-target sweep was stopped after [0-3] jobs? of 4 \([\d.]+ m?s\); the block below is for the last sweep that finished\./);
    assert.ok(await row.isHidden(), "the progress row goes once the sweep ends");
    assert.equal(await page.locator(`${widget} .report-target-table`).innerText(), shown, "the last finished sweep's table");
    assert.equal(await page.locator(widget).getAttribute("data-settings"), settings);
    assert.deepEqual(problems, []);
  });

  test("a job the core refuses says why and greys the last report out; the next, whose target no P reaches, draws the loss at the cap against the target", async () => {
    const range = (i) => page.locator(`${widget} input[type=range]`).nth(i);   // steps, lr, ratio, every, MTBF, p, seed, target
    const move = async (i, value) => { await range(i).fill(value); await range(i).dispatchEvent("input"); };
    await move(4, "0");              // node MTBF 6 h
    await move(3, await range(3).getAttribute("max"));   // one checkpoint, at the end of the 1000 steps
    // 256 GPUs: a fleet MTBF of 84 s against one segment of the whole run (~715 s of work) — retried ~e^8.5 times,
    // each failure costing ~e^{300/84} restarts: ~3e5 expected failures. Refused at once, before a Worker spends minutes on it.
    await page.locator(`${widget} select`).first().selectOption("256");
    await page.waitForFunction((w) => document.querySelector(w).dataset.state === "error", widget, { timeout: 60000 });
    assert.match(await page.locator(`${widget} .widget-readout`).innerText(),
      /^The job could not run: with a checkpoint every 1000 steps \(\d+ s of work\), .* a fleet MTBF of 84\.4 s \(21600 s \/ 256 GPUs\), the run would be expected to fail about [\d.e+]+ times .*practically never finish.*; checkpoint more often — every \d+ steps .* or use fewer GPUs$/);
    assert.equal(await page.locator(`${widget} .job-report.is-stale`).count(), 1);

    await page.locator(`${widget} select`).first().selectOption("16");
    await move(0, "100");   // 100 steps
    await move(7, "0");     // target 0.02
    let settings = JSON.parse(await drawn(page, await page.locator(widget).getAttribute("data-settings")));
    while (settings.steps !== 100 || settings.targetLoss !== 0.02) settings = JSON.parse(await drawn(page, JSON.stringify(settings)));
    assert.equal(settings.workers, 16);
    assert.equal(await page.locator(`${widget} .job-report.is-stale`).count(), 0);
    const block = page.locator(`${widget} .report-target`);
    assert.match(await block.locator(".report-target-summary").innerText(),
      /No P reached the target within the cap: the lowest loss after 100 steps was [\d.]+\. Allow more steps, or set a higher target\.$/);
    assert.equal(await block.locator("svg.report-chart").count(), 1);
    assert.equal(await block.locator("svg polyline").count(), 2, "the loss at the cap and the target's line");
    assert.equal(await block.locator("svg circle").count(), 4, "one point per P");
    assert.deepEqual(await block.locator(".report-target-table td[data-col=wall]").allInnerTexts(), Array(4).fill("not reached"));
    assert.deepEqual(problems, []);
  });
});
