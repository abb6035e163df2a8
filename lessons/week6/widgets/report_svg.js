// report_svg.js — the capstone report's small charts as inline SVG: a line chart and a stacked bar. SVG rather than
// Chart.js canvases because the report must print at a known size on one page: a viewBox scales to the paper's
// width, and the strokes and text stay sharp in the PDF. Colours are CSS classes (style in index.html's capstone
// block), so the charts follow the theme on screen and print in ink.
import { formatNumber } from "../../../web/units.js";

const NS = "http://www.w3.org/2000/svg";
const el = (name, attrs = {}, text) => {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
};

// Round ticks for [lo, hi] (linear) or the powers of ten (log).
function ticks(lo, hi, log) {
  if (log) {
    const out = [];
    for (let e = Math.ceil(Math.log10(lo) - 1e-9); e <= Math.floor(Math.log10(hi) + 1e-9); e++) out.push(10 ** e);
    return out.length >= 2 ? out : [lo, hi];
  }
  const step = 10 ** Math.floor(Math.log10((hi - lo) / 4 || 1));
  const unit = [1, 2, 5, 10].map((m) => m * step).find((u) => (hi - lo) / u <= 5) ?? step * 10;
  const out = [];
  for (let v = Math.ceil(lo / unit) * unit; v <= hi + 1e-12; v += unit) out.push(Number(v.toPrecision(12)));
  return out;
}

/** A line chart: series [{ label, points: [[x, y]], dashed? }], axes { xLabel, yLabel, logX?, logY?, yMin?, yMax?,
 *  xTicks? (values), xFormat?, yFormat? }. Returns the <svg> (viewBox 400 × 220). */
// The legend of several series is a row (or rows) under the title, above the plot: never over the curves.
// A chart with nothing drawable (no point, or none finite) keeps its axes — over xTicks, or [0, 1] — and says so.
export function lineChart({ title, series, xLabel, yLabel, logX = false, logY = false, yMin, yMax, xTicks, xFormat = formatNumber,
  yFormat = formatNumber }) {
  const W = 400, H = 220, L = 48, R = 16, B = 38;
  const legend = series.length > 1 ? legendRows(series, W - L - R) : [];
  const T = 22 + legend.length * 13;
  const drawable = ([x, y]) => Number.isFinite(x) && Number.isFinite(y) && (!logX || x > 0) && (!logY || y > 0);
  const xs = [...series.flatMap((s) => s.points.filter(drawable).map((p) => p[0])), ...(xTicks ?? [])];
  const ys = series.flatMap((s) => s.points.filter(drawable).map((p) => p[1]));
  const empty = ys.length === 0;
  const x0 = xs.length ? Math.min(...xs) : 1, x1 = xs.length ? Math.max(...xs) : 10;
  const y0 = yMin ?? (empty ? (logY ? 0.1 : 0) : Math.min(...ys)), y1 = yMax ?? (empty ? 1 : Math.max(...ys));
  const f = (v, log) => (log ? Math.log10(v) : v);
  const px = (x) => L + ((f(x, logX) - f(x0, logX)) / ((f(x1, logX) - f(x0, logX)) || 1)) * (W - L - R);
  const py = (y) => H - B - ((f(y, logY) - f(y0, logY)) / ((f(y1, logY) - f(y0, logY)) || 1)) * (H - T - B);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "report-chart", role: "img", "aria-label": title });
  svg.append(el("text", { x: L, y: 14, class: "rc-title" }, title));
  for (const v of ticks(y0, y1, logY)) {
    if (v < y0 - 1e-12 || v > y1 + 1e-12) continue;
    svg.append(el("line", { x1: L, x2: W - R, y1: py(v), y2: py(v), class: "rc-grid" }));
    svg.append(el("text", { x: L - 4, y: py(v) + 3, class: "rc-tick", "text-anchor": "end" }, yFormat(v)));
  }
  for (const v of xTicks ?? ticks(x0, x1, logX)) {
    svg.append(el("line", { x1: px(v), x2: px(v), y1: H - B, y2: H - B + 4, class: "rc-axis" }));
    // The last tick sits on the plot's right edge: its label ends there rather than running past the chart.
    const anchor = px(v) > W - R - 12 ? "end" : "middle";
    svg.append(el("text", { x: anchor === "end" ? W - 2 : px(v), y: H - B + 14, class: "rc-tick", "text-anchor": anchor }, xFormat(v)));
  }
  svg.append(el("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, class: "rc-axis" }));
  svg.append(el("line", { x1: L, x2: L, y1: T, y2: H - B, class: "rc-axis" }));
  svg.append(el("text", { x: (L + W - R) / 2, y: H - 6, class: "rc-label", "text-anchor": "middle" }, xLabel));
  svg.append(el("text", { x: 10, y: (T + H - B) / 2, class: "rc-label", "text-anchor": "middle",
    transform: `rotate(-90 10 ${(T + H - B) / 2})` }, yLabel));
  series.forEach((s, i) => {
    const pts = s.points.filter(drawable)
      .map(([x, y]) => `${px(x).toFixed(1)},${py(Math.min(Math.max(y, y0), y1)).toFixed(1)}`);
    if (pts.length) svg.append(el("polyline", { points: pts.join(" "), class: `rc-line rc-s${i + 1}${s.dashed ? " rc-dashed" : ""}` }));
    if (s.dots) for (const p of pts) { const [cx, cy] = p.split(","); svg.append(el("circle", { cx, cy, r: 2.6, class: `rc-dot rc-s${i + 1}` })); }
  });
  for (const { i, x, row } of legend.flat()) {
    const s = series[i], ly = 26 + row * 13, lx = L + x;
    svg.append(el("line", { x1: lx, x2: lx + 18, y1: ly, y2: ly, class: `rc-line rc-s${i + 1}${s.dashed ? " rc-dashed" : ""}` }));
    svg.append(el("text", { x: lx + 22, y: ly + 3, class: "rc-tick rc-legend" }, s.label));
  }
  if (empty) svg.append(el("text", { x: (L + W - R) / 2, y: (T + H - B) / 2, class: "rc-label", "text-anchor": "middle" }, "nothing to draw"));
  return svg;
}

// The legend laid out in rows of at most `width` px: [[{ i, x, row }]] (x from the plot's left edge; about 5.5 px a
// character of the tick font, 22 px for the swatch, 14 between entries).
function legendRows(series, width) {
  const rows = [[]];
  let x = 0;
  series.forEach((s, i) => {
    const w = 22 + 5.5 * s.label.length;
    if (x > 0 && x + w > width) { rows.push([]); x = 0; }
    rows.at(-1).push({ i, x, row: rows.length - 1 });
    x += w + 14;
  });
  return rows;
}

/** A horizontal stacked bar of parts [{ label, value }] (their sum is the bar); its legend is the caller's HTML
 *  (classes rc-f1 … rc-f6 in the same order), which wraps on a narrow screen where SVG text would shrink. */
export function stackedBar({ title, parts }) {
  const W = 800, H = 20, total = parts.reduce((a, p) => a + p.value, 0) || 1;
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "report-chart report-bar", role: "img", "aria-label": title,
    preserveAspectRatio: "none" });
  let x = 0;
  parts.forEach((p, i) => {
    const w = (p.value / total) * W;
    svg.append(el("rect", { x, y: 0, width: Math.max(0, w), height: H, class: `rc-fill rc-f${i + 1}` }));
    x += w;
  });
  return svg;
}
