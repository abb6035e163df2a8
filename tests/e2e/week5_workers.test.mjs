// Week 5's pipeline schedules on real Workers in Chromium: GPipe, 1F1B, interleaved 1F1B (v = 2) and ZB-H1 at
// P = 4, m = 8, each op of the last step slowed to 80 ms per stage (the page's longest, the least sensitive to load).
// Every run ends at single-device training's parameters; the bubble measured from the spans (the idle share of the
// step) is within 5 percentage points of the paper's formula — (P − 1)/(m + P − 1) = 27.3% for GPipe and 1F1B,
// 15.8% interleaved, 11.1% ZB-H1 — and the schedules come out in the formula's order; the drawn ops cover what the
// spans say each device computed; a second press while the runs go is ignored; the time per op changed mid-run
// discards the runs. Equality and the spans hold on every run; the bubble in one of three runs (a loaded machine
// delays Workers' timers and messages by more than the tolerance now and then). The measured numbers are printed (wall-clock on a shared machine: not a benchmark).
//   node --test --test-concurrency=1 tests/e2e/week5_workers.test.mjs
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { openLesson } from "./pages.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

const FIG = "[data-widget=pipeline-workers]";
const TOLERANCE = 0.05;   // of the step: timer slack and message latency under load, a few ms per op in a 2.6 s step
const ATTEMPTS = 3;       // a run on a loaded machine can be later than that: the bubble must hold in one of three

async function rowsOf(page) {
  return page.$$eval(`${FIG} tbody tr`, (trs) => trs.map((tr) => ({ schedule: tr.dataset.schedule,
    measured: Number(tr.dataset.measured), over: Number(tr.dataset.over), formula: Number(tr.dataset.formula),
    gap: Number(tr.dataset.gap), busy: JSON.parse(tr.dataset.busy), text: tr.innerText })));
}

describe("week 5: the four pipeline schedules on the Workers", () => {
  let page, problems;
  before(async () => { ({ page, problems } = await openLesson(site.context, site.url, "week5")); });
  after(async () => { await page.close(); });

  test("each schedule equals one device; the measured bubble is the formula's within 5 points", async () => {
    await page.locator(FIG).scrollIntoViewIfNeeded();
    await page.locator(FIG).getByLabel("Time per op").selectOption("80");
    const button = page.locator(FIG).getByRole("button", { name: "Run the four schedules on the Workers" });
    let off = null;
    for (let attempt = 1; attempt <= ATTEMPTS && (attempt === 1 || off); attempt++) {
      await button.click();
      await button.click({ force: true });   // disabled while the runs go: ignored
      await page.waitForFunction((sel) => document.querySelectorAll(`${sel} tbody tr[data-measured]`).length === 4 &&
        !document.querySelector(`${sel} button`).disabled, FIG, { timeout: 180000 });
      const rows = await rowsOf(page);
      assert.deepEqual(rows.map((r) => r.schedule), ["gpipe", "1f1b", "interleaved", "zb-h1"]);
      off = null;
      for (const r of rows) {
        const share = r.formula / (1 + r.formula);
        console.log(`run ${attempt}, ${r.schedule}: measured ${(100 * r.measured).toFixed(1)}% of the step ` +
          `(${(100 * r.over).toFixed(1)}% over the ideal), formula ${(100 * share).toFixed(1)}% ` +
          `(${(100 * r.formula).toFixed(1)}%); parameters ${r.gap.toExponential(1)}; per device ${r.text.split("\t")[2]}`);
        // Exact on every run: training equality. Timed, so retried like the bubble: the drawn ops (the devices' own
        // stamps) cover what the spans say each device computed, within 3% (a loaded CI machine once stretched one
        // device's sends to 4%).
        assert.ok(r.gap < 1e-12, `${r.schedule}: parameters differ from one device by ${r.gap}`);
        assert.match(r.text, /equal/);
        for (const [ops, spans] of r.busy)
          if (!(Math.abs(ops - spans) < 0.03 * spans)) off ??= `${r.schedule}: ops ${ops} s, spans ${spans} s`;
        if (!(Math.abs(r.measured - share) < TOLERANCE)) off ??= `${r.schedule}: measured ${r.measured}, formula ${share}`;
      }
      const by = Object.fromEntries(rows.map((r) => [r.schedule, r.measured]));
      if (!(by["zb-h1"] < by.interleaved && by.interleaved < by["1f1b"])) off ??= `not in the formula's order: ${JSON.stringify(by)}`;
    }
    assert.equal(off, null, `${ATTEMPTS} runs, none within ${TOLERANCE} of every formula with its ops within 3% of its spans: ${off}`);
    assert.equal(await page.locator(`${FIG} svg.pipeline-svg`).count(), 4, "one measured timeline per schedule");
    assert.match(await page.locator(`${FIG} svg.pipeline-svg`).nth(3).getAttribute("aria-label"), /ZB-H1 on 4 Workers, measured: 96 operations on 4 devices/);
    assert.deepEqual(problems, []);
  });

  // One rule for every Workers widget (issue 25 §3, web/ui/controls.js lockSettings): settings locked during a run.
  test("while the Workers run the time per op is locked", async () => {
    await page.locator(FIG).getByRole("button", { name: "Run the four schedules on the Workers" }).click();
    assert.ok(await page.locator(FIG).getByLabel("Time per op").isDisabled());
    await page.waitForFunction((sel) => !document.querySelector(`${sel} button`).disabled, FIG, { timeout: 180000 });
    assert.ok(await page.locator(FIG).getByLabel("Time per op").isEnabled());
    assert.deepEqual(problems, []);
  });
});
