// phase_timeline.js — a per-rank timeline of one training step's phases as inline SVG, plus its text
// alternative. web/ui/timeline.js draws compute / send / wait; a training step has more kinds, so this one draws
//   compute                      solid, one shade and letter per kind of work (COMPUTE_OPS):
//                                F forward, B backward (only the input gradient when a W does the weight gradient),
//                                W weight gradient (ZB-H1's split-off half, Qi et al. 2024), R recomputation, L loss,
//                                O optimizer; a span that carries `chunk` (interleaved 1F1B) gets it as a subscript
//   all-reduce                   diagonal hatch, "AR"
//   all-gather                   dots, "AG"
//   reduce-scatter               horizontal stripes, "RS"
//   send                         vertical stripes, "S"
//   all-to-all                   a grid, "A2A" (expert parallelism's dispatch and combine; listed only when present)
//   idle (bubble, waiting)       light cross-hatch, no fill colour
// Colours live in style.css ("lab" section) as classes, so a theme switch needs no redraw; the patterns, shades and
// letters keep the kinds apart without colour.
//
//   renderPhases(container, spans, { ranks, rowLabel: (row) => "stage 0", title, fillIdle: true })
// spans: [{ rank, kind, start, end, label?, chunk? }] in seconds (core.stepCost's spans, or the lab trainer's phases).
// Rows are 0 … ranks − 1; with fillIdle every gap up to the end of the step is drawn as idle.
import { formatSeconds } from "../units.js";
import { niceTicks, showScroller } from "./timeline.js";

const SVG = "http://www.w3.org/2000/svg";
export const PHASE_KINDS = [
  ["compute", "compute", ""], ["all-reduce", "all-reduce", "AR"], ["all-gather", "all-gather", "AG"],
  ["reduce-scatter", "reduce-scatter", "RS"], ["send", "send", "S"], ["all-to-all", "all-to-all", "A2A"],
  ["idle", "idle (bubble or waiting)", ""],
];
// Kinds of communication a dense step never has, so the legend names them only when a span of theirs is drawn.
const ONLY_WHEN_PRESENT = new Set(["all-to-all"]);
// Kinds of compute: letter, legend name, shade (fill-opacity of the compute colour, a step of about 0.13 between any
// two, so neighbouring kinds differ in both themes). "" is work of no named kind (the trainer's bookkeeping between
// kernels).
export const COMPUTE_OPS = [
  ["F", "forward", 1], ["B", "backward (input gradient)", 0.74], ["W", "weight gradient", 0.48],
  ["R", "recompute", 0.62], ["L", "loss", 0.88], ["O", "optimizer", 0.36], ["", "other compute", 0.24],
];
const KIND_OF = { forward: "compute", backward: "compute", bubble: "idle" };

/** The kind of work a compute span did, from its kind and label: the lab trainer's kernels ("x·W_inᵀ, act",
 *  "B: dH, dX", "W: dW_out, dW_in", "act (recompute)", "loss", "optimizer") and core.stepCost's ("block 2 forward",
 *  kind "backward", …). Returns a COMPUTE_OPS letter, "" for other compute, null for communication or idle. */
export function computeOp(span) {
  const kind = KIND_OF[span.kind] ?? span.kind;
  if (kind !== "compute") return null;
  const text = `${span.kind === "compute" ? "" : span.kind} ${span.label ?? ""}`.trim();
  if (/^W:|weight grad/i.test(text)) return "W";
  if (/recomput/i.test(text)) return "R";
  if (/\bloss\b/i.test(text)) return "L";
  if (/optimi[sz]/i.test(text)) return "O";
  if (/^B:|backward|\bd[A-Z]/.test(text)) return "B";   // dW_out, dA, dX: gradients
  if (/forward|W_in|W_out/.test(text)) return "F";
  return "";
}
const opEntry = (op) => COMPUTE_OPS.find(([k]) => k === op);
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

/** The runs of one kind of work on each row, for lettering: compute spans of one op (and chunk) that touch, with any
 *  unnamed compute between them; every other kind of span is its own run. Touching = a gap under 0.1% of the step. */
