// moves.js — widget "moves": what each rank holds and which groups exchange what, for a strategy on a
// dp × tp × pp grid. renderMoves draws it (the training panel reuses it beside a live run); mountMoves adds
// the controls.
//
// Ranks: r = (p·dp + d)·tp + t, tp fastest (the lab trainer's numbering, lessons/lab/programs/lab_grid.js). The drawing stacks the
// pipeline stages top to bottom; inside a stage, rows are data-parallel replicas d and columns tensor-parallel
// ranks t. So a row is a TP group (all-reduces of activations), a column inside a stage a DP group (gradients,
// or the all-gathers and reduce-scatters of ZeRO/FSDP), and the arrows between stages the pipeline's sends.
// Colours come from CSS (style.css "lab"), and every group kind also has its own line style and label.
import { controlRow, select, slider } from "../../../web/ui/controls.js";
import { plural } from "../../../web/units.js";
import { MODEL } from "../../../web/lab_example.js";
import { showScroller } from "../../../web/ui/timeline.js";
import { make } from "../../../web/ui/element.js";

const SVG = "http://www.w3.org/2000/svg";
let counter = 0;

// What the data-parallel dimension shards, by strategy.
const SHARDING = { none: "none", dp: "none", tp: "none", pp: "none", zero1: "zero1", zero2: "zero2", zero3: "zero3",
  fsdp: "zero3", "fsdp-tp": "zero3" };
// ZeRO-1 and -2 move DP's bytes: a reduce-scatter and an all-gather are the two halves of its all-reduce
// (Rajbhandari et al. 2020, §7.2.1: P_os and P_os+g communicate 2Ψ, as DP does). They differ in what each rank keeps.
const DP_EXCHANGE = {
  none: "all-reduce of gradients",
  zero1: "reduce-scatter of gradients, then all-gather of updated parameters",
  zero2: "reduce-scatter of gradients, then all-gather of updated parameters",
  zero3: "all-gather of each block's parameters before use (forward and backward), reduce-scatter of its gradients",
};
const DP_SHORT = { none: "all-reduce ∇", zero1: "RS ∇ · AG W", zero2: "RS ∇ · AG W", zero3: "AG W · RS ∇" };
const HOLDS = {
  none: "a full replica",
  zero1: "owns shard d: Adam state",
  zero2: "owns shard d: ∇, Adam",
  zero3: "owns shard d: W, ∇, Adam",
};

function node(tag, attrs = {}, text) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text != null) n.textContent = text;
  return n;
}

const range = (a, b) => (a === b ? `${a}` : `${a}–${b}`);

// Width in px of `text` set in the page's font at `px` (and `weight`): rank boxes are sized to their longest line.
let measureCtx;
function textWidth(text, px, weight = 400) {
  measureCtx ??= document.createElement("canvas").getContext("2d");
  if (!measureCtx) return text.length * px * 0.62;
  measureCtx.font = `${weight} ${px}px ${getComputedStyle(document.body).fontFamily}`;
  return measureCtx.measureText(text).width;
}
const rankLabel = (r, d, t, p) => `rank ${r}  (d ${d}, t ${t}, p ${p})`;

/** What rank (d, t, p) holds, as short lines. model = { layers, width, hidden }. */
export function rankHoldings({ d, t, p }, grid, sharding, model = MODEL) {
  const per = model.layers / grid.pp, F = model.hidden / grid.tp;
  const lines = [`blocks ${range(p * per, (p + 1) * per - 1)}`];
  if (grid.tp > 1) lines.push(`W_in rows ${range(t * F, (t + 1) * F - 1)}`, `W_out cols ${range(t * F, (t + 1) * F - 1)}`);
  else lines.push(sharding === "zero3" && grid.dp > 1 ? "W: gathered when used" : grid.pp > 1 ? "full W_in, W_out of its blocks" : "all of W_in and W_out");
  if (grid.dp > 1) lines.push(HOLDS[sharding].replace("shard d", `shard ${d}`));
  return lines;
}

