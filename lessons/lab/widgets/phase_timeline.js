// phase_timeline.js — a per-rank timeline of one training step's phases as inline SVG, plus its text
// alternative. web/ui/timeline.js draws compute / send / wait; a training step has more kinds, so this one draws
//   compute (forward, backward)  solid, labelled F / B
//   all-reduce                   diagonal hatch, "AR"
//   all-gather                   dots, "AG"
//   reduce-scatter               horizontal stripes, "RS"
//   send                         vertical stripes, "S"
//   idle (bubble, waiting)       light cross-hatch, no fill colour
// Colours live in style.css ("lab" section) as classes, so a theme switch needs no redraw; the patterns and
// labels keep the kinds apart without colour.
//
//   renderPhases(container, spans, { ranks, rowLabel: (row) => "stage 0", title, fillIdle: true })
// spans: [{ rank, kind, start, end, label? }] in seconds (core.stepCost's spans, or the lab trainer's phases).
// Rows are 0 … ranks − 1; with fillIdle every gap up to the end of the step is drawn as idle.
import { formatSeconds } from "../../web/units.js";
import { niceTicks } from "../../web/ui/timeline.js";

const SVG = "http://www.w3.org/2000/svg";
export const PHASE_KINDS = [
  ["compute", "compute (F forward, B backward)", ""], ["all-reduce", "all-reduce", "AR"], ["all-gather", "all-gather", "AG"],
  ["reduce-scatter", "reduce-scatter", "RS"], ["send", "send", "S"], ["idle", "idle (bubble or waiting)", ""],
];
const KIND_OF = { forward: "compute", backward: "compute", bubble: "idle" };
let counter = 0;

function node(tag, attrs = {}, text) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text != null) n.textContent = text;
  return n;
}

function pattern(id, kind, shapes) {
  const p = node("pattern", { id, width: 6, height: 6, patternUnits: "userSpaceOnUse" });
  p.append(node("rect", { class: `ph-bg ph-${kind}`, width: 6, height: 6 }), ...shapes);
  return p;
}

/** Per-kind totals in seconds of one row (busiest row first if asked). */
export function phaseTotals(spans, row) {
  const out = {};
  for (const s of spans) if (s.rank === row) {
    const k = KIND_OF[s.kind] ?? s.kind;
    out[k] = (out[k] ?? 0) + Math.max(0, s.end - s.start);
  }
  return out;
}

