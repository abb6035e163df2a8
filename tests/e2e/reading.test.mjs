// What the learner reads, in real Chromium: widgets start where the prose is, their sentences count and round
// correctly, rank boxes hold their text, empty charts say what to do, the editor's focus ring is the page's, and
// numeric feedback reads in plain units. (On every page: select labels fit, skip links lead to the exercises and a
// "section 4" link is its section's number — lessons.test.mjs, on its visit of each page, with page_checks.mjs.)
//   node --test --test-concurrency=1 tests/e2e/reading.test.mjs
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { openLesson, waitVerdict } from "./pages.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

const readout = (page, widget) => page.locator(`[data-widget=${widget}] .widget-readout`).innerText();
const calc = (page, key) => page.locator(`[data-calc="${key}"]`).first().innerText();
// Moves a range input with the keyboard (Home, End, ArrowRight…), as a learner would.
async function press(page, widget, label, key) {
  const input = page.locator(`[data-widget=${widget}] .control`).filter({ hasText: label }).locator("input[type=range]");
  await input.focus();
  await input.press(key);
}

describe("week 1", () => {
  let page;
  before(async () => { ({ page } = await openLesson(site.context, site.url, "week1")); });
  after(async () => { await page.close(); });

  test("the iron-law widget starts on the prose's worked example", async () => {
    const text = await readout(page, "iron-law");
    assert.match(text, new RegExp(`M = α \\+ β·G = ${await calc(page, "il-comm")}\\.`));
    assert.match(text, new RegExp(`without overlap ${await calc(page, "il-serial")}`));
    assert.match(text, new RegExp(`perfect overlap ${await calc(page, "il-overlap")}`));
    const out = page.locator("[data-widget=iron-law] output");
    assert.deepEqual(await out.allInnerTexts(), ["30 ms", "496 MB", "5 µs", "12.5 GB/s"]);
  });

  test("a log slider reaches both of its ends exactly", async () => {
    await press(page, "scaling-laws", "Processors N", "End");
    assert.equal(await page.locator("[data-widget=scaling-laws] output").nth(1).innerText(), "1024");
    assert.match(await readout(page, "scaling-laws"), /on N = 1024:/);
    await press(page, "scaling-laws", "Processors N", "Home");
    assert.equal(await page.locator("[data-widget=scaling-laws] output").nth(1).innerText(), "1");
  });

  test("counts agree with their nouns", async () => {
    await press(page, "tail-at-scale", "Workers N", "Home");
    await press(page, "tail-at-scale", "P(one worker slow)", "Home");
    const text = await readout(page, "tail-at-scale");
    assert.match(text, /With N = 1 worker, each slow 0\.01% of the time/);
    assert.match(text, /about 0 steps in 100/);
    await press(page, "tail-at-scale", "P(one worker slow)", "End");
    await press(page, "tail-at-scale", "Workers N", "End");
    assert.match(await readout(page, "tail-at-scale"), /N = 10\u202f000 workers/);
  });

  test("with no serial part, Amdahl has no ceiling to flatten towards", async () => {
    await press(page, "scaling-laws", "Serial fraction s", "Home");
    const summary = await page.locator("[data-widget=scaling-laws] .chart-summary").innerText();
    assert.doesNotMatch(summary, /towards unbounded/);
    assert.match(summary, /ideal S = N \(nothing is serial, so there is no ceiling\)/);
  });

  test("an empty chart says what to do instead of showing bare axes", async () => {
    const box = page.locator("[data-widget=ping-pong] .chart-box");
    assert.match(await box.getAttribute("class"), /is-empty/);
    assert.match(await box.locator(".chart-empty").innerText(), /Press “Measure my browser”/);
    assert.equal(await box.locator("canvas").evaluate((c) => getComputedStyle(c).visibility), "hidden");
    // A chart with data shows no prompt.
    assert.doesNotMatch(await page.locator("[data-widget=alpha-beta] .chart-box").getAttribute("class"), /is-empty/);
  });

  test("numeric feedback: plain percentages, a hint for a percentage typed as a fraction, no answer given away, KiB", async () => {
    const amdahl = await page.evaluate(() => window.dsml.exercises.get("w1-amdahl").expected());
    await page.evaluate((v) => { const c = window.dsml.exercises.get("w1-amdahl"); c.setAnswer(String(v)); c.submit(); },
      Number((amdahl * 100).toPrecision(3)));
    const hint = await waitVerdict(page, "w1-amdahl", "fail");
    assert.match(hint, /did you type a percentage\?/);
    await page.evaluate((v) => { const c = window.dsml.exercises.get("w1-amdahl"); c.setAnswer(String(v)); c.submit(); }, amdahl);
    const ok = await waitVerdict(page, "w1-amdahl", "pass");
    assert.match(ok, /^Correct\. 0\.\d+ \(\d+(\.\d+)?%\) matches the core's/);
    assert.doesNotMatch(ok, /\d m\b/);
    const nStar = await page.evaluate(() => window.dsml.exercises.get("w1-crossover").expected());
    // A wrong answer is told its direction and a coarse class, not the answer nor how far off it is.
    await page.evaluate((v) => { const c = window.dsml.exercises.get("w1-crossover"); c.setAnswer(String(v)); c.submit(); },
      Math.round(nStar * 3.7));
    const far = await waitVerdict(page, "w1-crossover", "fail");
    assert.match(far, /^Not yet\. Your answer is too large, by a factor between 2 and 10/);
    assert.doesNotMatch(far, /\d×|3\.7|matches/);
    await page.evaluate((v) => { const c = window.dsml.exercises.get("w1-crossover"); c.setAnswer(`${v / 1024} KiB`); c.submit(); }, nStar);
    assert.match(await waitVerdict(page, "w1-crossover", "pass"), /matches the core's/);
  });

  test("the code editor's focus ring is the page's focus ring", async () => {
    const button = page.locator("[data-widget=hello-cluster] button").first();
    await button.focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");            // keyboard focus, so :focus-visible applies
    const ring = await button.evaluate((b) => { const s = getComputedStyle(b); return [s.outlineStyle, s.outlineWidth, s.outlineColor]; });
    const editor = page.locator("#ex-w1-token-ring .editor");
    await editor.locator(".cm-content").focus();
    const mark = await editor.evaluate((e) => { const s = getComputedStyle(e); return [s.outlineStyle, s.outlineWidth, s.outlineColor]; });
    assert.deepEqual(mark, ring);
    assert.equal(await editor.locator(".cm-editor").evaluate((e) => getComputedStyle(e).outlineStyle), "none");
  });
});

describe("the lab", () => {
  let page;
  before(async () => { ({ page } = await openLesson(site.context, site.url, "lab")); });
  after(async () => { await page.close(); });

  test("rank boxes are wide enough for their text, for every strategy of the grid drawing", async () => {
    const strategies = await page.locator("[data-widget=moves] select").evaluate((sel) => [...sel.options].map((o) => o.value));
    assert.ok(strategies.length >= 8, strategies.join(", "));
    for (const strategy of strategies) {
      await page.locator("[data-widget=moves] select").selectOption(strategy);
      const overflow = await page.locator("[data-widget=moves] svg.moves-svg").evaluate((svg) =>
        [...svg.querySelectorAll("g.mv-rank")].flatMap((g) => {
          const cell = g.querySelector("rect.mv-cell").getBBox();
          return [...g.querySelectorAll("text")].map((t) => t.getBBox())
            .filter((b) => b.x + b.width > cell.x + cell.width - 4).map(() => g.querySelector("title").textContent);
        }));
      assert.deepEqual(overflow, [], strategy);
    }
  });

  test("the empty loss chart of the training panel prompts for Train", async () => {
    assert.match(await page.locator("[data-widget=train] .chart-empty").innerText(), /Press “Train”/);
  });
});
