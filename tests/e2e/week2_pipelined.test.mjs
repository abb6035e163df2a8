// Week 2's pipelined broadcasts in real Chromium: the broadcast widget runs the chain's schedule —
// verified on buffers, simulated equal to its formula — and names the best k; the exercise "How many segments?"
// accepts the core's best k and rejects the k that forgets the chain's start-up.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { openLesson, waitVerdict } from "./pages.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

const FIG = "[data-widget=broadcast]";

describe("week 2 pipelined broadcast", () => {
  test("the widget's chain is verified, simulated as its formula, and its best k follows p", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "week2");
    const readout = () => page.locator(`${FIG} .widget-readout`).innerText();
    let text = await readout();
    // p = 8, k = 100, 100 MB: 106 steps of 45 µs, and k* = √4800 → 69.
    assert.match(text, /chain of 100 segments 4\.77 ms \(simulated 4\.77 ms, 700 messages, every rank holds the root's data\)/, text);
    assert.match(text, /Best K for the chain: 69 \(4\.72 ms\)/, text);
    await page.locator(`${FIG} input[type=range] >> nth=0`).fill("64");
    text = await readout();
    assert.match(text, /every rank holds the root's data/, text);
    assert.match(text, /Best K for the chain: 223 \(6\.54 ms\); for the tree 57 \(9\.17 ms\)/, text);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("How many segments? — the core's best k passes, √(nβ/α) fails", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "week2");
    const id = "w2-best-segments";
    const { best, naive } = await page.evaluate((exId) => {
      const p = window.dsml.exercises.get(exId).params;
      const request = { ranks: p.ranks, bytes: p.sizeMB * 1e6, alpha: p.alphaUs * 1e-6, beta: 1 / (p.bwGBs * 1e9) };
      return { best: window.dsml.core.bestSegments("pipelined-chain", request).segments,
        naive: Math.round(Math.sqrt((request.bytes * request.beta) / request.alpha)) };
    }, id);
    for (const [answer, verdict] of [[naive, "fail"], [best, "pass"]]) {
      await page.evaluate(([exId, x]) => { const c = window.dsml.exercises.get(exId); c.setAnswer(x); return c.submit(); }, [id, answer]);
      await waitVerdict(page, id, verdict);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });
});