function letterRuns(spans, tEnd) {
  const runs = [];
  const rows = new Map();
  for (const s of spans) (rows.get(s.rank) ?? rows.set(s.rank, []).get(s.rank)).push(s);
  for (const [rank, mine] of rows) {
    let run = null;
    for (const s of [...mine].sort((a, b) => a.start - b.start)) {
      const touches = run && s.start - run.end <= tEnd * 1e-3;
      if (s.kind === "compute" && touches && run.kind === "compute" && (s.op === "" || (s.op === run.op && s.chunk === run.chunk))) {
        run.end = Math.max(run.end, s.end);
        continue;
      }
      const text = s.kind === "compute" ? s.op : (PHASE_KINDS.find(([k]) => k === s.kind) ?? [])[2];
      run = text ? { rank, kind: s.kind, text, chunk: s.kind === "compute" ? s.chunk : undefined, start: s.start, end: s.end } : null;
      if (run) runs.push(run);
    }
  }
  return runs;
}

/**
 * Per-kind busy time in seconds of one row: the length of the union of its spans of that kind, so spans in flight
 * together (a DDP's bucket all-reduces on one link) are counted once, as the time the row was busy with them.
 */
export function phaseTotals(spans, row) {
  const byKind = {};
  for (const s of spans) if (s.rank === row) (byKind[KIND_OF[s.kind] ?? s.kind] ??= []).push(s);
  const out = {};
  for (const [k, list] of Object.entries(byKind)) {
    let total = 0, reach = -Infinity;
    for (const s of list.sort((a, b) => a.start - b.start)) {
      const from = Math.max(s.start, reach);
      if (s.end > from) total += s.end - from;
      reach = Math.max(reach, s.end);
    }
    out[k] = total;
  }
  return out;
}

// The title in lines that fit `width` (about 7 px a character at its 12 px): a narrow screen wraps, never cuts.
function titleLines(title, width) {
  const max = Math.max(12, Math.floor((width - 8) / 7));
  const lines = [];
  for (const word of title.split(" ")) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= max) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

