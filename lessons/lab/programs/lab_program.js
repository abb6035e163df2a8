// lab_program.js — the rank program of the lab, assembled from source text, and what the page does with its
// results. The functions of lab_grid/lab_strategies/lab_shards/lab_train/lab_moe and of the shared group and ring
// collectives (web/programs/comm_group.js, ring.js) are real module functions (tested as such) whose text, joined,
// is the program each Worker runs. An exercise prepends the learner's code and
// leaves out the reference functions it defines, so the learner's version is the one every rank calls.
import * as grid from "./lab_grid.js";
import * as comm from "../../../web/programs/comm_group.js";
import * as ring from "../../../web/programs/ring.js";
import * as strategies from "./lab_strategies.js";
import * as train from "./lab_train.js";
import * as shards from "./lab_shards.js";
import * as moe from "./lab_moe.js";
// The pipeline's operation lists: the core's schedules, or a learner's oneFOneB checked (shared with Week 5).
import * as pipeLists from "../../../web/programs/pipe_lists.js";

const PARTS = { ...grid, ...ring, ...comm, ...strategies, ...shards, ...train, ...moe, ...pipeLists };
delete PARTS.placeTpSlice;   // page-side only

// The functions a learner may write instead of the reference (one per exercise).
export const REPLACEABLE = ["syncGradients", "gatherWeights", "tpBlockForward", "tpBlockBackward", "oneFOneB"];

export const LAB_DEFAULTS = Object.freeze({
  model: { layers: 4, width: 32, hidden: 128, activation: "gelu", residual: true },
  optimizer: { kind: "adam", lr: 0.003 },
  grid: { dp: 2, tp: 2, pp: 2, ep: 1 },
  moe: { experts: 0, topK: 1, capacityFactor: 1.25, every: 2 },   // experts 0: the dense model
  fsdp: false,
  microBatches: 4,
  schedule: "1f1b",
  batch: 32,
  steps: 40,
  seed: 7,
});

// The program text. learnerCode (optional) must define the functions named in `replaces`.
export function labProgram({ learnerCode = "", replaces = [] } = {}) {
  for (const name of replaces) {
    if (!REPLACEABLE.includes(name)) throw new Error(`labProgram: ${name} is not a replaceable lab function`);
  }
  const shipped = Object.entries(PARTS).filter(([name]) => !replaces.includes(name)).map(([, f]) => f.toString());
  // The learner's code first, so the line numbers of its errors are the editor's.
  return [learnerCode, ...shipped].filter(Boolean).join("\n\n") + "\n";
}

// What one run of the lab needs, computed once per run (the page keeps it for the run's report): the layout
// (lab_grid.labLayout: it validates the configuration), the ranks' inputs and the single-device request to equal.
export function labPlan(config) {
  const layout = grid.labLayout(config);
  return { config, layout, ranks: layout.ranks, inputs: labInputs(config, layout), reference: referenceRequest(config, layout) };
}

// Every rank gets the whole configuration (it is small) and derives its place from ctx.rank.
export function labInputs(config, layout = grid.labLayout(config)) {
  return Array.from({ length: layout.ranks }, () => config);
}

