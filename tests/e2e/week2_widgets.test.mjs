// Week 2's widgets in real Chromium, one visit: the animation's last frame of a ring all-reduce fills every slot, and
// the same schedule run on real Workers with real data checks out value by value; the pipelined broadcast widget runs
// the chain's schedule — verified on buffers, simulated equal to its formula — and names the best k, and its log
// slider steps by whole numbers from the keyboard. (The exercise "How many segments?" is judged for every draw in
// Node: tests/exercises/exercise_rules.test.mjs, "w2-best-segments: parameters vary; the answer equals its oracle and
// passes; wrongAnswer fails for every draw".) (Every algorithm's replay and its run with real data on the judge
// cluster are Node's: tests/exercises/week2_schedules.test.mjs.)
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
  let page, problems;
  before(async () => { ({ page, problems } = await openLesson(site.context, site.url, "week2")); });
  after(async () => { await page?.close(); });

  test("a ring all-reduce: the last animation frame fulfils the collective, and the Workers agree", async () => {
    const ranks = 5;
    await choose(page, "all-reduce", "ring", ranks);
    const last = await page.locator(`${FIG} input[type=range] >> nth=1`).getAttribute("max");
    await page.locator(`${FIG} input[type=range] >> nth=1`).fill(last);
    const cells = await page.locator(`${FIG} .slot-table tbody td`).allInnerTexts();
    assert.equal(cells.length, ranks * ranks, "p ranks × p slots drawn");
    assert.ok(cells.every((c) => c === `0–${ranks - 1}`), `every slot holds 0–${ranks - 1}, got ${cells.join(" ")}`);
    assert.equal(await page.locator(`${FIG} .slot-table td.double`).count(), 0, "no double count");
    await page.click(`${FIG} button:has-text("Run on Workers")`);
    await page.waitForFunction((f) => /On \d+ Workers|failed/.test(document.querySelector(`${f} [aria-live=polite]:not(.widget-readout)`)?.textContent ?? ""), FIG);
    const verdict = await page.locator(`${FIG} [aria-live=polite]:not(.widget-readout)`).innerText();
    assert.match(verdict, /^On 5 Workers: .*every rank holds what the collective promises/);
    assert.deepEqual(problems, []);
  });

  test("the broadcast widget's chain is verified, simulated as its formula, and its best k follows p", async () => {
    const text = () => page.locator("[data-widget=broadcast] .widget-readout").innerText();
    // p = 8, k = 100, 100 MB: 106 steps of 45 µs, and k* = √4800 → 69.
    assert.match(await text(), /chain of 100 segments 4\.77 ms \(simulated 4\.77 ms, 700 messages, every rank holds the root's data\)/);
    assert.match(await text(), /Best K for the chain: 69 \(4\.72 ms\)/);
    await page.locator("[data-widget=broadcast] input[type=range] >> nth=0").fill("64");
    assert.match(await text(), /every rank holds the root's data/);
    assert.match(await text(), /Best K for the chain: 223 \(6\.54 ms\); for the tree 57 \(9\.17 ms\)/);
    assert.deepEqual(problems, []);
  });

  // A count on a log slider (pipeline segments k, 1 … 1000): from k = 1 each arrow press is the next whole number.
  test("the broadcast widget's segments slider steps 1, 2, 3 with the arrow keys, and back", async () => {
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
  });
});
