// Week 4's parameter server on real Workers in Chromium, on one visit: two ASP runs of the same settings, each
// replayed exactly from its own record, compared with each other and with the simulator; backup workers drop the
// slow worker's late gradients; the settings are locked while a run is in flight; the status belongs to the settings
// shown. (ctx.probe on the Workers is the cluster contract's, tests/e2e/cluster.test.mjs; w4-probe-stop's Check is
// judged for every draw in Node, tests/exercises/judging.test.mjs.)
//   node --test --test-concurrency=1 tests/e2e/week4_workers.test.mjs
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { openLesson } from "./pages.mjs";
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
  test("while the Workers run the settings are locked; at 360 px the results table scrolls sideways and has a tab stop", async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    await page.locator(FIG).scrollIntoViewIfNeeded();
    await page.locator(FIG).getByLabel("Regime").selectOption("asp");
    await page.locator(FIG).getByRole("button", { name: "Run on the Workers" }).click();
    const locked = await page.locator(`${FIG} .widget-controls select`).evaluateAll((els) => els.map((e) => e.disabled));
    assert.ok(locked.length >= 4 && locked.every(Boolean), `every setting locked during the run: ${locked}`);
    await page.waitForFunction((sel) => !document.querySelector(`${sel} button`).disabled, FIG, { timeout: 120000 });
    assert.equal(await page.locator(`${FIG} .widget-controls select:disabled`).count(), 0, "unlocked after the run");
    assert.match(await page.locator(`${FIG} table caption`).innerText(), /^ASP \(no waiting\), 4 workers$/);
    // scroll_focus.js gives a table that scrolls a tab stop in the next idle moment after the run builds it.
    await page.waitForFunction((sel) => document.querySelector(`${sel} .table-scroll > table`)?.getAttribute("tabindex") === "0", FIG);
    const scrolls = await page.locator(`${FIG} .table-scroll > table`).evaluate((t) => t.scrollWidth > t.clientWidth);
    assert.equal(scrolls, true);
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(problems, []);
  });

  test("a BSP run, then ASP: the status speaks of ASP's simulator, not of the BSP run; SSP's slider only under SSP", async () => {
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
  });
});
