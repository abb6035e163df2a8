// Week 2's widgets in real Chromium: every algorithm's schedule, replayed step by step, ends with what its
// collective promises, and the same schedule run on real Workers with real data checks out value by value.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { openLesson } from "./pages.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

const FIG = "[data-widget=animate]";

async function choose(page, collective, algorithm, ranks) {
  await page.selectOption(`${FIG} .widget-controls select >> nth=0`, collective);
  await page.selectOption(`${FIG} .widget-controls select >> nth=1`, algorithm);
  await page.locator(`${FIG} input[type=range] >> nth=0`).fill(String(ranks));
}

describe("week 2 widgets", () => {
  test("every algorithm: the last animation frame fulfils the collective, and the Workers agree", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "week2");
    const algorithms = await page.evaluate(() => window.dsml.core.listAlgorithms());
    for (const { collective, algorithm } of algorithms) {
      const ranks = algorithm === "hierarchical" ? 8 : 5;
      await choose(page, collective, algorithm, ranks);
      const last = await page.locator(`${FIG} input[type=range] >> nth=1`).getAttribute("max");
      await page.locator(`${FIG} input[type=range] >> nth=1`).fill(last);
      const cells = await page.locator(`${FIG} .slot-table tbody td`).allInnerTexts();
      assert.ok(cells.length > 0, `${collective}/${algorithm}: table drawn`);
      if (collective === "all-reduce" || collective === "broadcast") {
        const want = collective === "broadcast" ? "0" : `0–${ranks - 1}`;
        assert.ok(cells.every((c) => c === want), `${collective}/${algorithm}: every slot holds ${want}, got ${cells.join(" ")}`);
      }
      if (collective === "all-gather") {
        assert.ok(cells.every((c) => /^\d+$/.test(c)), `${collective}/${algorithm}: every rank holds every block, got ${cells.join(" ")}`);
      }
      assert.equal(await page.locator(`${FIG} .slot-table td.double`).count(), 0, `${collective}/${algorithm}: no double count`);
      await page.click(`${FIG} button:has-text("Run on Workers")`);
      await page.waitForFunction((f) => /On \d+ Workers|failed/.test(document.querySelector(`${f} [aria-live=polite]:not(.widget-readout)`)?.textContent ?? ""), FIG);
      const verdict = await page.locator(`${FIG} [aria-live=polite]:not(.widget-readout)`).innerText();
      assert.match(verdict, /every rank holds what the collective promises/, `${collective}/${algorithm}: ${verdict}`);
      await page.evaluate((f) => { document.querySelector(`${f} [aria-live=polite]:not(.widget-readout)`).textContent = ""; }, FIG);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });
});

// A count on a log slider (pipeline segments k, 1 … 1000): from k = 1 each arrow press is the next whole number.
test("the broadcast widget's segments slider steps 1, 2, 3 with the arrow keys, and back", async () => {
  const { page, problems } = await openLesson(site.context, site.url, "week2");
  const control = page.locator("[data-widget=broadcast] .control", { hasText: "Pipeline segments k" });
  const input = control.locator("input[type=range]");
  await input.focus();
  await page.keyboard.press("Home");
  const shown = () => control.locator("output").innerText();
  assert.equal(await shown(), "1");
  const seen = [];
  for (let i = 0; i < 3; i++) { await page.keyboard.press("ArrowRight"); seen.push(await shown()); }
  await page.keyboard.press("ArrowLeft");
  seen.push(await shown());
  assert.deepEqual(seen, ["2", "3", "4", "3"]);
  assert.match(await page.locator("[data-widget=broadcast] .widget-readout").innerText(), /chain of 3 segments/);
  assert.deepEqual(problems, []);
  await page.close();
});
