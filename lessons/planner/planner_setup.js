// planner_setup.js — the page's one way to ask the core for a plan: presets by name (core.plannerPresets) turned
// into a planStep request. The widgets and the exercises both call it, so what a learner sees is what is checked.
export const GPUS_PER_NODE = 8;   // DGX A100 / DGX H100 nodes, as Selene in Narayanan et al. 2021

// The presets are data that never change for one core: asked once (an exercise's checks call plan() hundreds of times).
const cached = new WeakMap();
export function presets(core) {
  if (!cached.has(core)) cached.set(core, core.plannerPresets());
  return cached.get(core);
}

// The three published tables priced (core.plannerValidation), asked once for the same reason.
const priced = new WeakMap();
export function validation(core) {
  if (!priced.has(core)) priced.set(core, core.plannerValidation());
  return priced.get(core);
}

const byName = (list, name) => {
  const found = list.find((x) => x.name === name);
  if (!found) throw new Error(`no preset "${name}"`);
  return found;
};

// The model preset `name`, its sequence length replaced by `sequence` when one is given (the planner's "Sequence s").
export function modelAt(core, name, sequence) {
  const model = byName(presets(core).models, name);
  return sequence === undefined ? model : { ...model, sequence };
}

// The cluster of `nodes` 8-GPU nodes of the GPU preset `gpu`.
export function clusterOf(core, gpu, nodes) {
  return { gpu: byName(presets(core).gpus, gpu), nodes, gpusPerNode: GPUS_PER_NODE };
}

// { model, seq?, gpu, nodes, t, p, v?, c?, e?, b?, B, zero?, sp?, recompute?, overlap?, attention?, precision? } →
// core.planStep's result; seq replaces the model's sequence length. d is not asked: the core derives it,
// GPUs/(t·c·p), and refuses in words when that does not divide (read it back from result.layout.d).
export function plan(core, s) {
  return core.planStep({
    model: modelAt(core, s.model, s.seq),
    cluster: clusterOf(core, s.gpu, s.nodes),
    layout: { t: s.t, p: s.p, v: s.v ?? 1, c: s.c ?? 1, e: s.e ?? 1, microBatch: s.b ?? 1, globalBatch: s.B,
      zeroStage: s.zero ?? 0, sequenceParallel: s.sp ?? false, recomputation: s.recompute ?? "full",
      overlapDp: s.overlap ?? false, attention: s.attention ?? "fused", precision: s.precision ?? "bf16" },
  });
}

// { model, gpu, s, t?, b?, kernel } → core.attentionCost's answer: one layer's attention core on one GPU for one
// micro-batch, the model's sequence replaced by s.
export function attentionAt(core, { model, gpu, s, t = 1, b = 1, kernel }) {
  return core.attentionCost({ gpu: byName(presets(core).gpus, gpu), model: modelAt(core, model, s), microBatch: b, t,
    c: 1, kernel, causal: true });
}

// A Table 1 row (Narayanan et al. 2021) as the page's settings: A100s, b = 1, v = 1, full recomputation, the unfused
// attention Megatron ran in 2021, BF16.
export function publishedSettings(row) {
  return { model: row.model, gpu: "a100-80gb", nodes: row.gpus / GPUS_PER_NODE, t: row.t, p: row.p, v: 1, c: 1, e: 1, b: 1,
    B: row.globalBatch, zero: 0, sp: false, recompute: "full", overlap: false, attention: "unfused", precision: "bf16" };
}

// Every Table 1 row priced: the planner's TFLOP/s per GPU, its relative error against the published one (signed),
// and the mean and worst |error| — what bench/narayanan_table1.cpp prints, from the same core function.
export function table1Errors(core) {
  const rows = presets(core).table1;
  const predicted = rows.map((row) => plan(core, publishedSettings(row)).tflopsPerGpu);
  const errors = rows.map((row, i) => predicted[i] / row.tflopsPerGpu - 1);
  const abs = errors.map(Math.abs);
  return { predicted, errors, mean: abs.reduce((a, b) => a + b, 0) / abs.length, worst: Math.max(...abs) };
}

// A published row loaded into the planner (the Table 1 widget's "Load" button). The planner widget is built on
// demand, possibly after the button was pressed: it asks for the last row loaded when it is built, then listens.
let loaded = null;
const listeners = new Set();
export function loadIntoPlanner(settings) {
  loaded = settings;
  for (const f of listeners) f(settings);
}
export function onPlannerLoad(f) {
  listeners.add(f);
  if (loaded) f(loaded);
}
