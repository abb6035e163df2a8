// Week 5's MoE layer on real Workers in Chromium (widget "experts-workers"): the reference dispatch and combine of
// exercise w5-moe-dispatch on 4 Workers drop what the core's layer drops, every rank sends (R − 1)·(E/R)·C·D·8 bytes
// in each all-to-all by the trace, the loss equals core.expertParallel's; a control changed mid-run discards that
// run; nothing scrolls sideways at 360 px.
//   node --test --test-concurrency=1 tests/e2e/week5_experts.test.mjs
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { openLesson } from "./pages.mjs";
import { runAndRead } from "./widget_probes.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

const FIG = "[data-widget=experts-workers]";
const choose = (page, label, value) =>
  page.locator(`${FIG} .widget-controls label`, { hasText: label }).locator("xpath=..").locator("select").selectOption(value);

const runOnce = (page) => runAndRead(page, FIG, "Run on 4 Workers", { timeout: 60000 });

describe("week 5: the MoE layer on the Workers", () => {
  let page, problems;
  before(async () => { ({ page, problems } = await openLesson(site.context, site.url, "week5")); });
  after(async () => { await page.close(); });

  for (const [router, factor] of [["2", "1.25"], ["1", "1"], ["2", "2"]]) {
    test(`top-${router}, c = ${factor}: the core's drops, the all-to-all's bytes from the trace, the core's loss`, async () => {
      await choose(page, "Router", router);
      await choose(page, "Capacity factor", factor);
      await page.locator(FIG).scrollIntoViewIfNeeded();
      const text = await runOnce(page);
      const moe = { width: 16, hidden: 32, experts: 8, topK: Number(router), capacityFactor: Number(factor) };
      const ep = await page.evaluate((m) => window.dsml.core.expertParallel({ moe: m, ranks: 4, batch: 64, seed: 1 }), moe);
      assert.match(text, new RegExp(`^${ep.dropped} assignments? dropped \\(the core's layer drops ${ep.dropped}\\)\\. Every rank sent`));
      assert.equal(ep.allToAllBytesPerRank, 3 * 2 * ep.capacity * 16 * 8);
      assert.match(text, /equals core\.expertParallel's to \d(\.\d+)?e-1[5-9]|equals core\.expertParallel's to 0;/);
      const experts = await page.locator(`${FIG} table`).first().locator("tbody tr").allInnerTexts();
      assert.equal(experts.length, 8);
      experts.forEach((row, e) => {
        const [, rank, wanted, kept, dropped] = row.split("\t").map(Number);
        assert.equal(rank, Math.floor(e / 2));
        assert.equal(wanted, ep.wanted[e]);
        assert.equal(kept, ep.load[e]);
        assert.equal(dropped, wanted - kept);
      });
      const ranks = await page.locator(`${FIG} table`).nth(1).locator("tbody tr").allInnerTexts();
      assert.equal(ranks.length, 4);
      assert.deepEqual(problems, []);
    });
  }

  // One rule for every Workers widget (web/ui/controls.js lockSettings): settings locked during a run.
  test("while the Workers run the settings are locked", async () => {
    await choose(page, "Router", "2");
    const locked = await page.evaluate((sel) => {   // read in the same task as the click: before any Worker answers
      document.querySelector(`${sel} button`).click();
      return [...document.querySelectorAll(`${sel} .widget-controls select`)].map((s) => s.disabled);
    }, FIG);
    assert.ok(locked.length >= 2 && locked.every(Boolean), `${locked}`);
    await page.waitForFunction((sel) => !document.querySelector(`${sel} button`).disabled, FIG, { timeout: 60000 });
    assert.equal(await page.locator(`${FIG} .widget-controls select:disabled`).count(), 0);
    assert.doesNotMatch(await page.locator(`${FIG} .widget-readout`).innerText(), /changed while/);
    assert.deepEqual(problems, []);
  });

  test("no sideways scroll at 360 px", async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    await runOnce(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.equal(overflow, false);
  });
});
