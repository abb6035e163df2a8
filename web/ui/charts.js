// Line charts that follow the page theme, and their text alternatives.
//
//   const chart = createLineChart(canvas, { xLabel: "message size (bytes)", yLabel: "time (s)", logX: true,
//     logY: true, datasets: [{ label: "T(n) = α + βn", data: [{ x, y }, …] }, { label: "α", data, dashed: true }],
//     verticalLines: [{ x: 1e5, label: "n* = α/β" }] });
//   A dataset with points: true, line: false is a scatter; a { x, y: null } point breaks a line. radius: 6 draws its
//   dots larger — a ring around the dots of an earlier dataset at the same points (earlier datasets draw on top).
//   chart.update({ datasets, verticalLines });   chart.destroy();
//   describeChart(figure, "Time grows linearly above n* = 100 kB.", [["size", "time"], [1e3, 1e-6], …]);
//
// Colours are the CSS variables --chart-1 … --chart-6, --fg, --muted and --grid, re-read on every
// "dsml-theme" event (ui/theme.js), so a theme switch redraws the canvas in the new palette.
// Vertical marker lines come from a small plugin in this file (no chartjs-plugin-annotation).
// A chart with nothing to plot (before the learner's first run) shows a prompt instead of bare axes:
// opts.empty, or "Press “<the widget's first button>” to draw this chart." The box keeps its height.
import { Chart } from "../vendor/chart.js";
import { cssVar } from "./theme.js";
import { formatNumber } from "../units.js";

const reducedMotion = globalThis.matchMedia?.("(prefers-reduced-motion: reduce)");

/** Create a themed line chart on `canvas`. Returns { update, destroy, chart }. */
export function createLineChart(canvas, opts = {}) {
  const box = ensureBox(canvas);
  const prompt = document.createElement("p");
  prompt.className = "chart-empty";
  prompt.textContent = opts.empty ?? defaultPrompt(canvas);
  box.append(prompt);
  const showPrompt = () => box.classList.toggle("is-empty", !state.datasets.some((d) => d.data?.length));
  if (!canvas.hasAttribute("role")) canvas.setAttribute("role", "img");
  if (!canvas.hasAttribute("aria-label")) {
    canvas.setAttribute("aria-label", opts.ariaLabel
      ?? `Line chart of ${opts.yLabel ?? "y"} against ${opts.xLabel ?? "x"}`);
  }
  const state = { datasets: opts.datasets ?? [], verticalLines: opts.verticalLines ?? [] };
  const palette = readPalette();
  const chart = new Chart(canvas, {
    type: "line",
    data: { datasets: buildDatasets(state.datasets, palette) },
    options: {
      responsive: true,
      maintainAspectRatio: false,     // the .chart box has a CSS height, so charts reflow at 360 px
      animation: { duration: reducedMotion?.matches ? 0 : 250 },
      parsing: true,
      interaction: { mode: "nearest", axis: "x", intersect: false },
      scales: {
        x: axis(opts.logX, opts.xLabel, opts.xTicks, palette),
        y: axis(opts.logY, opts.yLabel, opts.yTicks, palette),
      },
      plugins: {
        legend: { labels: { color: palette.fg, boxWidth: 28, boxHeight: 2, font: { size: 12 }, generateLabels: legendLabels } },
        tooltip: { callbacks: { label: (c) => `${c.dataset.label}: ${formatNumber(c.parsed.y)} at ${formatNumber(c.parsed.x)}` } },
        dsmlVerticalLines: { lines: state.verticalLines, color: palette.muted, textColor: palette.fg, background: palette.bg },
      },
    },
    plugins: [verticalLinesPlugin, scatterSwatchPlugin, minPlotPlugin],
  });
  showPrompt();

  const retheme = () => {
    const p = readPalette();
    const o = chart.options;
    for (const s of [o.scales.x, o.scales.y]) {
      s.ticks.color = p.muted; s.grid.color = p.grid; s.border.color = p.muted; s.title.color = p.fg;
    }
    o.plugins.legend.labels.color = p.fg;
    Object.assign(o.plugins.dsmlVerticalLines, { color: p.muted, textColor: p.fg, background: p.bg });
    chart.data.datasets.forEach((d, i) => Object.assign(d, colours(state.datasets[i], i, p)));
    chart.update("none");
  };
  document.addEventListener("dsml-theme", retheme);

  return {
    chart,
    update({ datasets, verticalLines } = {}) {
      if (datasets) {
        // Keep what the learner hid through the legend, matched by label.
        const hidden = new Set(chart.data.datasets.filter((_, i) => !chart.isDatasetVisible(i)).map((d) => d.label));
        state.datasets = datasets;
        chart.data.datasets = buildDatasets(datasets, readPalette());
        chart.data.datasets.forEach((d) => { if (hidden.has(d.label)) d.hidden = true; });
      }
      if (verticalLines) {
        state.verticalLines = verticalLines;
        chart.options.plugins.dsmlVerticalLines.lines = verticalLines;
      }
      showPrompt();
      chart.update();
    },
    destroy() {
      document.removeEventListener("dsml-theme", retheme);
      chart.destroy();
    },
  };
}

