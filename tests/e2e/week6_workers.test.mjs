// Week 6's live sections on real Workers in Chromium: a Worker killed mid-run is detected by its missing heartbeats,
// the run rolls back to the last committed checkpoint and recovers with a fresh Worker, and ends with exactly the
// parameters of uninterrupted runs; an elastic run that drops 2 of 8 Workers equals the core's trainElastic and one
// device; top-k with error feedback sends exactly the bytes compressionWire predicts.
//   node --test --test-concurrency=1 tests/e2e/week6_workers.test.mjs
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { openLesson } from "./pages.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

const FAIL = "[data-widget=failure-live]";

async function waitIdle(page, fig, timeout = 120000) {
  await page.waitForFunction((sel) => !document.querySelector(`${sel} .widget-controls button`).disabled, fig, { timeout });
}

describe("week 6: failures, elasticity and compression on the Workers", () => {
  let page, problems;
  before(async () => { ({ page, problems } = await openLesson(site.context, site.url, "week6")); });
  after(async () => { await page.close(); });

  test("Kill a Worker: detected by heartbeat, rolled back, recovered; final θ equals uninterrupted runs", async () => {
    const fig = page.locator(FAIL);
    await fig.scrollIntoViewIfNeeded();
    await fig.getByLabel("Rank to kill").selectOption("1");
    await fig.getByRole("button", { name: "Train on the Workers" }).click();
    // Kill once a checkpoint has been committed (the chart's summary counts them).
    await page.waitForFunction((sel) => /[1-9]\d* checkpoints? committed/.test(
      document.querySelector(`${sel} .chart-summary`)?.textContent ?? ""), FAIL, { timeout: 60000 });
    await page.waitForTimeout(150);
    await fig.getByRole("button", { name: "Kill a Worker" }).click();
    await page.waitForFunction((sel) => document.querySelector(sel).dataset.equality, FAIL, { timeout: 120000 });
    const eq = JSON.parse(await fig.evaluate((el) => el.dataset.equality));
    console.log(`failure recovery: ${JSON.stringify(eq)}`);
    assert.equal(eq.restarts, 1);
    assert.equal(eq.fromCheckpoint, 0, "recovered θ equals an uninterrupted run from the same checkpoint, bit for bit");
    assert.equal(eq.fromStart, 0, "and an uninterrupted run from the start");
    assert.ok(eq.oneDevice < 1e-12, `one device: ${eq.oneDevice}`);
    const table = await fig.locator("table").innerText();
    assert.match(table, /kill\t\d+\trank 1's Worker terminated/);
    assert.match(table, /detected\t\d+\tno heartbeat from rank 1 for 1000 ms/);
    assert.match(table, /start\t[1-9]\d*\trestart 1: 4 Workers, a fresh one/);
    const note = await fig.locator(".table-scroll > p").innerText();
    const [, delay] = note.match(/Detection delay ([\d.]+) s/);
    assert.ok(Number(delay) >= 1 && Number(delay) < 3, `detected after ${delay} s`);
    assert.match(note, /lost work \d+ steps?/);
    await waitIdle(page, FAIL);
    assert.deepEqual(problems, []);
  });
});