export function renderPhases(container, spans, { ranks, rowLabel = (r) => `rank ${r}`, title, fillIdle = true, note } = {}) {
  const id = `ph-${++counter}`;
  const rows = Math.max(1, ranks ?? 1 + spans.reduce((m, s) => Math.max(m, s.rank), 0));
  const tEnd = Math.max(1e-12, ...spans.map((s) => s.end));
  const all = spans.filter((s) => s.rank < rows).map((s) => ({ ...s, kind: KIND_OF[s.kind] ?? s.kind, detail: s.kind,
    op: computeOp(s) }));
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
  const heading = title ? titleLines(title, width) : [];
  const left = 70, right = 14, top = heading.length * 18 + (title ? 4 : 0) + 8, plotW = width - left - right;
  // Legend items flow left to right and wrap (about 7 px per character at 12 px).
  const short = width < 420;
  const legend = [];
  let lx = 4, lrow = 0;
  // Compute is listed by the kinds of work present (F, B, W, …), then every kind of communication and idle.
  const ops = COMPUTE_OPS.filter(([op]) => all.some((sp) => sp.op === op));
  // B is only the input gradient when a W does the weight gradients (ZB-H1); otherwise it is the whole backward.
  const hasW = ops.some(([op]) => op === "W");
  const named = (op, name) => (op === "B" && !hasW ? "B backward" : op ? `${op} ${name}` : name);
  const items = [...ops.map(([op, name]) => ({ k: "compute", op, name: named(op, name) })),
    ...PHASE_KINDS.filter(([k]) => k !== "compute" && (!ONLY_WHEN_PRESENT.has(k) || all.some((sp) => sp.kind === k)))
      .map(([k, name]) => ({ k, name }))];
  for (const { k, op, name } of items) {
    const text = short ? name.replace(/ \(.*\)/, "") : name, w = 21 + text.length * 7 + 18;
    if (lx + w > width && lx > 4) { lx = 4; lrow += 1; }
    legend.push({ k, op, text, x: lx, row: lrow });
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
    pattern(`${id}-all-to-all`, "all-to-all", [node("path", { class: "ph-ink", d: "M3,0 v6 M0,3 h6" })]),
    pattern(`${id}-idle`, "idle", [node("path", { class: "ph-ink-idle", d: "M0,0 l6,6 M6,0 l-6,6" })]));
  svg.append(defs);
  const fill = (k, op) => (k === "compute" ? { "fill-opacity": opEntry(op ?? "F")[2] } : { fill: `url(#${id}-${k})` });
  heading.forEach((line, i) => svg.append(node("text", { class: "ph-title", x: 4, y: 15 + 18 * i }, line)));

  for (let r = 0; r < rows; r++) {
    const y = top + r * rowH;
    if (r % 2 === 0) svg.append(node("rect", { class: "ph-row", x: left, y, width: plotW, height: rowH }));
    if (rowH >= 14 || r % 2 === 0) svg.append(node("text", { class: "ph-label", x: left - 6, y: y + rowH / 2 + 4, "text-anchor": "end" }, rowLabel(r)));
  }
  const pad = rowH >= 18 ? 3 : 1;
  for (const s of all) {
    const y = top + s.rank * rowH, x0 = x(s.start), w = Math.max(1, x(s.end) - x0);
    const rect = node("rect", { class: `ph-span ph-${s.kind}${s.op ? ` ph-op-${s.op}` : ""}`, x: x0, y: y + pad, width: w,
      height: rowH - 2 * pad, ...fill(s.kind, s.op) });
    const chunk = s.op && s.chunk != null ? `, chunk ${s.chunk}` : "";
    rect.append(node("title", {}, `${rowLabel(s.rank)} · ${s.label ?? s.detail ?? s.kind}${chunk} · ${formatSeconds(s.start)} → ${formatSeconds(s.end)}`));
    svg.append(rect);
  }
  // Letters go on runs, not single spans: one pipeline operation is several kernels with bookkeeping between them
  // (a micro-batch's F is x·W_inᵀ then A·W_outᵀ for each block), so back-to-back spans of one kind of work — and
  // the unnamed compute between them — are lettered once, when the run is wide enough for its letter.
  // Spans of one row may overlap (a DDP's bucket all-reduces in flight together): a letter that would touch the
  // previous one on its row is left out.
  const lettered = new Map();   // rank → right edge of its last letter
  for (const run of letterRuns(all, tEnd)) {
    const x0 = x(run.start), w = x(run.end) - x0, sub = run.chunk != null ? String(run.chunk) : "";
    const textW = 7 * (run.text.length + 0.7 * sub.length);   // 11 px bold: ~7 px a letter
    if (rowH < 18 || w < textW + 3) continue;
    if (x0 + (w - textW) / 2 < (lettered.get(run.rank) ?? -Infinity) + 3) continue;
    lettered.set(run.rank, x0 + (w + textW) / 2);
    const label = node("text", { class: `ph-span-label ph-on-${run.kind}`, x: x0 + w / 2, y: top + run.rank * rowH + rowH / 2 + 4,
      "text-anchor": "middle" }, run.text);
    if (sub) label.append(node("tspan", { class: "ph-chunk", "baseline-shift": "sub", "font-size": "8px" }, sub));
    svg.append(label);
  }
  const axisY = top + rows * rowH;
  svg.append(node("line", { class: "ph-axis", x1: left, x2: left + plotW, y1: axisY, y2: axisY }));
  for (const t of niceTicks(tEnd, Math.max(3, Math.floor(plotW / 90))).values) {
    const tx = x(t);
    svg.append(node("line", { class: "ph-axis", x1: tx, x2: tx, y1: axisY, y2: axisY + 4 }));
    svg.append(node("text", { class: "ph-tick", x: tx, y: axisY + 16, "text-anchor": t === 0 ? "start" : "middle" }, t === 0 ? "0" : formatSeconds(t)));
  }
  // Legend: a swatch with the kind's fill and its name (ph-swatch, not ph-span: a swatch is not a span of the run).
  for (const item of legend) {
    const ly = axisY + 28 + item.row * 18;
    svg.append(node("rect", { class: `ph-swatch ph-${item.k}${item.op ? ` ph-op-${item.op}` : ""}`, x: item.x, y: ly, width: 16,
      height: 11, ...fill(item.k, item.op) }));
    svg.append(node("text", { class: "ph-legend", x: item.x + 21, y: ly + 10 }, item.text));
  }

  const scroll = document.createElement("div");
  scroll.className = "timeline-scroll";
  scroll.append(svg);
  const summary = document.createElement("p");
  summary.className = "timeline-summary";
  summary.id = `${id}-summary`;
  // Every row's totals (the GPU's compute and the link's all-reduce alike); past four rows the first and the table.
  const rowText = (r) => {
    const totals = phaseTotals(all, r);
    return `${rowLabel(r)}: ` + PHASE_KINDS.filter(([k]) => totals[k] > 0)
      .map(([k, name]) => `${name.replace(/ \(.*\)/, "")} ${formatSeconds(totals[k])}`).join(", ");
  };
  const listed = rows <= 4 ? Array.from({ length: rows }, (_, r) => rowText(r)).join("; ")
    : `${rowText(0)} (every row in the table below)`;
  summary.textContent = `${note ? `${note} ` : ""}The step takes ${formatSeconds(tEnd)}. ${listed}.`;
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
  showScroller(container, scroll, "Timeline (scrolls sideways)", summary, details);
  return svg;
}
