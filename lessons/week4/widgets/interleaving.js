// interleaving.js — one interleaving drawn as an SVG for the "consistency" widget: a row per worker with its compute
// spans, a dot where each of its writes (a clock's push) reached the servers, and worker 0's reads marked allowed
// (✓) or forbidden (✗) under the chosen consistency model; a forbidden read gets a dashed arrow to the write it
// would have to wait for. Colours are the page's CSS variables, so the drawing follows the theme without a redraw.
// The table beside it in the widget is its text alternative.
import { formatSeconds } from "../../../web/units.js";

const SVG = "http://www.w3.org/2000/svg";
const node = (name, attrs = {}, text) => {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text != null) el.textContent = text;
  return el;
};

/** Draw `run` (core.simulateParamServer's), `writes[w][j]` (when clock j of w was applied) and `reads` (with
 *  verdicts[key]) into `container`, replacing what was there. */
export function drawInterleaving(container, { run, writes, reads, key, reader = 0 }) {
  const W = writes.length, width = Math.max(320, container.clientWidth || 640);
  const legend = legendLines(Math.min(width, container.clientWidth || width) - 8);   // what shows without scrolling
  const left = 74, right = 16, top = 12 + 14 * legend.length, rowH = 46, height = top + W * rowH + 30;
  const tMax = run.makespan, x = (t) => left + (t / tMax) * (width - left - right);
  const rowY = (w) => top + w * rowH;
  const svg = node("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": `Three workers' compute and writes over ${formatSeconds(tMax)}; worker 0's reads marked allowed or forbidden` });
  legend.forEach((line, i) => svg.append(node("text", { x: 4, y: 14 + 14 * i, style: "fill: var(--fg); font-size: 12px" }, line)));
  for (let w = 0; w < W; w++) {
    svg.append(node("text", { x: left - 8, y: rowY(w) + 27, "text-anchor": "end", style: "fill: var(--fg); font-size: 12px" }, `worker ${w}`));
    svg.append(node("line", { x1: left, x2: width - right, y1: rowY(w) + 23, y2: rowY(w) + 23, style: "stroke: var(--grid)" }));
  }
  for (const sp of run.spans.filter((s) => s.kind === "compute")) {
    svg.append(node("rect", { x: x(sp.start), y: rowY(sp.worker) + 16, width: Math.max(1, x(sp.end) - x(sp.start) - 1), height: 14,
      rx: 2, style: "fill: var(--tl-compute); opacity: 0.35" }));
  }
  writes.forEach((times, w) => times.forEach((t, j) => {
    svg.append(node("circle", { cx: x(t), cy: rowY(w) + 23, r: 4, style: "fill: var(--fg)" }));
    svg.append(node("text", { x: x(t), y: rowY(w) + 44, "text-anchor": "middle", style: "fill: var(--muted); font-size: 10px" }, `c${j}`));
  }));
  for (const r of reads) {
    const v = r.verdicts[key], rx = x(v.at), y = rowY(reader) + 8;
    const colour = v.allowed ? "var(--pass-border)" : "var(--fail-border)";
    if (v.missing) {
      svg.append(node("line", { x1: rx, y1: y + 4, x2: x(v.missing.time), y2: rowY(v.missing.worker) + 18,
        style: `stroke: ${colour}; stroke-width: 1.5; stroke-dasharray: 4 3` }));
    }
    svg.append(node("text", { x: rx, y, "text-anchor": "middle", style: `fill: ${colour}; font-size: 15px; font-weight: 700` },
      v.allowed ? "✓" : "✗"));
  }
  const axisY = top + W * rowH;
  for (let i = 0; i <= 4; i++) {
    const t = (i / 4) * tMax;
    svg.append(node("text", { x: x(t), y: axisY + 14, "text-anchor": "middle", style: "fill: var(--muted); font-size: 11px" }, formatSeconds(t)));
  }
  const scroll = document.createElement("div");
  scroll.className = "timeline-scroll";
  scroll.append(svg);
  container.replaceChildren(scroll);
}

// The key, as many items to a line as fit in `width` px (7 px a character at 12 px: an over-estimate, as the
// timeline's legend makes); on a phone it takes two lines instead of running off the drawing.
const LEGEND = ["● write applied", "✓ / ✗ read allowed / forbidden", "⇢ awaited write"];
function legendLines(width, gap = "   ") {
  const lines = [];
  for (const item of LEGEND) {
    const joined = lines.length ? `${lines.at(-1)}${gap}${item}` : null;
    if (joined && joined.length * 7 <= width) lines[lines.length - 1] = joined;
    else lines.push(item);
  }
  return lines;
}
