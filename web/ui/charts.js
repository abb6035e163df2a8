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
// Vertical marker lines, the legend's scatter dots and the plot's minimum height are plugins (ui/chart_plugins.js).
// A chart with nothing to plot (before the learner's first run) shows a prompt instead of bare axes:
// opts.empty, or "Press “<the widget's first button>” to draw this chart." The box keeps its height.
import { Chart } from "../vendor/chart.js";
import { cssVar } from "./theme.js";
import { formatNumber } from "../units.js";
import { legendLabels, minPlotPlugin, scatterSwatchPlugin, verticalLinesPlugin } from "./chart_plugins.js";

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

function isDecade(v) {
  if (!(v > 0)) return false;
  const e = Math.log10(v);
  return Math.abs(e - Math.round(e)) < 1e-9;
}

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
