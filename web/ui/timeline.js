// A per-rank timeline (a Gantt chart of a run) as inline SVG, plus its text alternative.
//
//   renderTimeline(container, spans, { ranks: 4, title: "Ring all-reduce, 4 ranks" });
//
// spans: [{ rank, kind: "compute" | "send" | "wait", start, end, peer, bytes }] — start/end in SECONDS from
// the start of the run (the simulator and the Worker cluster both produce this; see web/README.md).
// One row per rank; compute / send / wait get the classes tl-compute / tl-send / a hatched tl-wait, whose
// colours live in style.css, so switching the theme needs no redraw. Each span has a <title> tooltip.
// The time axis picks "nice" ticks (1, 2, 5 × 10^k) and a unit (ns, µs, ms, s) from the run's length.
// Below the picture: a one-line summary and a <details> table of per-rank compute / send / wait totals.
// Calling renderTimeline again on the same container replaces the drawing; it redraws on resize.

import { formatBytes, formatPercent, formatSeconds, plural, siUnit } from "../units.js";

const SVG = "http://www.w3.org/2000/svg";
const KINDS = ["compute", "send", "wait"];
const LEGEND = { compute: "compute", send: "send", wait: "wait (blocked in recv)" };
const state = new WeakMap();   // container → { spans, opts, width, observer }
let counter = 0;

/** Draw `spans` into `container`. Returns the <svg>. */
export function renderTimeline(container, spans = [], opts = {}) {
  container.classList.add("timeline");
  let s = state.get(container);
  if (!s) {
    s = { observer: null, width: 0 };
    state.set(container, s);
    if (typeof ResizeObserver === "function") {
      // Redraw in the next frame (not inside the observer callback, which would loop on the new height).
      s.observer = new ResizeObserver(() => requestAnimationFrame(() => {
        if (container.isConnected && Math.abs(container.clientWidth - s.width) > 24) draw(container, s);
      }));
      s.observer.observe(container);
    }
  }
  s.spans = Array.isArray(spans) ? spans.filter(isSpan) : [];
  s.opts = opts;
  return draw(container, s);
}

