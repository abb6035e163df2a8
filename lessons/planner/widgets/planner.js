// planner.js — widget "planner": pick a model and its sequence length, a cluster, a layout, the attention kernel and
// the precision; the core's planStep (dsml/planner.h, the function `dsml plan` calls) prices one step. The step split
// as a bar (compute by kernel, then what the layout adds), memory per GPU of the fullest stage as a stacked bar
// against the GPU's capacity, MFU/HFU and tokens/s, MFU against the global batch, and the fastest layouts that fit
// (layout_search.js). A Table 1 row loaded from the "calibration" widget arrives through planner_setup.js's
// onPlannerLoad (this widget may be built after it). d is the core's (result.layout.d), never computed here; every
// number shown is a field of the core's answer; nothing here computes a cost.
import { formatBytes, formatCount, formatNumber, formatSeconds, formatSI } from "../../../web/units.js";
import { GPUS_PER_NODE, onPlannerLoad, plan, presets } from "../planner_setup.js";
import { barWithLegend } from "./stacked_bar.js";
import { mountSearch } from "./layout_search.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";

// The step's parts: compute split by kernel (time.computeParts), then what the layout adds.
const COMPUTE_PARTS = [["matmul", "matmuls"], ["attention", "attention core"], ["memoryBound", "memory-bound kernels"]];
const STEP_PARTS = [["bubble", "pipeline bubble"], ["tensor", "tensor-parallel collectives"],
  ["context", "context-parallel K/V ring"], ["expert", "expert all-to-all"], ["pipeline", "pipeline sends"],
  ["data", "data-parallel collectives"], ["optimizer", "optimizer"]];
const MEMORY_PARTS = [["params", "weights"], ["grads", "gradients"], ["optimizer", "optimizer state"],
  ["activations", "activations"]];
const NUMBERS = ["seq", "nodes", "t", "p", "v", "c", "e", "b", "B"];
const SELECTS = ["recompute", "attention", "precision"];
// The attention kernels the core prices (a fused one only on a GPU with a measurement of it).
const KERNELS = [["flash-attention-2", "fused: FlashAttention-2"], ["flash-attention-1", "fused: FlashAttention-1"],
  ["flash-attention-triton", "fused: FlashAttention in Triton"], ["unfused", "unfused: scores through HBM"]];
const MAX_SEQUENCE = 1 << 20;   // tokens: 1M, past the longest context a preset has
let uid = 0;

function field(label, input, wide) {
  const wrap = document.createElement("div");
  wrap.className = wide ? "control control-select" : "control";
  input.id = `planner-${uid++}`;
  input.name = label;
  const lab = document.createElement("label");
  lab.htmlFor = input.id;
  lab.textContent = label;
  wrap.append(lab, input);
  return wrap;
}
function numberInput(value, min, max) {
  const i = document.createElement("input");
  Object.assign(i, { type: "number", value, min, max, step: 1 });
  i.inputMode = "numeric";
  return i;
}
function selectInput(options, value) {
  const s = document.createElement("select");
  for (const [v, text] of options) s.append(new Option(text, v, false, v === value));
  return s;
}
function checkbox(checked) {
  const c = document.createElement("input");
  c.type = "checkbox";
  c.checked = checked;
  return c;
}
const strong = (key, text) => `<strong data-out="${key}">${text}</strong>`;

