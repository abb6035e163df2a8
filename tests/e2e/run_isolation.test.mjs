// Runs on one page never disturb each other, in real Chromium: an exercise spinning on its Workers and a widget
// run (same or another number of ranks) both finish with their own verdicts; the lab trains while an exercise
// runs; the lab locks its controls while it trains, shows progress, can be stopped, and clears the previous
// run's report when the next starts; an exercise's Stop works and its old output is cleared; returned typed
// arrays are shown as arrays, a lab exercise's report as a summary. One visit to Week 1, one to the lab.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { openLesson, waitVerdict } from "./pages.mjs";
import { watchdogBudget } from "../../web/exercise/watchdog_budget.js";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

const SPIN = "async function main(ctx) {\n  while (true) {}\n}\n";
const setAndRun = (page, id, code) =>
  page.evaluate(([i, c]) => { const x = window.dsml.exercises.get(i); x.setCode(c); x.run(); }, [id, code]);
const HELLO = "[data-widget=hello-cluster]";

async function helloRun(page, ranks) {
  await page.locator(HELLO).scrollIntoViewIfNeeded();   // (built when it comes near the viewport)
  const slider = page.locator(HELLO).getByRole("slider");
  await slider.fill(String(ranks));
  await page.locator(HELLO).getByRole("button", { name: "Run on Workers" }).click();
  await page.waitForFunction((sel) => /Workers exchanged|failed/.test(document.querySelector(`${sel} .widget-readout`).textContent), HELLO);
  // (the readout says "Running on Workers…" from the click until the run ends)
  return page.locator(`${HELLO} .widget-readout`).first().innerText();
}

describe("run isolation", () => {
  let page, problems;
  // (Week 1's widgets are left to build on demand: only hello-cluster is needed, built when scrolled to.)
  before(async () => { ({ page, problems } = await openLesson(site.context, site.url, "week1", { onDemand: true })); });
  after(async () => { await page?.close(); });

  test("a returned typed array is shown as an array in the rank's pane", async () => {
    await setAndRun(page, "w1-token-ring", "async function main(ctx) {\n  return new Float64Array([1.5, 2, ctx.rank]);\n}\n");
    await page.waitForSelector("#ex-w1-token-ring .rank-log");
    assert.match(await page.locator("#ex-w1-token-ring .rank-log pre").first().innerText(), /→ returned Float64Array\(3\) \[ 1\.5, 2, 0 \]/);
  });

  test("an exercise's Stop ends its run; the next run starts with a clean output", async () => {
    await page.evaluate(() => { const x = window.dsml.exercises.get("w1-token-ring"); x.setCode(x.exercise.solution); });
    await page.evaluate(() => window.dsml.exercises.get("w1-token-ring").run());
    await page.waitForSelector("#ex-w1-token-ring .timeline svg");
    await setAndRun(page, "w1-token-ring", SPIN);
    assert.equal(await page.locator("#ex-w1-token-ring .timeline svg").count(), 0, "the old timeline is gone");
    const stop = page.locator("#ex-w1-token-ring").getByRole("button", { name: "Stop" });
    await stop.click();
    assert.match(await waitVerdict(page, "w1-token-ring", "fail", 4000), /Stopped before it finished/);
    await stop.waitFor({ state: "hidden" });
  });

  test("an exercise spinning on its Workers and the hello-cluster widget (other and same p) both finish; the code stays", async () => {
    await setAndRun(page, "w1-token-ring", SPIN);
    await page.waitForSelector("#ex-w1-token-ring .run-status:has-text('watchdog')");
    const ranks = await page.evaluate(() => window.dsml.exercises.get("w1-token-ring").params?.ranks);
    assert.match(await helloRun(page, 3), /3 Workers exchanged 3 messages/);
    assert.match(await helloRun(page, 4), /4 Workers exchanged 4 messages/);
    const verdict = await waitVerdict(page, "w1-token-ring", "fail", 15000);
    // the budget is the exercise's own (watchdog_budget.js: a multiple of its reference's run time, with a floor)
    const budget = watchdogBudget({ id: "w1-token-ring" });
    assert.match(verdict, new RegExp(`Stopped by the watchdog after ${budget} ms: ranks .* still running \\(ranks .* at line \\d+\\)`),
      `exercise verdict (ranks ${ranks})`);
    assert.doesNotMatch(verdict, /terminated|another run/);
    assert.match(await page.locator("#ex-w1-token-ring .run-status").innerText(), /^Finished \(timeout\)/);
    assert.equal(await page.evaluate(() => window.dsml.exercises.get("w1-token-ring").code), SPIN, "the editor keeps the code");
    assert.deepEqual(problems, []);
  });
});