export function renderPhases(container, spans, { ranks, rowLabel = (r) => `rank ${r}`, title, fillIdle = true, note } = {}) {
  const id = `ph-${++counter}`;
  const rows = Math.max(1, ranks ?? 1 + spans.reduce((m, s) => Math.max(m, s.rank), 0));
  const tEnd = Math.max(1e-12, ...spans.map((s) => s.end));
  const all = spans.filter((s) => s.rank < rows).map((s) => ({ ...s, kind: KIND_OF[s.kind] ?? s.kind, detail: s.kind }));
  if (fillIdle) {
    for (let r = 0; r < rows; r++) {
      const mine = all.filter((s) => s.rank === r).sort((a, b) => a.start - b.start);
      let t = 0;
      const gaps = [];
      for (const s of mine) { if (s.start - t > tEnd * 1e-6) gaps.push({ rank: r, kind: "idle", start: t, end: s.start }); t = Math.max(t, s.end); }
      if (tEnd - t > tEnd * 1e-6) gaps.push({ rank: r, kind: "idle", start: t, end: tEnd });
      all.push(...gaps);
    }
  }
  const width = Math.max(280, container.clientWidth || 640);   // narrower boxes scroll sideways
  const rowH = rows <= 8 ? 26 : rows <= 16 ? 18 : 10;
  const left = 70, right = 14, top = (title ? 22 : 0) + 8, plotW = width - left - right;
  // Legend items flow left to right and wrap (about 6.8 px per character at 12 px).
  const short = width < 420;
  const legend = [];
  let lx = 4, lrow = 0;
  for (const [k, name] of PHASE_KINDS) {
    const text = short ? name.replace(/ \(.*\)/, "") : name, w = 21 + text.length * 6.8 + 18;
    if (lx + w > width && lx > 4) { lx = 4; lrow += 1; }
    legend.push({ k, text, x: lx, row: lrow });
    lx += w;
  }
  const legendRows = lrow + 1;
  const height = top + rows * rowH + 36 + legendRows * 18 + 6;
  const x = (t) => left + (t / tEnd) * plotW;
  const svg = node("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", class: "phase-svg",
    "aria-labelledby": `${id}-title`, "aria-describedby": `${id}-summary` });
  svg.append(node("title", { id: `${id}-title` }, title ?? `Timeline of one step on ${rows} rows`));
  const defs = node("defs");
  defs.append(
    pattern(`${id}-all-reduce`, "all-reduce", [node("path", { class: "ph-ink", d: "M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2" })]),
    pattern(`${id}-all-gather`, "all-gather", [node("circle", { class: "ph-dot", cx: 3, cy: 3, r: 1.3 })]),
    pattern(`${id}-reduce-scatter`, "reduce-scatter", [node("path", { class: "ph-ink", d: "M0,3 h6" })]),
    pattern(`${id}-send`, "send", [node("path", { class: "ph-ink", d: "M3,0 v6" })]),
    pattern(`${id}-idle`, "idle", [node("path", { class: "ph-ink-idle", d: "M0,0 l6,6 M6,0 l-6,6" })]));
  svg.append(defs);
  const fill = (k) => (k === "compute" ? {} : { fill: `url(#${id}-${k})` });
  if (title) svg.append(node("text", { class: "ph-title", x: 4, y: 15 }, title));

  for (let r = 0; r < rows; r++) {
    const y = top + r * rowH;
    if (r % 2 === 0) svg.append(node("rect", { class: "ph-row", x: left, y, width: plotW, height: rowH }));
    if (rowH >= 14 || r % 2 === 0) svg.append(node("text", { class: "ph-label", x: left - 6, y: y + rowH / 2 + 4, "text-anchor": "end" }, rowLabel(r)));
  }
  const pad = rowH >= 18 ? 3 : 1;
  for (const s of all) {
    const y = top + s.rank * rowH, x0 = x(s.start), w = Math.max(1, x(s.end) - x0);
    const rect = node("rect", { class: `ph-span ph-${s.kind}`, x: x0, y: y + pad, width: w, height: rowH - 2 * pad, ...fill(s.kind) });
    rect.append(node("title", {}, `${rowLabel(s.rank)} · ${s.label ?? s.detail ?? s.kind} · ${formatSeconds(s.start)} → ${formatSeconds(s.end)}`));
    svg.append(rect);
    const short = s.kind === "compute" ? (s.detail === "backward" || /backward/.test(s.label ?? "") ? "B" : "F")
      : (PHASE_KINDS.find(([k]) => k === s.kind) ?? [])[2];
    if (short && rowH >= 18 && w >= 8 * short.length + 6) {
      svg.append(node("text", { class: `ph-span-label ph-on-${s.kind}`, x: x0 + w / 2, y: y + rowH / 2 + 4, "text-anchor": "middle" }, short));
    }
  }
  const axisY = top + rows * rowH;
  svg.append(node("line", { class: "ph-axis", x1: left, x2: left + plotW, y1: axisY, y2: axisY }));
  for (const t of niceTicks(tEnd, Math.max(3, Math.floor(plotW / 90))).values) {
    const tx = x(t);
    svg.append(node("line", { class: "ph-axis", x1: tx, x2: tx, y1: axisY, y2: axisY + 4 }));
    svg.append(node("text", { class: "ph-tick", x: tx, y: axisY + 16, "text-anchor": t === 0 ? "start" : "middle" }, t === 0 ? "0" : formatSeconds(t)));
  }
  // Legend: a swatch with the kind's fill and its name.
  for (const item of legend) {
    const ly = axisY + 28 + item.row * 18;
    svg.append(node("rect", { class: `ph-span ph-${item.k}`, x: item.x, y: ly, width: 16, height: 11, ...fill(item.k) }));
    svg.append(node("text", { class: "ph-legend", x: item.x + 21, y: ly + 10 }, item.text));
  }

  const scroll = document.createElement("div");
  scroll.className = "timeline-scroll";
  scroll.append(svg);
  const summary = document.createElement("p");
  summary.className = "timeline-summary";
  summary.id = `${id}-summary`;
  const totals = phaseTotals(all, 0);
  summary.textContent = `${note ? `${note} ` : ""}The step takes ${formatSeconds(tEnd)}. ${rowLabel(0)}: ` +
    PHASE_KINDS.filter(([k]) => totals[k] > 0).map(([k, name]) => `${name.replace(/ \(.*\)/, "")} ${formatSeconds(totals[k])}`).join(", ") + ".";
  const details = document.createElement("details");
  details.className = "timeline-data";
  const sum = document.createElement("summary");
  sum.textContent = "Time by kind, row by row";
  const table = document.createElement("table");
  const kinds = PHASE_KINDS.filter(([k]) => all.some((s) => s.kind === k));
  table.innerHTML = `<thead><tr><th scope="col">Row</th>${kinds.map(([, n]) => `<th scope="col" class="num">${n.replace(/ \(.*\)/, "")}</th>`).join("")}</tr></thead>`;
  const body = table.createTBody();
  for (let r = 0; r < rows; r++) {
    const t = phaseTotals(all, r), tr = body.insertRow();
    tr.insertCell().textContent = rowLabel(r);
    for (const [k] of kinds) { const td = tr.insertCell(); td.className = "num"; td.textContent = formatSeconds(t[k] ?? 0); }
  }
  const wrap = document.createElement("div");
  wrap.className = "table-scroll";
  wrap.append(table);
  details.append(sum, wrap);
  container.replaceChildren(scroll, summary, details);
  // Wider than its box (a narrow screen): make the scroll box reachable by keyboard.
  if (scroll.scrollWidth > scroll.clientWidth + 1) {
    scroll.tabIndex = 0;
    scroll.setAttribute("role", "group");
    scroll.setAttribute("aria-label", "Timeline (scrolls sideways)");
  }
  return svg;
}