function draw(container, s) {
  const { spans, opts } = s;
  const id = `tl-${++counter}`;
  const maxRank = spans.reduce((m, sp) => Math.max(m, sp.rank), -1);
  const ranks = Math.max(1, opts.ranks ?? 0, maxRank + 1);
  const tEnd = spans.reduce((m, sp) => Math.max(m, sp.end, sp.start), 0);
  const tMax = tEnd > 0 ? tEnd : 1e-6;

  // Geometry (px). Rows shrink as ranks grow; labels thin out when rows get too short for 12 px text.
  s.width = container.clientWidth;
  const width = Math.max(320, s.width || 640);   // below 320 px the box scrolls sideways
  const rowH = ranks <= 8 ? 26 : ranks <= 16 ? 20 : ranks <= 32 ? 14 : Math.max(6, Math.floor(640 / ranks));
  const labelEvery = Math.ceil(14 / rowH);
  const left = 64, right = 18;
  const top = (opts.title ? 22 : 0) + 28;
  const plotW = width - left - right;
  const height = top + ranks * rowH + 40;
  const x = (t) => left + (t / tMax) * plotW;

  const svg = node("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-labelledby": `${id}-title`, "aria-describedby": `${id}-summary` });
  svg.append(node("title", { id: `${id}-title` }, opts.title ?? `Timeline of ${plural(ranks, "rank")}`));
  const defs = node("defs");
  const hatch = node("pattern", { id: `${id}-hatch`, width: 6, height: 6, patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(45)" });
  hatch.append(node("rect", { class: "tl-wait-bg", width: 6, height: 6 }),
               node("line", { class: "tl-wait-hatch", x1: 0, y1: 0, x2: 0, y2: 6 }));
  defs.append(hatch);
  svg.append(defs);
  const fillFor = (kind) => (kind === "wait" ? { fill: `url(#${id}-hatch)` } : {});

  // Title and legend line up with the plot, or with the rank labels when the plot is narrow.
  const headX = width >= 440 ? left : 4;
  if (opts.title) svg.append(node("text", { class: "tl-title", x: headX, y: 15 }, opts.title));

  // Legend across the top.
  let lx = headX;
  const ly = top - 22;
  for (const kind of KINDS) {
    svg.append(node("rect", { class: `tl-span tl-${kind}`, x: lx, y: ly, width: 14, height: 10, ...fillFor(kind) }));
    const label = node("text", { class: "tl-legend-label", x: lx + 19, y: ly + 9 }, LEGEND[kind]);
    svg.append(label);
    lx += 19 + LEGEND[kind].length * 6.6 + 18;
  }

  // Rows, grid and axis.
  const ticks = niceTicks(tMax, Math.max(3, Math.floor(plotW / 90)));
  const unit = siUnit(tMax, "s");
  for (let r = 0; r < ranks; r++) {
    const y = top + r * rowH;
    if (r % 2 === 0) svg.append(node("rect", { class: "tl-row", x: left, y, width: plotW, height: rowH }));
    if (r % labelEvery === 0) {
      svg.append(node("text", { class: "tl-rank", x: left - 8, y: y + rowH / 2 + 4, "text-anchor": "end" },
        `rank ${r}`));
    }
  }
  const axisY = top + ranks * rowH;
  for (const t of ticks.values) {
    const tx = x(t);
    svg.append(node("line", { class: "tl-grid", x1: tx, x2: tx, y1: top, y2: axisY }));
    svg.append(node("line", { class: "tl-axis", x1: tx, x2: tx, y1: axisY, y2: axisY + 5 }));
    svg.append(node("text", { class: "tl-tick-label", x: tx, y: axisY + 18, "text-anchor": "middle" },
      formatTick(t, unit, ticks.step)));
  }
  svg.append(node("line", { class: "tl-axis", x1: left, x2: left + plotW, y1: axisY, y2: axisY }));
  svg.append(node("text", { class: "tl-unit", x: left + plotW, y: axisY + 34, "text-anchor": "end" },
    `time (${unit.name})`));

  // Spans. A zero-length span is drawn as a thin full-height tick so it stays visible.
  const pad = rowH >= 14 ? 3 : 1;
  for (const sp of spans) {
    const y = top + sp.rank * rowH;
    const kind = KINDS.includes(sp.kind) ? sp.kind : "compute";
    const x0 = x(sp.start), x1 = x(Math.max(sp.end, sp.start));
    const zero = x1 - x0 < 1;
    const rect = node("rect", {
      class: `tl-span tl-${kind}${zero ? " tl-zero" : ""}`,
      x: zero ? x0 - 1 : x0, y: zero ? y + 1 : y + pad,
      width: zero ? 2 : x1 - x0, height: zero ? rowH - 2 : rowH - 2 * pad, ...fillFor(kind),
    });
    rect.append(node("title", {}, describeSpan(sp)));
    svg.append(rect);
  }
  if (spans.length === 0) {
    svg.append(node("text", { class: "tl-empty", x: left + plotW / 2, y: top + (ranks * rowH) / 2 + 4,
      "text-anchor": "middle" }, "No activity recorded."));
  }

  const scroll = document.createElement("div");
  scroll.className = "timeline-scroll";
  scroll.append(svg);
  const { summary, details } = textAlternative(spans, ranks, tEnd, id, opts.stopped ?? null);
  showScroller(container, scroll, "Timeline (scrolls sideways)", summary, details);
  return svg;
}

// Shows `scroll` (a drawing in its sideways-scrolling box) and then `after` in `container`. Wider than its box (a
// narrow screen), the scroll box gets a tab stop, a role and `label` at once, so a keyboard reaches it
// (axe: scrollable-region-focusable).
export function showScroller(container, scroll, label, ...after) {
  container.replaceChildren(scroll, ...after);
  if (scroll.scrollWidth > scroll.clientWidth + 1) {
    scroll.tabIndex = 0;
    scroll.setAttribute("role", "group");
    scroll.setAttribute("aria-label", label);
  }
}

/** Per-rank totals in seconds: [{ rank, compute, send, wait, finish }]. */
export function timelineTotals(spans, ranks) {
  const rows = Array.from({ length: ranks }, (_, rank) => ({ rank, compute: 0, send: 0, wait: 0, finish: 0 }));
  for (const sp of spans) {
    const row = rows[sp.rank];
    if (!row) continue;
    const d = Math.max(0, sp.end - sp.start);
    if (KINDS.includes(sp.kind)) row[sp.kind] += d;
    row.finish = Math.max(row.finish, sp.end);
  }
  return rows;
}

// stopped: { what, waiting } for a run that did not finish — what ended it ("the watchdog stopped it after
// 3 s"), and the ranks still waiting then: their last wait never closed, so it is not among the spans.
function textAlternative(spans, ranks, tEnd, id, stopped = null) {
  const summary = document.createElement("p");
  summary.className = "timeline-summary";
  summary.id = `${id}-summary`;
  const totals = timelineTotals(spans, ranks);
  if (spans.length === 0) {
    summary.textContent = `No activity recorded for ${plural(ranks, "rank")}.`;
  } else {
    const busiest = totals.reduce((a, b) => (b.compute + b.send > a.compute + a.send ? b : a));
    const waiter = totals.reduce((a, b) => (b.wait > a.wait ? b : a));
    const run = stopped ? "of the recording" : "of the run";
    const shareOf = (v) => (tEnd > 0 ? `${formatPercent(v / tEnd, { decimals: 0 })} ${run}` : "");
    let text = stopped
      ? `${plural(ranks, "rank")}; the run did not finish (${stopped.what}): this is what was recorded, ` +
        `${formatSeconds(tEnd)} of activity. `
      : `${plural(ranks, "rank")}; the run takes ${formatSeconds(tEnd)}. `;
    text += `Busiest: rank ${busiest.rank} (computing or sending for ${formatSeconds(busiest.compute + busiest.send)}, `
      + `${shareOf(busiest.compute + busiest.send)}). `;
    const waiting = stopped?.waiting ?? [];
    if (waiter.wait > 0) text += `Longest ${stopped ? "finished " : ""}wait: rank ${waiter.rank} (${formatSeconds(waiter.wait)}, ${shareOf(waiter.wait)}).`;
    else if (!stopped) text += "No rank waits.";
    if (waiting.length) {
      text += `${waiter.wait > 0 ? " " : ""}${waiting.length === 1 ? `Rank ${waiting[0]} was` : `Ranks ${listText(waiting)} were`} ` +
        "still waiting when the run ended; that wait is not drawn.";
    }
    summary.textContent = text.trim();
  }
  const details = document.createElement("details");
  details.className = "timeline-data";
  const s = document.createElement("summary");
  s.textContent = "Per-rank totals";
  const table = document.createElement("table");
  table.innerHTML = "<thead><tr><th scope=\"col\">Rank</th><th scope=\"col\" class=\"num\">Compute</th>"
    + "<th scope=\"col\" class=\"num\">Send</th><th scope=\"col\" class=\"num\">Wait</th>"
    + "<th scope=\"col\" class=\"num\">Busy</th><th scope=\"col\" class=\"num\">Finishes at</th></tr></thead>";
  const body = table.createTBody();
  for (const t of totals) {
    const tr = body.insertRow();
    const busy = tEnd > 0 ? formatPercent((t.compute + t.send) / tEnd, { decimals: 0 }) : "–";
    for (const [v, num] of [[`rank ${t.rank}`, false], [formatSeconds(t.compute), true], [formatSeconds(t.send), true],
      [formatSeconds(t.wait), true], [busy, true], [formatSeconds(t.finish), true]]) {
      const td = tr.insertCell();
      td.textContent = v;
      if (num) td.className = "num";
    }
  }
  details.append(s, table);
  return { summary, details };
}

// ── axis ──────────────────────────────────────────────────────────────────────────────────────────
/** Ticks 0, step, 2·step, … ≤ max with step ∈ {1, 2, 5} × 10^k, about `count` of them. */
export function niceTicks(max, count = 5) {
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw * (1 - 1e-9)) ?? 10 * mag;
  const values = [];
  for (let i = 0; i * step <= max * (1 + 1e-9); i++) values.push(i * step);
  return { step, values };
}

function formatTick(t, unit, step) {
  const decimals = Math.max(0, -Math.floor(Math.log10(step / unit.scale) + 1e-9));
  return (t / unit.scale).toFixed(Math.min(decimals, 6));
}

function describeSpan(sp) {
  const d = Math.max(0, sp.end - sp.start);
  const what = sp.kind === "send" ? `send to rank ${sp.peer}`
    : sp.kind === "wait" ? (sp.peer != null && sp.peer >= 0 ? `wait for rank ${sp.peer}` : "wait")
    : sp.kind;
  const bytes = sp.bytes > 0 ? ` · ${formatBytes(sp.bytes)}` : "";
  return `rank ${sp.rank} · ${what}${bytes} · ${formatSeconds(sp.start)} → ${formatSeconds(sp.end)} (${formatSeconds(d)})`;
}

function isSpan(sp) {
  return sp && Number.isInteger(sp.rank) && sp.rank >= 0 && Number.isFinite(sp.start) && Number.isFinite(sp.end);
}

function node(tag, attrs = {}, text) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text != null) n.textContent = text;
  return n;
}

const listText = (xs) => (xs.length === 1 ? String(xs[0]) : `${xs.slice(0, -1).join(", ")} and ${xs.at(-1)}`);
