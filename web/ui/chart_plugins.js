// Chart.js plugins of the course's line charts (ui/charts.js registers them on every chart): the legend's dot for a
// scatter, a plot that keeps its height when the legend or the y title wraps, and labelled vertical marker lines
// (no chartjs-plugin-annotation).
import { Chart } from "../vendor/chart.js";

// A dots-only series (line: false) gets a dot in the legend, a line series its line (dashed if it is): Chart.js's
// own labels draw one 28 × 2 px box for every kind. The scatter's box is left empty and the dot drawn after.
export function legendLabels(chart) {
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

export const scatterSwatchPlugin = {
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
export const minPlotPlugin = {
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

// Draws a dashed vertical line with a label at each { x, label } (in data units) inside the plot area. A label goes
// where it covers no curve: right of its line, else left; at the top, else at the bottom (staggered among nearby
// lines); where every place covers one, at the place that covers the fewest points and segments.
export const verticalLinesPlugin = {
  id: "dsmlVerticalLines",
  afterDatasetsDraw(chart, _args, opts) {
    const lines = opts?.lines ?? [];
    const { ctx, chartArea: area, scales: { x } } = chart;
    if (!lines.length || !area || !x) return;
    ctx.save();
    ctx.font = "12px system-ui, sans-serif";
    ctx.textBaseline = "top";
    const taken = [];   // the label boxes drawn so far: a later label avoids them as it avoids the curves
    let over = 0;       // points and segments under the labels, in data-labels-over for the page tests
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
        const rows = [].concat(wrapText(ctx, line.label, area.right - area.left - 8, 12));
        const w = Math.max(...rows.map((l) => ctx.measureText(l).width)), h = 16 * rows.length;
        const right = px + 4, left = Math.max(area.left + 4, px - 4 - w);
        const xs = right + w <= area.right ? [right, left] : [left];
        const stagger = (i % 3) * 18;
        const ys = [area.top + 4 + stagger, Math.max(area.top + 4, area.bottom - 4 - h - stagger)];
        const places = xs.flatMap((tx) => ys.map((ty) => ({ x: tx - 2, y: ty - 2, w: w + 4, h })));
        const cost = (r) => coveredBy(chart, r) + 100 * taken.filter((t) => intersects(t, r)).length;
        const box = places.reduce((best, r) => (cost(r) < cost(best) ? r : best));
        taken.push(box);
        over += coveredBy(chart, box);
        ctx.setLineDash([]);
        ctx.fillStyle = opts.background;
        ctx.globalAlpha = 0.85;
        ctx.fillRect(box.x, box.y, box.w, box.h);
        ctx.globalAlpha = 1;
        ctx.fillStyle = opts.textColor;
        rows.forEach((l, k) => ctx.fillText(l, box.x + 2, box.y + 2 + 16 * k));
      }
    });
    chart.canvas.dataset.labelsOver = String(over);
    ctx.restore();
  },
};

const intersects = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

// How many of the visible datasets' points (with a 4 px margin for the dot) and line segments fall in box r, in
// pixels. A straight segment meets the box when, over the part of it within the box's x range, its y range does.
export function coveredBy(chart, r) {
  let n = 0;
  chart.data.datasets.forEach((d, i) => {
    if (!chart.isDatasetVisible(i)) return;
    const pts = chart.getDatasetMeta(i).data.filter((e) => Number.isFinite(e.x) && Number.isFinite(e.y));
    for (const p of pts) if (intersects({ x: p.x - 4, y: p.y - 4, w: 8, h: 8 }, r)) n += 1;
    if (d.showLine === false) return;
    for (let k = 1; k < pts.length; k++) {
      const [a, b] = pts[k - 1].x <= pts[k].x ? [pts[k - 1], pts[k]] : [pts[k], pts[k - 1]];
      const x0 = Math.max(a.x, r.x), x1 = Math.min(b.x, r.x + r.w);
      if (x0 > x1) continue;
      const yAt = (xx) => (b.x === a.x ? a.y : a.y + ((b.y - a.y) * (xx - a.x)) / (b.x - a.x));
      const lo = Math.min(yAt(x0), yAt(x1)), hi = Math.max(yAt(x0), yAt(x1));
      if (hi >= r.y && lo <= r.y + r.h) n += 1;
    }
  });
  return n;
}