describe("the lab while other runs go on", () => {
  const FIG = "[data-widget=train]";
  const readout = (page) => page.locator(`${FIG} .widget-readout`).first().innerText();
  const configure = async (page, values) => {
    for (const [label, value] of Object.entries(values)) await page.locator(FIG).getByLabel(label, { exact: true }).selectOption(value);
  };

  // One exercise run stands for the exercise while the lab trains (its Check, every judged run, is Node's:
  // tests/exercises/judging.test.mjs); that run's panes are what the learner reads.
  test("Train locks the controls, shows progress, survives an exercise run whose panes summarise the trainer's report, can be stopped, and clears stale panels", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "lab");
    await configure(page, { "Blocks L": "2", "Width D": "16", "Hidden F": "64", "Batch B": "16", dp: "2", tp: "1", pp: "1",
      "Micro-batches m": "1", Steps: "20" });
    const trainButton = page.locator(FIG).getByRole("button", { name: "Train" });
    await trainButton.click();
    await page.waitForFunction((sel) => /steps\/s/.test(document.querySelector(`${sel} .widget-readout`).textContent), FIG, { timeout: 60000 });
    assert.equal(await page.locator(`${FIG} .train-timeline svg`).count(), 1);

    // A long run: 100 steps of a larger model.
    await configure(page, { "Blocks L": "8", "Width D": "64", "Hidden F": "256", "Batch B": "64", dp: "2", tp: "2", pp: "2",
      "Micro-batches m": "8", Steps: "100" });
    await trainButton.click();
    await page.waitForFunction((sel) => /step [1-9]\d* of 100/.test(document.querySelector(`${sel} .widget-readout`).textContent), FIG, { timeout: 60000 });
    assert.equal(await page.locator(`${FIG} .train-timeline svg`).count(), 0, "the previous run's timeline is cleared");
    assert.equal(await page.locator(FIG).getByLabel("dp", { exact: true }).isDisabled(), true, "controls are locked");
    assert.equal(await trainButton.isDisabled(), true);
    assert.ok(Number(await page.locator(`${FIG} progress`).getAttribute("value") ?? await page.locator(`${FIG} progress`).evaluate((p) => p.value)) >= 1);
    assert.match(await readout(page), /about .* left/);

    // An exercise runs meanwhile on Workers of its own.
    await page.evaluate(() => { const x = window.dsml.exercises.get("lab-dp-sync"); x.setCode(x.exercise.solution); x.run(); });
    await page.waitForFunction(() => /Ran to completion/.test(document.querySelector("#ex-lab-dp-sync .verdict")?.textContent), null, { timeout: 90000 });
    const panes = await page.locator("#ex-lab-dp-sync .rank-log pre").allInnerTexts();
    assert.ok(panes.length >= 2);
    for (const text of panes) {
      assert.match(text, /^→ d\d t\d p\d: holds \d+ tensors? \(\d+ values, [\d.]+ k?B\), peak activations [\d.]+ k?B$/);
      assert.doesNotMatch(text, /@loss|"shards"|phases/);
    }
    assert.match(await readout(page), /step \d+ of 100/, "the lab is still training");

    await page.locator(FIG).getByRole("button", { name: "Stop" }).click();
    await page.waitForFunction((sel) => /Stopped after \d+ of 100 steps/.test(document.querySelector(`${sel} .widget-readout`).textContent), FIG);
    assert.equal(await page.locator(FIG).getByLabel("dp", { exact: true }).isDisabled(), false, "controls unlocked");
    assert.equal(await trainButton.isDisabled(), false);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
