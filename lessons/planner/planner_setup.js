// planner_setup.js — the page's one way to ask the core for a plan: presets by name (core.plannerPresets) turned
// into a planStep request. The widgets and the exercises both call it, so what a learner sees is what is checked.
import { formatNumber } from "../../web/units.js";

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
    c: 1, kernel });
}

// A layout the core answered with (StepPlan.layout, a validation row's layout) as the page's settings.
export function settingsOf({ model, gpu, nodes, seq }, L) {
  return { model, seq, gpu, nodes, t: L.t, p: L.p, v: L.v, c: L.c, e: L.e, b: L.microBatch, B: L.globalBatch,
    zero: L.zeroStage, sp: L.sequenceParallel, recompute: L.recomputation, overlap: L.overlapDp,
    attention: L.attention, precision: L.precision };
}

export const TABLE1 = "narayanan-table1";
// A relative error, signed, as the page writes it: +4.9%, −22%.
export const signedPercent = (e) => `${e >= 0 ? "+" : "−"}${formatNumber(Math.abs(100 * e), { digits: 2 })}%`;
export const tableOf = (core, id) => validation(core).tables.find((t) => t.id === id);

// Row i (from 0) of Narayanan et al. 2021's Table 1 as the page's settings: the layout core.plannerValidation priced
// it on — its published t, p, GPUs and batch on A100s, full recomputation, Megatron's unfused attention, no sequence
// parallelism, ZeRO or overlap, and the fastest micro-batch b and chunks v that fit (the table gives neither).
export function table1Settings(core, i) {
  const row = presets(core).table1[i];
  return settingsOf({ model: row.model, gpu: tableOf(core, TABLE1).gpu, nodes: row.gpus / GPUS_PER_NODE },
    tableOf(core, TABLE1).rows[i].layout);
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
