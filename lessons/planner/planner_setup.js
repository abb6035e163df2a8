// planner_setup.js — the page's one way to ask the core for a plan: presets by name (core.plannerPresets) turned
// into a planStep request. The widgets and the exercises both call it, so what a learner sees is what is checked.
export function presets(core) {
  return core.plannerPresets();
}

const byName = (list, name) => {
  const found = list.find((x) => x.name === name);
  if (!found) throw new Error(`no preset "${name}"`);
  return found;
};

// { model, gpu, nodes, t, p, v?, b?, B, zero?, sp?, recompute?, overlap? } → core.planStep's result.
export function plan(core, s) {
  const all = presets(core);
  const gpus = s.nodes * 8;
  return core.planStep({
    model: byName(all.models, s.model),
    cluster: { gpu: byName(all.gpus, s.gpu), nodes: s.nodes, gpusPerNode: 8 },
    layout: { t: s.t, p: s.p, v: s.v ?? 1, d: gpus / (s.t * s.p), microBatch: s.b ?? 1, globalBatch: s.B,
      zeroStage: s.zero ?? 0, sequenceParallel: s.sp ?? false, recomputation: s.recompute ?? "full",
      overlapDp: s.overlap ?? false },
  });
}

// A Table 1 row (Narayanan et al. 2021) as the page's settings: A100s, b = 1, v = 1, full recomputation.
export function publishedSettings(row) {
  return { model: row.model, gpu: "a100-80gb", nodes: row.gpus / 8, t: row.t, p: row.p, v: 1, b: 1,
    B: row.globalBatch, zero: 0, sp: false, recompute: "full", overlap: false };
}