/**
 * Keep a text alternative next to the chart in `figure`: a visible one-line summary (p.chart-summary)
 * and, if `rows` is given (first row = header), a <details> with the data as a table. Call again
 * whenever the chart changes; the same elements are updated.
 */
export function describeChart(figure, sentence, rows) {
  let summary = figure.querySelector(":scope > .chart-summary");
  if (!summary) {
    summary = document.createElement("p");
    summary.className = "chart-summary";
    summary.id = uniqueId("chart-summary");
    figure.append(summary);
    const canvas = figure.querySelector("canvas");
    if (canvas) canvas.setAttribute("aria-describedby", summary.id);
  }
  summary.textContent = sentence;

  let details = figure.querySelector(":scope > details.chart-data");
  if (!rows || rows.length === 0) { details?.remove(); return; }
  if (!details) {
    details = document.createElement("details");
    details.className = "chart-data";
    const s = document.createElement("summary");
    s.textContent = "Data table";
    details.append(s);
    figure.append(details);
  }
  details.querySelector("table")?.remove();
  details.append(dataTable(rows));
}

// ── internals ──────────────────────────────────────────────────────────────────────────────────────

// Chart.js sizes the canvas to its parent; give it a parent with a CSS height (.chart / .chart-box).
function ensureBox(canvas) {
  const parent = canvas.parentElement;
  if (parent?.classList.contains("chart") || parent?.classList.contains("chart-box")) return parent;
  const box = document.createElement("div");
  box.className = "chart";
  canvas.replaceWith(box);
  box.append(canvas);
  return box;
}

// What to do to fill an empty chart: press the widget's first button (Measure, Run, Train, …).
function defaultPrompt(canvas) {
  const button = canvas.closest("figure")?.querySelector(".widget-controls button");
  return button ? `Press “${button.textContent.trim()}” to draw this chart.` : "Nothing to plot yet.";
}

function readPalette() {
  const series = [1, 2, 3, 4, 5, 6].map((i) => cssVar(`--chart-${i}`) || "#0b63c5");
  return { series, fg: cssVar("--fg") || "#1b1d21", muted: cssVar("--muted") || "#555c67",
           grid: cssVar("--grid") || "rgba(0,0,0,.1)", bg: cssVar("--surface") || "#fff" };
}

function colours(spec, i, palette) {
  const c = palette.series[(spec?.colorIndex ?? i) % palette.series.length];
  return { borderColor: c, backgroundColor: c, pointBorderColor: c, pointBackgroundColor: c };
}

function buildDatasets(specs, palette) {
  return specs.map((s, i) => ({
    label: s.label,
    data: s.data,
    borderWidth: 2,
    borderDash: s.dashed ? [6, 4] : [],
    pointRadius: s.points ? s.radius ?? 3 : 0,
    pointHoverRadius: s.points ? (s.radius ?? 3) + 2 : 3,
    tension: 0,
    fill: false,
    showLine: s.line !== false,     // line: false draws the points only (a scatter)
    ...colours(s, i, palette),
  }));
}

// A dots-only series (line: false) gets a dot in the legend, a line series its line (dashed if it is): Chart.js's
// own labels draw one 28 × 2 px box for every kind. The scatter's box is left empty and the dot drawn after.
function legendLabels(chart) {
  const items = Chart.defaults.plugins.legend.labels.generateLabels(chart);
  for (const item of items) {
    if (chart.data.datasets[item.datasetIndex]?.showLine === false) {
      item.scatter = true;
      item.fillStyle = "transparent";
      item.strokeStyle = "transparent";
    }
  }
  return items;
}

const scatterSwatchPlugin = {
  id: "dsmlScatterSwatch",
  afterDraw(chart) {
    const legend = chart.legend;
    if (!legend?.options?.display || !legend.legendItems) return;
    const { ctx } = chart;
    legend.legendItems.forEach((item, i) => {
      const box = legend.legendHitBoxes[i];
      if (!item.scatter || !box) return;
      const colour = chart.data.datasets[item.datasetIndex].pointBackgroundColor;
      ctx.save();
      ctx.globalAlpha = item.hidden ? 0.4 : 1;
      ctx.fillStyle = colour;
      ctx.beginPath();
      ctx.arc(box.left + 14, box.top + box.height / 2, 3.5, 0, 2 * Math.PI);
      ctx.fill();
      ctx.restore();
    });
  },
};

