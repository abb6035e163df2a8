// Week 4's parameter server on real Workers in Chromium: two ASP runs of the same settings, each replayed exactly
// from its own record, compared with each other and with the simulator; backup workers drop the slow worker's late
// gradients; the settings are locked while a run is in flight.
//   node --test --test-concurrency=1 tests/e2e/week4_workers.test.mjs
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { openLesson, waitVerdict } from "./pages.mjs";
import { runAndRead } from "./widget_probes.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

const FIG = "[data-widget=ps-workers]";

const runOnce = (page) => runAndRead(page, FIG, "Run on the Workers");

describe("week 4: a parameter server on the Workers", () => {
  let page, problems;
  before(async () => { ({ page, problems } = await openLesson(site.context, site.url, "week4")); });
  after(async () => { await page.close(); });

  test("ASP twice: both runs replay exactly; the page compares their orders and the simulator's staleness", async () => {
    await page.locator(FIG).scrollIntoViewIfNeeded();
    assert.match(await runOnce(page), /Mean staleness: Workers [\d.]+, simulator [\d.]+\. Every Workers run replays exactly/);
    const second = await runOnce(page);
    assert.match(second, /Workers [\d.]+ and [\d.]+, simulator/);
    assert.match(second, /The two runs applied (\d+ of 64 updates from different workers|every update in the same order)/);
    const rows = await page.locator(`${FIG} tbody tr`).allInnerTexts();
    assert.equal(rows.length, 3);
    for (const row of rows.slice(0, 2)) {
      const cells = row.split("\t");
      assert.equal(cells[1], "64", "4 workers × 16 clocks applied");
      assert.equal(cells[6], "exact", "the replay lands on the server's θ");
    }
    assert.match(rows[2], /^simulator\t64\t/);
    assert.match(await page.locator(`${FIG} .chart-summary`).innerText(), /Workers, run 1: .*Workers, run 2: .*simulator/);
    assert.deepEqual(problems, []);
  });

  test("backup workers: the 4× slow worker's 16 gradients are all dropped; the run replays exactly", async () => {
    await page.locator(FIG).getByLabel("Regime").selectOption("backup");
    await runOnce(page);
    const [workers] = await page.locator(`${FIG} tbody tr`).allInnerTexts();
    const cells = workers.split("\t");
    assert.deepEqual([cells[1], cells[2], cells[3], cells[6]], ["48", "0", "16", "exact"]);
    assert.deepEqual(problems, []);
  });

  // One rule for every Workers widget (web/ui/controls.js lockSettings): the settings are locked while
  // a run is in flight, so what is shown always belongs to the settings shown.
  test("while the Workers run the settings are locked; the run shown is of the settings shown", async () => {
    await page.locator(FIG).getByLabel("Regime").selectOption("asp");
    await page.locator(FIG).getByRole("button", { name: "Run on the Workers" }).click();
    const locked = await page.locator(`${FIG} .widget-controls select`).evaluateAll((els) => els.map((e) => e.disabled));
    assert.ok(locked.length >= 4 && locked.every(Boolean), `every setting locked during the run: ${locked}`);
    await page.waitForFunction((sel) => !document.querySelector(`${sel} button`).disabled, FIG, { timeout: 120000 });
    assert.equal(await page.locator(`${FIG} .widget-controls select:disabled`).count(), 0, "unlocked after the run");
    assert.match(await page.locator(`${FIG} table caption`).innerText(), /^ASP \(no waiting\), 4 workers$/);
    assert.deepEqual(problems, []);
  });

  test("at 360 px the results table a run builds scrolls sideways and has a tab stop (scroll_focus.js looks again)", async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    await page.locator(FIG).scrollIntoViewIfNeeded();
    await runOnce(page);
    await page.waitForTimeout(600);   // scroll_focus.js measures in the next idle moment (within 250 ms)
    const table = await page.locator(`${FIG} .table-scroll > table`).evaluate((t) => ({ scrolls: t.scrollWidth > t.clientWidth,
      tabindex: t.getAttribute("tabindex") }));
    assert.deepEqual(table, { scrolls: true, tabindex: "0" });
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(problems, []);
  });
});

// After a BSP run, switching to ASP no longer leaves "Mean staleness: Workers 0, simulator 0"
// beside a table whose simulator row has max τ 12; the regimes widget shows SSP's bound only under SSP.
describe("week 4: text that belongs to the settings shown", () => {
  test("a BSP run, then ASP: the status speaks of ASP's simulator, not of the BSP run; SSP's slider only under SSP", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "week4");
    await page.locator(FIG).scrollIntoViewIfNeeded();
    await page.locator(FIG).getByLabel("Regime").selectOption("bsp");
    assert.match(await runOnce(page), /Mean staleness: Workers 0, simulator 0\./);
    await page.locator(FIG).getByLabel("Regime").selectOption("asp");
    const text = await page.locator(`${FIG} .widget-readout`).innerText();
    assert.doesNotMatch(text, /Mean staleness: Workers/);
    const maxTau = (await page.locator(`${FIG} tbody tr`).last().innerText()).split("\t")[2];
    assert.match(text, new RegExp(`^ASP \\(no waiting\\), 4 workers: the simulator's mean staleness is [\\d.]+ \\(max τ ${maxTau}\\)`));
    assert.doesNotMatch(await page.locator(`${FIG} .chart-summary`).innerText(), /Workers, run/);
    const regimes = page.locator("[data-widget=regimes]");
    const slider = regimes.locator(".control", { hasText: "SSP's bound s" });
    for (const [value, shown] of [["bsp", false], ["ssp", true], ["asp", false]]) {
      await regimes.locator("select").selectOption(value);
      assert.equal(await slider.isVisible(), shown, value);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });
});

// ctx.probe on the Workers: the page's Check of "Stop the data loader" runs every case of a Check (seeded delivery,
// synchronous sends, hidden cases) on real Workers; the reference passes, a loader that probes for the wrong tag fails
// with its mistake named.
describe("week 4: ctx.probe on the Workers (w4-probe-stop)", () => {
  let page, problems;
  before(async () => { ({ page, problems } = await openLesson(site.context, site.url, "week4")); });
  after(async () => { await page.close(); });

  test("the reference loader passes a whole Check on the Workers; probing for tag 0 fails, told why", async () => {
    const id = "w4-probe-stop";
    await page.locator(`#ex-${id}`).scrollIntoViewIfNeeded();
    await page.evaluate((i) => { const c = window.dsml.exercises.get(i); c.setCode(c.exercise.wrong); return c.check(); }, id);
    assert.match(await waitVerdict(page, id, "fail", 60000), /sent all \d+ batches of the epoch.*a probe with no tag looks for tag 0/s);
    await page.evaluate((i) => { const c = window.dsml.exercises.get(i); c.setCode(c.exercise.solution); return c.check(); }, id);
    assert.match(await waitVerdict(page, id, "pass", 60000), /The loader (stopped after \d+ batches|sent the whole epoch of \d+ batches)/);
    assert.ok(await page.locator("#probe h2").isVisible(), "the section that teaches probe");
    assert.deepEqual(problems, []);
  });
});