// The full model from the ranks' results, tensors in the core's order (grid.modelTensors): per dense tensor the dp
// shards of each tp slice concatenated (FSDP) and the slices placed back (Megatron); an MoE block's router and
// experts whole from a rank that holds them. Every other holder of the same values (dp replicas, tp ranks of an
// MoE block, the dp/ep replicas of an expert) must agree: `replicaGap` is the largest difference between them — a
// correct run keeps them identical.
export function assembleParams(results, config, layout = grid.labLayout(config)) {
  const { model } = config, dp = config.grid.dp;
  const tensors = grid.modelTensors(config, layout);
  const full = tensors.map((t) => new Float64Array(t.length));
  const seen = new Map(), shards = new Map();   // "index:t" → first holder's values; FSDP: "index:t" → shard per d
  let replicaGap = 0;
  results.forEach((result, rank) => {
    const { d, t } = grid.coordOf(rank, config.grid);
    for (const { index, data } of result.shards) {
      const sliced = !grid.isMoeBlock(tensors[index].block, layout);
      const key = `${index}:${sliced ? t : 0}`;
      if (config.fsdp) { (shards.get(key) ?? shards.set(key, new Array(dp)).get(key))[d] = data; continue; }
      const first = seen.get(key);
      if (!first) { seen.set(key, data); continue; }
      for (let e = 0; e < data.length; e++) replicaGap = Math.max(replicaGap, Math.abs(data[e] - first[e]));
    }
  });
  for (const [key, parts] of shards) {
    const slice = new Float64Array(parts.reduce((n, s) => n + s.length, 0));
    let offset = 0;
    for (const s of parts) { slice.set(s, offset); offset += s.length; }
    seen.set(key, slice);
  }
  for (const [key, values] of seen) {
    const [index, t] = key.split(":").map(Number), { which, block } = tensors[index];
    if (grid.isMoeBlock(block, layout)) full[index].set(values);
    else grid.placeTpSlice(full[index], values, which, t, model, layout.hidden);
  }
  return { params: full, replicaGap };
}

// The single-device run a configuration must equal: core.trainSingle, or with MoE blocks core.trainSingleMoe with
// the lab's token groups (dp shards × m micro-batches, in batch-row order).
export function referenceRequest(config, layout = grid.labLayout(config)) {
  const base = { model: config.model, optimizer: config.optimizer, batch: config.batch, steps: config.steps, seed: config.seed };
  if (!layout.experts) return { fn: "trainSingle", request: base };
  const { experts, topK, capacityFactor, every } = layout;
  return { fn: "trainSingleMoe", request: { ...base, moe: { experts, topK, capacityFactor, every }, groups: config.grid.dp * config.microBatches } };
}

// Load per MoE block in the last step, summed over the ranks that routed its tokens (tp rank 0 of each dp rank):
// [{block, wanted[], kept[], dropped}] — core.trainSingleMoe's `load` for the same run.
export function moeLoad(results, config) {
  const blocks = new Map();
  results.forEach((result, rank) => {
    if (grid.coordOf(rank, config.grid).t !== 0) return;
    for (const { block, wanted, kept } of result.load ?? []) {
      const sum = blocks.get(block) ?? blocks.set(block, { block, wanted: wanted.map(() => 0), kept: kept.map(() => 0) }).get(block);
      wanted.forEach((v, e) => { sum.wanted[e] += v; sum.kept[e] += kept[e]; });
    }
  });
  return [...blocks.values()].sort((a, b) => a.block - b.block).map((l) => ({
    ...l, dropped: l.wanted.reduce((a, b) => a + b, 0) - l.kept.reduce((a, b) => a + b, 0),
  }));
}

// Bytes a step sends, by kind ("all-reduce", "all-gather", "reduce-scatter", "send") and group, read from
// the cluster's trace (never from what the ranks say): messages, total over all ranks, the busiest rank's share.
// With byGroup, "all-reduce:tp" and "all-reduce:dp" are kept apart.
export function bytesByKind(trace, step, { byGroup = false } = {}) {
  const out = {};
  for (const { src, tag, bytes } of trace) {
    const [label, s] = String(tag).split("|");
    if (Number(s) !== step) continue;
    const [kind, group = ""] = label.split(":");
    const entry = (out[byGroup ? label : kind] ??= { total: 0, count: 0, perRank: {}, groups: new Set() });
    entry.total += bytes;
    entry.count += 1;
    entry.perRank[src] = (entry.perRank[src] ?? 0) + bytes;
    entry.groups.add(group);
  }
  for (const e of Object.values(out)) {
    e.busiest = Math.max(...Object.values(e.perRank));
    e.groups = [...e.groups];
  }
  return out;
}