// A legend that wraps onto many rows on a narrow screen must not squeeze the plot: the box grows until the plot
// area is MIN_PLOT px high (Chart.js resizes with its box). The legend's rows depend on the width only, so one
// growth settles it; MAX_BOX bounds it whatever happens.
// The plot is also at least as high as the y axis's title is long (a rotated title longer than the plot is cut:
// "share of rounds per bi"), and an x title wider than the chart is broken into lines.
const MIN_PLOT = 150, MAX_BOX = 640;
const minPlotPlugin = {
  id: "dsmlMinPlot",
  beforeLayout(chart) {
    const title = chart.options.scales?.x?.title;
    if (!title?.display) return;
    title.full ??= title.text;
    title.text = wrapText(chart.ctx, title.full, chart.width - 16, 12);
  },
  afterLayout(chart) {
    const box = chart.canvas.parentElement, area = chart.chartArea;
    if (!box || !area) return;
    const yTitle = chart.options.scales?.y?.title;
    chart.ctx.save();
    chart.ctx.font = "12px system-ui, sans-serif";
    const yTitleLength = yTitle?.display ? chart.ctx.measureText(yTitle.text).width + 12 : 0;
    chart.ctx.restore();
    const missing = Math.max(MIN_PLOT, yTitleLength) - (area.bottom - area.top);
    if (missing > 1 && box.clientHeight < MAX_BOX) {
      box.style.height = `${Math.min(MAX_BOX, box.clientHeight + Math.ceil(missing))}px`;
      setTimeout(() => chart.canvas && chart.resize());   // Chart.js's own observer misses a height-only change
    }
  },
};

function axis(log, label, tickFormat, palette) {
  return {
    type: log ? "logarithmic" : "linear",
    title: { display: Boolean(label), text: label ?? "", color: palette.fg, font: { size: 12 } },
    ticks: {
      color: palette.muted, font: { size: 11 }, maxRotation: 0, autoSkipPadding: 12,
      callback(value) {
        if (tickFormat) return tickFormat(value);
        // On log axes label only the decades; the minor ticks stay as unlabelled grid lines.
        if (log) return isDecade(value) ? formatNumber(value) : "";
        return formatNumber(value);
      },
    },
    grid: { color: palette.grid },
    border: { color: palette.muted },
  };
}

// `text` in lines no wider than `width` px at `size` px (one line, a string, when it fits).
function wrapText(ctx, text, width, size) {
  if (typeof text !== "string") return text;
  ctx.save();
  ctx.font = `${size}px system-ui, sans-serif`;
  const fits = (t) => ctx.measureText(t).width <= width;
  const lines = [];
  for (const word of text.split(" ")) {
    const last = lines.length - 1;
    if (last >= 0 && fits(`${lines[last]} ${word}`)) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  ctx.restore();
  return lines.length === 1 ? lines[0] : lines;
}

function isDecade(v) {
  if (!(v > 0)) return false;
  const e = Math.log10(v);
  return Math.abs(e - Math.round(e)) < 1e-9;
}

// Draws a dashed vertical line with a label at each { x, label } (in data units) inside the plot area.
const verticalLinesPlugin = {
  id: "dsmlVerticalLines",
  afterDatasetsDraw(chart, _args, opts) {
    const lines = opts?.lines ?? [];
    const { ctx, chartArea: area, scales: { x } } = chart;
    if (!lines.length || !area || !x) return;
    ctx.save();
    ctx.font = "12px system-ui, sans-serif";
    ctx.textBaseline = "top";
    lines.forEach((line, i) => {
      const px = x.getPixelForValue(line.x);
      if (!Number.isFinite(px) || px < area.left - 0.5 || px > area.right + 0.5) return;
      ctx.strokeStyle = opts.color;
      ctx.lineWidth = 1.5;
      ctx.setLineDash([4, 4]);
      ctx.beginPath();
      ctx.moveTo(px, area.top);
      ctx.lineTo(px, area.bottom);
      ctx.stroke();
      if (line.label) {
        // A label wider than the plot (a 360 px screen) is broken into lines; it never leaves the plot area (it
        // was drawn over the y ticks, cut to "rm E[max] = 6.34 s").
        const lines = [].concat(wrapText(ctx, line.label, area.right - area.left - 8, 12));
        const w = Math.max(...lines.map((l) => ctx.measureText(l).width));
        // Right of the line unless that would leave the plot area; then left of it, and at least at its left edge.
        const tx = px + 4 + w <= area.right ? px + 4 : Math.max(area.left + 4, px - 4 - w);
        const ty = area.top + 4 + (i % 3) * 18;   // stagger labels of nearby lines
        ctx.setLineDash([]);
        ctx.fillStyle = opts.background;
        ctx.globalAlpha = 0.85;
        ctx.fillRect(tx - 2, ty - 2, w + 4, 16 * lines.length);
        ctx.globalAlpha = 1;
        ctx.fillStyle = opts.textColor;
        lines.forEach((l, k) => ctx.fillText(l, tx, ty + 16 * k));
      }
    });
    ctx.restore();
  },
};

function dataTable(rows) {
  const table = document.createElement("table");
  const [head, ...body] = rows;
  const thead = table.createTHead().insertRow();
  for (const h of head) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = String(h);
    thead.append(th);
  }
  const tbody = table.createTBody();
  for (const r of body) {
    const tr = tbody.insertRow();
    for (const v of r) {
      const td = tr.insertCell();
      td.textContent = formatNumber(v);
      if (typeof v === "number") td.className = "num";
    }
  }
  return table;
}

let idCounter = 0;
function uniqueId(prefix) {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}
