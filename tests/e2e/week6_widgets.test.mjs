// Week 6's widgets in real Chromium: each starts on the prose's numbers (the same scenarios, *_setup.js, run by the
// core in a Worker or on the page), answers its controls, and nothing overflows a 360 px screen. Each Worker-backed
// widget counts in data-runs the answers it drew (core_tasks.recordRun).
//   node --test --test-concurrency=1 tests/e2e/week6_widgets.test.mjs
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { openLesson } from "./pages.mjs";
import { calc, esc, ran as ranWithin, readout, runs } from "./widget_probes.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

const ran = (page, widget, before = null) => ranWithin(page, widget, before, { timeout: 240000 });
const WORKER_WIDGETS = ["ckpt-overhead", "ckpt-progress", "elastic", "compression-curves", "compression-pareto"];

describe("week 6 widgets", () => {
  let page, problems;
  // The widgets are built as the learner reaches them, each scrolled to: the capstone at the end of the page, whose
  // first report trains its whole time-to-target sweep (week6_capstone.test.mjs), is not built until the 360 px test.
  before(async () => {
    ({ page, problems } = await openLesson(site.context, site.url, "week6", { onDemand: true }));
    for (const w of ["fleet", ...WORKER_WIDGETS, "compression-wire"]) await page.locator(`[data-widget=${w}]`).scrollIntoViewIfNeeded();
  });
  after(async () => { await page.close(); });

  test("the widgets start on the prose's numbers", async () => {
    for (const w of WORKER_WIDGETS) await ran(page, w);
    assert.match(await readout(page, "fleet"), new RegExp(`every ${esc(await calc(page, "fleet-10k"))} on average: about ${await calc(page, "fleet-30d")} interruptions`));
    assert.match(await readout(page, "ckpt-overhead"), new RegExp(`Young's τ\\* = ${esc(await calc(page, "young"))}, Daly's ${esc(await calc(page, "daly"))}.*loses ${esc(await calc(page, "complete-overhead"))}.*first order says ${esc(await calc(page, "young-overhead"))}.*measures ${esc(await calc(page, "sim-overhead"))} ± ${esc(await calc(page, "sim-ci"))}`, "s"));
    assert.match(await readout(page, "ckpt-progress"), new RegExp(`take ${esc(await calc(page, "progress-ckpt"))} .*simulated ${esc(await calc(page, "progress-ckpt-sim"))}.*${esc(await calc(page, "progress-none"))} without checkpoints \\(simulated ${esc(await calc(page, "progress-none-sim"))} ± ${esc(await calc(page, "progress-none-ci"))}\\).*take ${esc(await calc(page, "progress-none-48"))} years`, "s"));
    assert.match(await readout(page, "elastic"), new RegExp(`${esc(await calc(page, "elastic-moved-down"))} of optimizer state moved.*${esc(await calc(page, "elastic-joiners"))} of parameters to the joiners.*at most ${esc(await calc(page, "elastic-diff"))}`, "s"));
    assert.match(await readout(page, "compression-curves"), new RegExp(`ends at ${esc(await calc(page, "c-none"))}.*${esc(await calc(page, "c-topk-bytes"))} a step by all-gather; without error feedback it ends at ${esc(await calc(page, "c-topk"))}, with error feedback it ends at ${esc(await calc(page, "c-topk-ef"))}`, "s"));
    assert.match(await readout(page, "compression-pareto"), new RegExp(`k/n = ${esc(await calc(page, "knee-ratio"))}, ${esc(await calc(page, "knee-bytes"))} a step, loss ${esc(await calc(page, "knee-loss"))}.*QSGD, 4 levels \\+ EF \\(step ${await calc(page, "c-qsgd4-div")}\\).*majority vote \\+ EF \\(step ${await calc(page, "c-sign-div")}\\)`, "s"));
    assert.match(await readout(page, "compression-wire"), new RegExp(`At P = 64 the full gradient's ring all-reduce takes ${esc(await calc(page, "w-none-64"))}.*top-k, 1% ${esc(await calc(page, "w-topk-64"))} \\(all-gather\\); random-k, 1% ${esc(await calc(page, "w-randk-64"))} \\(all-reduce\\).*PowerSGD, rank 2 ${esc(await calc(page, "w-power-64"))} \\(all-reduce\\)`, "s"));
    assert.deepEqual(problems, []);
  });

  test("the controls re-run the core: an elastic world that cannot divide the batch, another compressor, the knee's slack, the network", async () => {
    // The leavers slider names both of its numbers: the step they leave at and how many leave.
    const leavers = () => page.locator("[data-widget=elastic] input[type=range]").evaluate((el) => el.labels[0].textContent);
    assert.equal(await leavers(), "Leaving at step 10: k = 2");
    let drawn = await runs(page, "elastic");
    await page.locator("[data-widget=elastic] select").first().selectOption("8");
    await page.locator("[data-widget=elastic] input[type=range]").fill("3");
    await page.locator("[data-widget=elastic] input[type=range]").dispatchEvent("input");
    await ran(page, "elastic", drawn);
    assert.equal(await leavers(), "Leaving at step 10: k = 3");
    await page.waitForFunction(() => /Refused by the core/.test(document.querySelector("[data-widget=elastic] .widget-readout").textContent));
    assert.match(await readout(page, "elastic"), /not divisible by 5 workers/);
    // A crash instead of a graceful leave (back to 4 workers, 2 crash during step 10, checkpoints every 4 steps): ZeRO-1
    // rolls back to the checkpoint of step 8 and recomputes steps 8–9 (10 mod 4). (The rollback for any checkpoint
    // interval, and replicated DP state redoing only the step in flight, are the core's: tests/core/test_elastic_crash.cpp,
    // ElasticCrash.ZeroOneRollsBackToTheCheckpointAndEqualsTheUninterruptedRun, ElasticCrash.DataParallelSurvivorsCarryOn.)
    const elastic = page.locator("[data-widget=elastic]");
    await elastic.locator("select").first().selectOption("4");
    await elastic.locator("input[type=range]").fill("2");
    await elastic.locator("input[type=range]").dispatchEvent("input");
    // Those two controls started runs: count from the graceful 4 → 2 leave they end on, not from a run still on its way.
    await page.waitForFunction(() => /At step 10, 4 → 2 workers/.test(document.querySelector("[data-widget=elastic] .widget-readout").textContent));
    drawn = await runs(page, "elastic");
    await elastic.locator("select").nth(3).selectOption("crash");   // P, rejoin, state, how, every
    await ran(page, "elastic", drawn);
    assert.match(await readout(page, "elastic"), /During step 10, 2 of 4 workers crash: .*roll back to the checkpoint of step 8, read [\d.]+ kB from it and recompute 2 steps \(steps 8–9\) before redoing step 10/);
    assert.equal(await elastic.getAttribute("data-redone"), "2");
    assert.match(await readout(page, "elastic"), /at most <?[\d.e-]+/);
    drawn = await runs(page, "compression-curves");
    await page.locator("[data-widget=compression-curves] select").selectOption("random-k-1");
    await ran(page, "compression-curves", drawn);
    assert.match(await readout(page, "compression-curves"), new RegExp(`random-k, 1%: ${esc(await calc(page, "c-randk-bytes"))} a step by all-reduce; without error feedback it ends at ${esc(await calc(page, "c-randk"))}, with error feedback it ends at ${esc(await calc(page, "c-randk-ef"))}`));
    await page.locator("[data-widget=compression-pareto] select").selectOption("0.2");
    assert.match(await readout(page, "compression-pareto"), /within 20% of it: k\/n = 0\.4%/);
    const before = await readout(page, "compression-wire");
    await page.locator("[data-widget=compression-wire] select").nth(1).selectOption("seconds");
    assert.match(await readout(page, "compression-wire"), new RegExp(`takes ${esc(await calc(page, "w-none-64-s"))}.*top-k, 1% ${esc(await calc(page, "w-topk-64-s"))}`, "s"));
    assert.notEqual(await readout(page, "compression-wire"), before);
    drawn = await runs(page, "ckpt-overhead");
    await page.locator("[data-widget=ckpt-overhead] input[type=range]").first().fill("0");
    await page.locator("[data-widget=ckpt-overhead] input[type=range]").first().dispatchEvent("input");
    await ran(page, "ckpt-overhead", drawn);
    assert.match(await readout(page, "ckpt-overhead"), /Young's τ\* = 11 min/);   // √(2·10 s·6 h) = 657 s
    assert.deepEqual(problems, []);
  });

  test("nothing overflows a 360 px screen", async () => {
    await page.evaluate(() => window.dsml.mountAll());   // every widget, as printing builds them
    await page.setViewportSize({ width: 360, height: 800 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));   // laid out and drawn
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth), false);
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
