// Charts on a 360 px screen, in real Chromium, dark: a legend that wraps onto many rows no longer
// leaves a plot ≈ 90 px high (Week 5 pipeline-compare, Week 3 comm-wall), an axis title is never cut ("share of rounds
// per bi"), a marker's label stays inside the plot (Week 4 stragglers: "rm E[max] = 6.34 s" over the y ticks), a
// timeline's title wraps instead of being cut (Week 3 ddp-price: "…26.2 MB buckets, overla") and its summary totals
// every lane, not only the first; and a dots-only series gets a dot in the legend, not a line.
//   node --test tests/e2e/narrow_charts.test.mjs
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { openLesson } from "./pages.mjs";

let site;
before(async () => { site = await openSite({ colorScheme: "dark", viewport: { width: 360, height: 800 } }); });
after(async () => { await site?.close(); });

// Every chart of `widget` once it has data: its plot height, its titles, and where its marker labels were drawn
// (fillText recorded during one redraw) against the plot area.
// Polls `fn(arg)` in the page until it returns something truthy (page.waitForFunction does not await promises).
async function poll(page, fn, arg, timeoutMs) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await page.evaluate(fn, arg);
    if (value || Date.now() > end) return value;
    await page.waitForTimeout(250);
  }
}

// The plot's height once the widget's chart has data and the plot is at least `min` px high, else 0.
async function plotHeight({ w, min }) {
  const url = performance.getEntriesByType("resource").map((e) => e.name).find((n) => /\/vendor\/chart\.js$/.test(n));
  if (!url) return 0;
  const { Chart } = await import(url);
  const chart = Chart.getChart(document.querySelector(`[data-widget=${w}] canvas`));
  if (!chart?.data.datasets.some((d) => d.data.length)) return 0;
  const h = chart.chartArea.bottom - chart.chartArea.top;
  return h >= min ? h : 0;
}

async function measure(page, widget) {
  assert.ok(await poll(page, plotHeight, { w: widget, min: 1 }, 120000), `${widget} draws its chart`);
  // A grown box re-lays the chart out a moment later: give it a few seconds to reach 150 px.
  await poll(page, plotHeight, { w: widget, min: 150 }, 5000);
  return page.evaluate(async (w) => {
    const url = performance.getEntriesByType("resource").map((e) => e.name).find((n) => /\/vendor\/chart\.js$/.test(n));
    const { Chart } = await import(url);
    const chart = Chart.getChart(document.querySelector(`[data-widget=${w}] canvas`));
    const { ctx } = chart;
    const labels = (chart.options.plugins.dsmlVerticalLines?.lines ?? []).map((l) => l.label);
    const drawn = [];
    const proto = CanvasRenderingContext2D.prototype, fillText = proto.fillText;
    proto.fillText = function (text, x, y) {
      if (text.length > 3 && labels.some((l) => String(l).includes(text))) drawn.push({ text, left: x, right: x + this.measureText(text).width });
      return fillText.call(this, text, x, y);
    };
    chart.update("none");   // laid out at the box's present size, drawn once with fillText recorded
    proto.fillText = fillText;
    const area = chart.chartArea;
    ctx.font = "12px system-ui, sans-serif";
    const yTitle = chart.options.scales.y.title;
    const xTitle = [].concat(chart.options.scales.x.title.text);
    return { box: `${chart.canvas.parentElement.clientHeight} px; legend ${chart.legend.height}, x ${chart.scales.x.height}, top ${area.top}, chart ${chart.height}`, plot: area.bottom - area.top, area: { left: area.left, right: area.right }, width: chart.width, drawn,
      yTitle: yTitle.display ? ctx.measureText(yTitle.text).width : 0,
      xTitle: Math.max(0, ...xTitle.map((t) => ctx.measureText(t).width)) };
  }, widget);
}