/**
 * Draw the grid into `container` (replaces its content): an SVG plus a sentence and a rank-by-rank table.
 * opts: { grid: {dp, tp, pp}, fsdp?: bool, strategy?: "dp"|"zero1"|"zero2"|"zero3"|"tp"|"pp"|"fsdp-tp"|…,
 *         model?: {layers, width, hidden}, microBatches?: m }
 */
export function renderMoves(container, { grid, fsdp = false, strategy, model = MODEL, microBatches } = {}) {
  const { dp, tp, pp } = grid;
  const sharding = SHARDING[strategy] ?? (fsdp ? "zero3" : "none");
  const id = `mv-${++counter}`;
  const lines = (tp > 1 ? 2 : 1) + (dp > 1 ? 1 : 0), cellH = 24 + 14 * lines;
  // Each box is as wide as its longest line (label 11.5 px bold, lines 11 px; style.css .moves-svg) plus 8 px a side.
  let cellW = 164;
  for (let p = 0; p < pp; p++) for (let d = 0; d < dp; d++) for (let t = 0; t < tp; t++) {
    cellW = Math.max(cellW, 16 + textWidth(rankLabel((p * dp + d) * tp + t, d, t, p), 11.5, 650),
      ...rankHoldings({ d, t, p }, grid, sharding, model).slice(1).map((line) => 16 + textWidth(line, 11)));
  }
  cellW = Math.ceil(cellW);
  const gapX = 10, gapY = dp > 1 ? 30 : 14, stageGap = pp > 1 ? 46 : 0, head = 24, padX = 12, padY = 8;
  const innerW = tp * cellW + (tp - 1) * gapX;
  // At least wide enough for the labels beside a single column (the stage name and TP label share a line).
  const width = Math.max(innerW + 2 * padX + 2, tp > 1 ? 360 : pp > 1 || dp > 1 ? 290 : 0);
  const stageH = head + dp * cellH + (dp - 1) * gapY + padY;
  const height = pp * stageH + (pp - 1) * stageGap + 4;
  const svg = node("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", class: "moves-svg",
    "aria-labelledby": `${id}-title`, "aria-describedby": `${id}-summary` });
  svg.append(node("title", { id: `${id}-title` }, `${dp} × ${tp} × ${pp} grid (dp × tp × pp): what each rank holds and exchanges`));
  const defs = node("defs");
  const arrow = node("marker", { id: `${id}-arrow`, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" });
  arrow.append(node("path", { d: "M0,0 L10,5 L0,10 z", class: "mv-pp-head" }));
  defs.append(arrow);
  svg.append(defs);
  const x0 = padX + 1;
  const cellX = (t) => x0 + t * (cellW + gapX);
  const stageY = (p) => 2 + p * (stageH + stageGap);
  const cellY = (p, d) => stageY(p) + head + d * (cellH + gapY);
  const per = model.layers / pp;

  for (let p = 0; p < pp; p++) {
    const y = stageY(p);
    svg.append(node("rect", { class: "mv-stage", x: 1, y, width: width - 2, height: stageH, rx: 8 }));
    svg.append(node("text", { class: "mv-stage-label", x: 10, y: y + 16 },
      pp > 1 ? `stage ${p} · blocks ${range(p * per, (p + 1) * per - 1)}` : `all ${model.layers} blocks on every rank`));
    for (let d = 0; d < dp; d++) {
      // TP group: the row, in a dashed frame.
      if (tp > 1) {
        svg.append(node("rect", { class: "mv-tp", x: x0 - 6, y: cellY(p, d) - 6, width: innerW + 12, height: cellH + 12, rx: 6 }));
      }
      for (let t = 0; t < tp; t++) {
        const r = (p * dp + d) * tp + t, cx = cellX(t), cy = cellY(p, d);
        const g = node("g", { class: "mv-rank" });
        g.append(node("rect", { class: "mv-cell", x: cx, y: cy, width: cellW, height: cellH, rx: 5 }));
        g.append(node("text", { class: "mv-rank-label", x: cx + 8, y: cy + 16 }, rankLabel(r, d, t, p)));
        rankHoldings({ d, t, p }, grid, sharding, model).slice(1)  // the blocks are named on the stage
          .forEach((line, i) => g.append(node("text", { class: "mv-line", x: cx + 8, y: cy + 31 + 14 * i }, line)));
        g.append(node("title", {}, `rank ${r}: ${rankHoldings({ d, t, p }, grid, sharding, model).join("; ")}`));
        svg.append(g);
        // DP group: a thick line down the column, in the gap to the next replica.
        if (d < dp - 1) {
          const lx = cx + cellW / 2, y1 = cy + cellH + (tp > 1 ? 6 : 0), y2 = cellY(p, d + 1) - (tp > 1 ? 6 : 0);
          svg.append(node("line", { class: "mv-dp", x1: lx, x2: lx, y1, y2 }));
          if (t === 0) svg.append(node("text", { class: "mv-dp-label", x: lx + 8, y: (y1 + y2) / 2 + 4 }, `DP: ${DP_SHORT[sharding]}`));
        }
      }
      if (tp > 1 && d === 0) {
        svg.append(node("text", { class: "mv-tp-label", x: width - 10, y: y + 16, "text-anchor": "end" },
          "TP: 2 all-reduces per block"));
      }
    }
    // PP: arrows from stage p to p + 1 (activations down, gradients up).
    if (p < pp - 1) {
      const yTop = y + stageH + 3, yBot = stageY(p + 1) - 3, ax = x0 + Math.min(cellW, innerW) / 2;
      svg.append(node("line", { class: "mv-pp", x1: ax - 6, x2: ax - 6, y1: yTop, y2: yBot, "marker-end": `url(#${id}-arrow)` }));
      svg.append(node("line", { class: "mv-pp", x1: ax + 6, x2: ax + 6, y1: yBot, y2: yTop, "marker-end": `url(#${id}-arrow)` }));
      svg.append(node("text", { class: "mv-pp-label", x: ax + 18, y: (yTop + yBot) / 2 + 4 },
        "PP: activations ↓ ∇ ↑"));
    }
  }

  const scroll = make("div", { class: "moves-scroll" });
  scroll.append(svg);
  const summary = make("p", { class: "moves-summary", id: `${id}-summary` }, describeMoves(grid, sharding, microBatches));
  const details = make("details", { class: "moves-data" });
  details.append(make("summary", {}, "Rank by rank"), holdingsTable(grid, sharding, model));
  showScroller(container, scroll, "Rank grid (scrolls sideways)", summary, details);
  return svg;
}

function groups(grid, vary) {
  const { dp, tp, pp } = grid, out = [];
  const rank = (d, t, p) => (p * dp + d) * tp + t;
  if (vary === "d") for (let p = 0; p < pp; p++) for (let t = 0; t < tp; t++) out.push([...Array(dp).keys()].map((d) => rank(d, t, p)));
  if (vary === "t") for (let p = 0; p < pp; p++) for (let d = 0; d < dp; d++) out.push([...Array(tp).keys()].map((t) => rank(d, t, p)));
  if (vary === "p") for (let d = 0; d < dp; d++) for (let t = 0; t < tp; t++) out.push([...Array(pp).keys()].map((p) => rank(d, t, p)));
  return out.map((g) => `{${g.join(", ")}}`).join(" ");
}

/** One paragraph: who exchanges what with whom. */
export function describeMoves(grid, sharding, microBatches) {
  const { dp, tp, pp } = grid, parts = [`${plural(dp * tp * pp, "rank")} (dp ${dp} × tp ${tp} × pp ${pp}).`];
  if (dp * tp * pp === 1) parts.push("One device holds everything; nothing moves.");
  if (dp > 1) parts.push(`DP groups ${groups(grid, "d")}: ${DP_EXCHANGE[sharding]}${sharding === "zero3" ? ", block by block" : ", once per step"}.`);
  if (tp > 1) parts.push(`TP groups ${groups(grid, "t")}: per block, an all-reduce of the (B/dp, D) activations in forward (g) and of their gradient in backward (f).`);
  if (pp > 1) parts.push(`Pipelines ${groups(grid, "p")}: each stage sends its output activations (B/(dp·m), D) to the next stage${microBatches ? ` for each of m = ${microBatches} micro-batches` : " per micro-batch"}, and the gradients come back the other way.`);
  return parts.join(" ");
}

function holdingsTable(grid, sharding, model) {
  const table = document.createElement("table");
  table.innerHTML = "<thead><tr><th scope=\"col\">Rank</th><th scope=\"col\">(d, t, p)</th><th scope=\"col\">Holds</th></tr></thead>";
  const body = table.createTBody();
  for (let p = 0; p < grid.pp; p++) for (let d = 0; d < grid.dp; d++) for (let t = 0; t < grid.tp; t++) {
    const tr = body.insertRow();
    const r = (p * grid.dp + d) * grid.tp + t;
    for (const text of [`rank ${r}`, `(${d}, ${t}, ${p})`, rankHoldings({ d, t, p }, grid, sharding, model).join("; ")]) tr.insertCell().textContent = text;
  }
  const wrap = document.createElement("div");
  wrap.className = "table-scroll";
  wrap.append(table);
  return wrap;
}

const PRESETS = [
  ["dp", "data parallel (DP)", { dp: 4, tp: 1, pp: 1 }], ["zero1", "ZeRO-1", { dp: 4, tp: 1, pp: 1 }],
  ["zero2", "ZeRO-2", { dp: 4, tp: 1, pp: 1 }], ["zero3", "ZeRO-3 / FSDP", { dp: 4, tp: 1, pp: 1 }],
  ["tp", "tensor parallel (TP)", { dp: 1, tp: 4, pp: 1 }], ["pp", "pipeline parallel (PP)", { dp: 1, tp: 1, pp: 4 }],
  ["fsdp-tp", "FSDP + TP", { dp: 2, tp: 2, pp: 1 }], ["3d", "DP × TP × PP", { dp: 2, tp: 2, pp: 2 }],
];
// Which grid dimensions a strategy may use.
const FREE = { dp: ["dp"], zero1: ["dp"], zero2: ["dp"], zero3: ["dp"], tp: ["tp"], pp: ["pp"], "fsdp-tp": ["dp", "tp"], "3d": ["dp", "tp", "pp"] };

/** The widget: a strategy, the grid sizes, and the drawing. */
export function mountMoves(figure, { strategy = "dp" } = {}) {
  const box = document.createElement("div");
  box.className = "moves";
  const strat = select({ label: "Strategy", value: strategy, options: PRESETS.map(([k, text]) => [k, text]), onChange: preset });
  const dims = Object.fromEntries(["dp", "tp", "pp"].map((k) => [k, slider({ label: `${k} (${{ dp: "data", tp: "tensor", pp: "pipeline" }[k]})`,
    min: 1, max: 4, step: 1, value: 1, format: String, onInput: draw })]));
  controlRow(figure, strat, dims.dp, dims.tp, dims.pp);
  figure.querySelector("figcaption").before(box);

  function preset() {
    const grid = PRESETS.find(([k]) => k === strat.value)[2];
    for (const k of ["dp", "tp", "pp"]) dims[k].value = grid[k];
    draw();
  }
  function draw() {
    const free = FREE[strat.value];
    const grid = {};
    for (const k of ["dp", "tp", "pp"]) {
      dims[k].input.disabled = !free.includes(k);
      if (!free.includes(k)) dims[k].value = 1;
      grid[k] = Math.round(dims[k].value);
    }
    const fsdp = ["zero3", "fsdp-tp"].includes(strat.value);
    renderMoves(box, { grid, fsdp, strategy: strat.value === "3d" || strat.value === "pp" ? undefined : strat.value });
  }
  preset();
}