export function mountPlanner(figure, core) {
  const all = presets(core);
  // GPT-3 175B on 64 DGX nodes as Narayanan et al. would lay it out, with the newer memory savers on.
  const s = { model: "gpt3-175b", gpu: "a100-80gb", nodes: 64, t: 8, p: 8, v: 1, c: 1, e: 1, b: 1, B: 1536, zero: 0,
    sp: true, recompute: "selective", overlap: true, attention: "flash-attention-2", precision: "bf16" };
  const sequenceOf = (name) => all.models.find((m) => m.name === name).sequence;
  s.seq = sequenceOf(s.model);
  const inputs = {
    model: selectInput(all.models.map((m) => [m.name, m.name]), s.model),
    seq: numberInput(s.seq, 1, MAX_SEQUENCE),
    gpu: selectInput(all.gpus.map((g) => [g.name, g.name]), s.gpu),
    nodes: numberInput(s.nodes, 1, 4096), t: numberInput(s.t, 1, GPUS_PER_NODE), p: numberInput(s.p, 1, 256),
    v: numberInput(s.v, 1, 16), c: numberInput(s.c, 1, 64), e: numberInput(s.e, 1, 256),
    b: numberInput(s.b, 1, 64), B: numberInput(s.B, 1, 65536),
    zero: selectInput([["0", "0"], ["1", "1"], ["2", "2"], ["3", "3"]], String(s.zero)),
    recompute: selectInput([["none", "none"], ["selective", "selective"], ["full", "full"]], s.recompute),
    attention: selectInput(KERNELS, s.attention),
    precision: selectInput([["bf16", "BF16"], ["fp8", "FP8 matmuls"]], s.precision),
    sp: checkbox(s.sp), overlap: checkbox(s.overlap),
  };
  const labels = { model: "Model", seq: "Sequence s (tokens)", gpu: "GPU", nodes: `Nodes (${GPUS_PER_NODE} GPUs each)`, t: "Tensor t",
    p: "Pipeline p", v: "Chunks per GPU v", c: "Context c", e: "Expert e", b: "Micro-batch b", B: "Global batch B", zero: "ZeRO stage",
    recompute: "Recomputation", attention: "Attention kernel", precision: "Precision", sp: "Sequence parallel",
    overlap: "Overlap DP with backward" };
  const row = document.createElement("div");
  row.className = "widget-controls";
  for (const [k, el] of Object.entries(inputs)) {
    row.append(field(labels[k], el, k === "model" || k === "gpu"));
    if (k !== "model") el.addEventListener(el.tagName === "SELECT" || el.type === "checkbox" ? "change" : "input", () => { read(); draw(); });
  }
  // A new model brings its own sequence length (the learner changes it after).
  inputs.model.addEventListener("change", () => {
    inputs.seq.value = String(sequenceOf(inputs.model.value));
    read();
    draw();
  });
  const out = document.createElement("div");
  out.className = "planner-out";
  out.setAttribute("aria-live", "polite");
  // MFU against the global batch for this layout: B = d·b·2^k, so m = 2^k micro-batches per pipeline.
  const chartBox = document.createElement("div");
  chartBox.className = "chart";
  const canvas = document.createElement("canvas");
  chartBox.append(canvas);
  const searchBox = document.createElement("div");
  figure.prepend(row, out, chartBox, searchBox);
  const chart = createLineChart(canvas, { xLabel: "global batch B (sequences)", yLabel: "MFU (%)", logX: true,
    ariaLabel: "MFU against the global batch for the layout chosen", datasets: [] });

  function read() {
    s.model = inputs.model.value;
    s.gpu = inputs.gpu.value;
    for (const k of NUMBERS) s[k] = Number(inputs[k].value);
    s.zero = Number(inputs.zero.value);
    for (const k of SELECTS) s[k] = inputs[k].value;
    s.sp = inputs.sp.checked;
    s.overlap = inputs.overlap.checked;
  }
  function write() {
    s.seq ??= sequenceOf(s.model);
    for (const k of ["model", "gpu", ...NUMBERS, ...SELECTS]) inputs[k].value = String(s[k]);
    inputs.zero.value = String(s.zero);
    inputs.sp.checked = s.sp;
    inputs.overlap.checked = s.overlap;
  }
  // What is wrong with the controls `keys` before the core is asked ("" when nothing); the core checks the rest.
  function problem(at = s, keys = NUMBERS) {
    for (const k of keys) if (!Number.isInteger(at[k]) || at[k] < 1) return `${labels[k]} must be a whole number ≥ 1`;
    if (keys.includes("seq") && at.seq > MAX_SEQUENCE) {
      return `${labels.seq} must be at most ${formatCount(MAX_SEQUENCE)}`;
    }
    return "";
  }
  function draw() {
    out.replaceChildren();
    let r;
    try {
      const bad = problem();
      if (bad) throw new Error(bad);
      r = plan(core, s);
    } catch (e) {
      const p = document.createElement("p");
      p.className = "notice warn planner-error";
      p.setAttribute("data-out", "error");
      p.textContent = `Not a layout: ${e.message}.`;
      out.append(p);
      return;
    }
    const head = document.createElement("p");
    head.className = "widget-output";
    const active = r.activeParameters < r.parameters
      ? ` (${strong("active", formatSI(r.activeParameters, ""))} active per token)` : "";
    head.innerHTML = `${strong("params", formatSI(r.parameters, ""))} parameters${active}; d = ${strong("d", r.layout.d)},
      ${strong("m", formatCount(r.microBatches))} micro-batches per pipeline. Step ${strong("step", formatSeconds(r.time.total))}; MFU ${strong("mfu", `${formatNumber(100 * r.mfu)}%`)},
      HFU ${strong("hfu", `${formatNumber(100 * r.hfu)}%`)}; ${strong("tflops", formatNumber(r.tflopsPerGpu))} TFLOP/s per
      GPU; ${strong("tokens", formatCount(Math.round(r.tokensPerS)))} tokens/s. Memory per GPU
      ${strong("memory", formatBytes(r.memory.total))} of ${formatBytes(r.capacity)}:
      ${strong("fits", r.fits ? "fits" : "does not fit")}.`;
    const step = barWithLegend("Where the step goes", [...COMPUTE_PARTS.map(([k, l]) => [l, r.time.computeParts[k]]),
      ...STEP_PARTS.map(([k, l]) => [l, r.time[k]])], r.time.total, formatSeconds);
    const mem = barWithLegend("Memory per GPU (the fullest stage) against the GPU's capacity",
      MEMORY_PARTS.map(([k, l]) => [l, r.memory[k]]), Math.max(r.capacity, r.memory.total), formatBytes,
      { limit: r.capacity, limitLabel: `${formatBytes(r.capacity)} HBM` });
    out.append(head, step, mem);
    drawBatchCurve(r);
  }
  // The same layout at other global batches: each point is core.planStep's MFU (layouts it refuses are skipped).
  function drawBatchCurve(current) {
    const points = [];
    for (let k = 1; k <= 4096; k *= 2) {
      const B = current.layout.d * s.b * k;
      try {
        points.push({ x: B, y: 100 * plan(core, { ...s, B }).mfu });
      } catch {
        // interleaving needs m to be a multiple of p: that batch is not a layout
      }
    }
    chart.update({ datasets: [{ label: "MFU at this layout", data: points, points: true }],
      verticalLines: [{ x: s.B, label: `B = ${formatCount(s.B)}` }] });
    const last = points.at(-1);
    describeChart(figure, `MFU rises with the global batch, as the bubble's (p − 1)/v slots are shared by more
      micro-batches: ${formatNumber(points[0]?.y ?? 0)}% at B = ${formatCount(points[0]?.x ?? 0)}, ${formatNumber(100 * current.mfu)}% at
      B = ${formatCount(s.B)}, ${formatNumber(last?.y ?? 0)}% at B = ${formatCount(last?.x ?? 0)}.`.replace(/\s+/g, " "),
    [["global batch B", "MFU (%)"], ...points.map((p) => [p.x, formatNumber(p.y)])]);
  }
  mountSearch(searchBox, core, { settings: () => ({ ...s }), problem, use: (L) => {
    Object.assign(s, { t: L.t, c: L.c, p: L.p, v: L.v, e: L.e, b: L.microBatch, zero: L.zeroStage, sp: L.sequenceParallel,
      recompute: L.recomputation, overlap: L.overlapDp, attention: L.attention, precision: L.precision });
    write();
    draw();
  } });
  draw();
  onPlannerLoad((settings) => {
    Object.assign(s, { seq: undefined }, settings);
    write();
    draw();
  });
}