function assertReadable(m, where) {
  assert.ok(m.plot >= 150, `${where}: the plot is ${m.plot} px high (box ${m.box})`);
  assert.ok(m.yTitle <= m.plot, `${where}: the y title (${m.yTitle} px) is longer than the plot (${m.plot} px)`);
  assert.ok(m.xTitle <= m.width, `${where}: the x title (${m.xTitle} px) is wider than the chart (${m.width} px)`);
  for (const d of m.drawn) {
    assert.ok(d.left >= m.area.left - 0.5 && d.right <= m.area.right + 0.5,
      `${where}: the label “${d.text}” is drawn at ${d.left}–${d.right}, outside the plot ${m.area.left}–${m.area.right}`);
  }
}

describe("360 px charts", () => {
  test("Week 4 stragglers: the marker labels stay in the plot, the y title fits; param-server's scatter has a dot", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "week4");
    // The markers come with the simulation's answer (queued behind the page's other core tasks): wait for it.
    await page.locator("[data-widget=stragglers]").scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector("[data-widget=stragglers]")?.dataset.runs, null, { timeout: 120000 });
    // The labels are drawn once the chart has its final size: a box still growing under load draws them a moment later.
    let m = await measure(page, "stragglers");
    for (let i = 0; i < 20 && m.drawn.length < 3; i++) { await page.waitForTimeout(500); m = await measure(page, "stragglers"); }
    assert.ok(m.drawn.length >= 3, `marker labels drawn: ${JSON.stringify(m.drawn)} (${m.box})`);
    assertReadable(m, "stragglers");
    // The dots-only "busiest link (simulated)" series: a dot under its legend box, where a 2 px line has no ink.
    await measure(page, "param-server");
    const swatch = await page.evaluate(async () => {
      const url = performance.getEntriesByType("resource").map((e) => e.name).find((n) => /\/vendor\/chart\.js$/.test(n));
      const { Chart } = await import(url);
      const chart = Chart.getChart(document.querySelector("[data-widget=param-server] canvas"));
      const items = chart.legend.legendItems;
      const dots = items.findIndex((it) => chart.data.datasets[it.datasetIndex].showLine === false);
      const line = items.findIndex((it) => chart.data.datasets[it.datasetIndex].showLine !== false);
      const ratio = chart.currentDevicePixelRatio;
      // The ink 2 px below the middle of an item's swatch: a dot (radius 3.5 px) has some, a 2 px line none.
      const below = (i) => {
        const box = chart.legend.legendHitBoxes[i];
        return chart.ctx.getImageData(Math.round((box.left + 14) * ratio), Math.round((box.top + box.height / 2 + 2) * ratio), 1, 1).data[3];
      };
      return { dots, line, dotInk: dots >= 0 ? below(dots) : 0, lineInk: line >= 0 ? below(line) : 255 };
    });
    assert.ok(swatch.dots >= 0 && swatch.line >= 0, `param-server has a dots-only and a line series: ${JSON.stringify(swatch)}`);
    assert.ok(swatch.dotInk > 60 && swatch.lineInk < 30, `a dot for the dots, a line for the line: ${JSON.stringify(swatch)}`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("Week 5 pipeline-compare: the legend leaves a readable plot", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "week5");
    assertReadable(await measure(page, "pipeline-compare"), "pipeline-compare");
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth), false);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("Week 3: comm-wall's legend leaves a readable plot; ddp-price's timeline title wraps whole, and its summary totals the GPU and the link", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "week3");
    assertReadable(await measure(page, "comm-wall"), "comm-wall");
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth), false);
    const fig = page.locator("[data-widget=ddp-price]");
    const { lines, width, title } = await fig.evaluate((f) => {
      const svg = f.querySelector(".phase-svg");
      const texts = [...svg.querySelectorAll(".ph-title")];
      return { lines: texts.map((t) => ({ text: t.textContent, right: t.getBBox().x + t.getBBox().width })),
        width: svg.getBoundingClientRect().width, title: svg.querySelector("title").textContent };
    });
    assert.equal(lines.map((l) => l.text).join(" "), title);
    for (const l of lines) assert.ok(l.right <= width, `“${l.text}” ends at ${l.right} of ${width} px`);
    assert.match(title, /overlapped$/);
    const summary = await fig.locator(".timeline-summary").textContent();
    assert.match(summary, /GPU: compute [\d.]+ ms; link: all-reduce [\d.]+ ms\.$/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
