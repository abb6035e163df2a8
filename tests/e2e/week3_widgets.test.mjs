// Week 3's widgets in real Chromium: the data-parallel trainer on 1, 2, 4 and 8 Workers equals one device; the three
// DDPs measured on Workers train the same model with the all-reduces each design promises, and the bucketed run's
// timeline shows communication under backward; the core-only widgets start on the prose's numbers; nothing
// overflows a 360 px screen.
//   node --test --test-concurrency=1 tests/e2e/week3_widgets.test.mjs
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { openLesson, waitVerdict } from "./pages.mjs";
import { calc, readout } from "./widget_probes.mjs";
import { formatNumber } from "../../web/units.js";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });


describe("week 3 widgets", () => {
  let page, problems;
  before(async () => { ({ page, problems } = await openLesson(site.context, site.url, "week3")); });
  after(async () => { await page.close(); });

  test("the DP trainer on P = 1, 2, 4, 8 Workers: every curve is the single-device one", async () => {
    await page.locator("[data-widget=dp-curves] button", { hasText: "Train P = 1, 2, 4, 8" }).click();
    await page.waitForFunction(() => /P = 8: .*steps\/s/.test(document.querySelector("[data-widget=dp-curves] .widget-readout").textContent),
      null, { timeout: 180000 });
    const text = await readout(page, "dp-curves");
    assert.match(text, /P = 1: [\d.]+ steps\/s; P = 2: [\d.]+ steps\/s; P = 4: [\d.]+ steps\/s; P = 8: [\d.]+ steps\/s/);
    assert.match(text, /the same training, up to the order of floating-point sums/);
    assert.match(await page.locator("[data-widget=dp-curves] .chart-summary").innerText(), /P = 1, P = 2, P = 4, P = 8 lie on/);
    assert.deepEqual(problems, []);
  });

  test("three DDPs on 4 Workers: equal to one device, 8 / 1 / 16 all-reduces, bucketed overlaps backward", async () => {
    await page.locator("[data-widget=ddp-workers] button", { hasText: "Measure the three" }).click();
    await page.waitForSelector("[data-widget=ddp-workers] .phase-svg", { timeout: 180000 });
    const rows = await page.locator("[data-widget=ddp-workers] .ddp-results tbody tr").allInnerTexts();
    assert.equal(rows.length, 3);
    // 2L = 8 tensors; one buffer; Ψ = 131 072 values of 8 B in 64 KiB buckets = 16.
    assert.deepEqual(rows.map((r) => r.split("\t")[2]), ["8", "1", "16"]);
    for (const r of rows) assert.match(r, /equal$/);
    // Beside the measurement, why Workers differ from GPUs and the model's prices for GPUs.
    const said = await page.locator("[data-widget=ddp-workers] .widget-readout").first().innerText();
    assert.match(said, /The model prices the worked example on GPUs at flat .* and bucketed with overlap/);
    assert.match(said, /4 Workers share/);
    // On the timeline, worker 0's first all-reduce starts before its last backward kernel ends.
    const overlap = await page.evaluate(() => {
      const svg = document.querySelector("[data-widget=ddp-workers] .phase-svg");
      const spans = [...svg.querySelectorAll("rect.ph-span")].filter((r) => r.querySelector("title"))
        .map((r) => ({ title: r.querySelector("title").textContent, x: Number(r.getAttribute("x")), w: Number(r.getAttribute("width")) }));
      const comm = spans.filter((s) => s.title.startsWith("W0 comm"));
      const backward = spans.filter((s) => s.title.startsWith("W0 comp · backward"));
      return { firstComm: Math.min(...comm.map((s) => s.x)), lastBackward: Math.max(...backward.map((s) => s.x + s.w)), buckets: comm.length };
    });
    assert.equal(overlap.buckets, 16);
    assert.ok(overlap.firstComm < overlap.lastBackward, JSON.stringify(overlap));
    assert.deepEqual(problems, []);
  });

  test("strong and weak scaling measured on 1, 2, 4, 8 Workers: four points each, one Worker's speed-up is 1", async () => {
    await page.locator("[data-widget=scaling-workers] button", { hasText: "Measure on the Workers" }).click();
    await page.waitForFunction(() => /Measured on 8 Workers|could not/.test(document.querySelector("[data-widget=scaling-workers] .widget-readout").textContent),
      null, { timeout: 240000 });
    assert.match(await readout(page, "scaling-workers"), /Measured on 8 Workers: strong scaling [\d.]+× .* weak [\d.]+×/);
    const summary = await page.locator("[data-widget=scaling-workers] .chart-summary").innerText();
    assert.match(summary, /Measured speed-up on 1, 2, 4, 8 Workers: strong 1\.0×, [\d.]+×, [\d.]+×, [\d.]+×; weak 1\.0×, [\d.]+×, [\d.]+×, [\d.]+×\./);
    assert.deepEqual(problems, []);
  });

  test("large batches: trained off the main thread — LARS's trust ratios, the 32-run experiment, the page stays responsive", async () => {
    const fig = page.locator("[data-widget=large-batch]");
    await fig.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => /final loss/.test(document.querySelector("[data-widget=large-batch] .widget-readout").textContent), null, { timeout: 60000 });
    await fig.locator("select").first().selectOption("lars");
    await fig.locator("select").nth(1).selectOption("4");
    await page.waitForFunction(() => /^LARS on P = 4 ranks .* trust ratios range from/.test(document.querySelector("[data-widget=large-batch] .widget-readout").textContent),
      null, { timeout: 120000 });
    await fig.locator("button", { hasText: "Run the linear-scaling experiment" }).click();
    const worstGap = await page.evaluate(async () => {
      let last = performance.now(), worst = 0;
      for (const end = last + 1500; performance.now() < end;) {
        await new Promise((ok) => setTimeout(ok, 10));
        worst = Math.max(worst, performance.now() - last);
        last = performance.now();
      }
      return worst;
    });
    assert.ok(worstGap < 1000, `the main thread answered within ${Math.round(worstGap)} ms while 32 trainings ran`);
    await page.waitForSelector("[data-widget=large-batch] table.data-table", { timeout: 180000 });
    assert.equal(await fig.locator("table.data-table tbody tr").count(), 8, "4 optimizers × warm-up off/on");
    assert.deepEqual(problems, []);
  });

  test("the core-only widgets start on the prose's numbers", async () => {
    assert.match(await readout(page, "exactness"), new RegExp(`gradient is ${await calc(page, "exact-sum")} too large`));
    assert.match(await readout(page, "unequal"), new RegExp(`misses the full-batch gradient by ${await calc(page, "uneq-plain")}`));
    assert.match(await readout(page, "ddp-price"), new RegExp(`naive ${await calc(page, "ex-naive")}, flat ${await calc(page, "ex-flat")}, ` +
      `bucketed 26\\.2 MB overlapped ${await calc(page, "ex-bucketed")} a step`));
  });

  test("partial overlap: the achieved o is the prose's on both links, o is capped at C/M, and its exercise is judged", async () => {
    const W = "[data-widget=partial-overlap]";
    await page.locator(W).scrollIntoViewIfNeeded();
    const first = await readout(page, "partial-overlap");
    assert.match(first, new RegExp(`achieves o = ${await calc(page, "po-o")}, a step of ${await calc(page, "ex-bucketed")}`));
    assert.match(first, new RegExp(`At o = 0\\.5 a step takes ${await calc(page, "po-half")}\\.`));
    assert.match(await page.locator(`${W} .chart-summary`).innerText(), new RegExp(`bucketed DDP sits at o = ${await calc(page, "po-o")}`));
    await page.locator(W).locator("select").selectOption("ib");   // M > C there: o = 0.5 is past the cap
    const ib = await readout(page, "partial-overlap");
    assert.match(ib, new RegExp(`achieves o = ${await calc(page, "po-ib-o")}, a step of ${await calc(page, "po-ib-total")}`));
    // The readout gives the cap to 2 significant digits, the prose to 3.
    assert.match(ib, new RegExp(`o is capped at C/M = ${formatNumber(Number(await calc(page, "po-ib-cap")), 2)}`));
    await page.locator(W).locator("input[type=range]").nth(1).fill("0.2");
    assert.doesNotMatch(await readout(page, "partial-overlap"), /capped/);
    const id = "w3-overlap-fraction";
    await page.evaluate((i) => { const c = window.dsml.exercises.get(i); c.setAnswer(c.exercise.wrongAnswer(c.params, window.dsml.core)); return c.submit(); }, id);
    await waitVerdict(page, id, "fail");
    await page.evaluate((i) => { const c = window.dsml.exercises.get(i); c.setAnswer(c.expected()); return c.submit(); }, id);
    assert.match(await waitVerdict(page, id, "pass"), /Correct/);
    assert.deepEqual(problems, []);
  });

  test("the charts say what they draw: ddp-price's lanes, comm-wall's flat DDP over the all-reduce, large-batch's blow-up mark", async () => {
    const lanes = await page.locator("[data-widget=ddp-price] .timeline-summary").innerText();
    assert.match(lanes, /GPU: compute [\d.]+ ms[.;]/);
    assert.doesNotMatch(lanes, /compute: compute/);
    await page.waitForFunction(() => /final loss/.test(document.querySelector("[data-widget=large-batch] .widget-readout").textContent), null, { timeout: 60000 });
    await page.locator("[data-widget=large-batch] select").first().selectOption("sgd");
    await page.locator("[data-widget=large-batch] select").nth(1).selectOption("8");
    await page.waitForFunction(() => /^SGD on P = 8 ranks/.test(document.querySelector("[data-widget=large-batch] .widget-readout").textContent), null, { timeout: 120000 });
    const charts = await page.evaluate(async () => {
      const url = performance.getEntriesByType("resource").map((e) => e.name).find((n) => /\/vendor\/chart\.js$/.test(n));
      const { Chart } = await import(url);
      const of = (w) => Chart.getChart(document.querySelector(`[data-widget=${w}] canvas`));
      const sets = (c) => c.data.datasets.map((d) => ({ label: d.label, dash: d.borderDash, data: d.data }));
      return { wall: sets(of("comm-wall")), batch: sets(of("large-batch")), marks: of("large-batch").options.plugins.dsmlVerticalLines.lines };
    });
    // The flat DDP's exposed time is the all-reduce (one 50 MB all-reduce after backward): the line on top is dashed.
    const [ring, flat] = charts.wall;
    assert.match(ring.label, /^all-reduce/);
    assert.match(flat.label, /^exposed, flat DDP/);
    assert.deepEqual(ring.dash, [6, 4]);
    assert.deepEqual(flat.dash, []);
    for (const p of flat.data) {
      const r = ring.data.find((q) => q.x === p.x);
      assert.ok(Math.abs(r.y - p.y) <= 1e-12 * r.y, `P = ${p.x}: ${p.y} against ${r.y}`);
    }
    // Each diverging curve ends where it leaves the plot (loss above 1000, drawn at 1000, or not finite), and its
    // mark stands there; the readout keeps the core's divergence step and names the step the mark is at.
    const text = await readout(page, "large-batch");
    const diverging = charts.batch.filter((d) => /diverged at step/.test(d.label));
    assert.ok(diverging.length >= 1, JSON.stringify(charts.batch.map((d) => d.label)));
    assert.equal(charts.marks.length, diverging.length);
    for (const d of diverging) {
      const [, lr, step] = d.label.match(/^lr ([\d.]+) \(diverged at step (\d+)\)$/);
      const end = d.data.at(-1), mark = charts.marks.find((m) => m.label.startsWith(`lr ${lr}:`));
      assert.equal(end.y, 1000, `lr ${lr}'s curve leaves the plot at its last point`);
      assert.ok(d.data.slice(0, -1).every((p) => p.y < 1000), `lr ${lr}: no point runs along the cap`);
      assert.equal(mark.x, end.x, `lr ${lr}: the mark stands where the curve leaves the plot`);
      assert.match(text, new RegExp(`lr ${lr} diverged at step ${step}`));
      const at = end.x / d.data[0].x - 1;   // points are at (step + 1) · batch
      assert.ok(at <= Number(step));
      if (at < Number(step)) {
        assert.equal(mark.label, `lr ${lr}: loss > 1000`);
        assert.match(text, new RegExp(`The loss of lr ${lr} leaves the plot \\(above 1000\\) at step ${at}, where its mark is\\.`));
      }
    }
  });

  test("360 px: nothing scrolls sideways, in light and dark", async () => {
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 360, height: 800 });
      await page.waitForTimeout(300);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth), false, scheme);
    }
  });
});
