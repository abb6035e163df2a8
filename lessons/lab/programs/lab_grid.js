// lab_grid.js — where a rank sits in the dp × tp × pp grid (ep groups inside dp) and what it holds. These
// functions run INSIDE the Workers: lab_program.js ships their source text (Function.prototype.toString) as part of
// the rank program, so each must be self-contained — no imports, no module-level constants, only calls to other
// shipped functions.

// rank = (p·dp + d)·tp + t, tensor-parallel fastest — the layout of dsml/rank_grid.h, so the ranks of one
// tensor-parallel group are neighbours (on a real cluster: the GPUs of one node, on NVLink).
export function coordOf(rank, grid) {
  return {
    d: Math.floor(rank / grid.tp) % grid.dp,
    t: rank % grid.tp,
    p: Math.floor(rank / (grid.tp * grid.dp)),
  };
}

export function rankOf({ d, t, p }, grid) {
  return (p * grid.dp + d) * grid.tp + t;
}

// What every rank needs to know about the split, validated once: a wrong configuration is a readable error,
// not a wrong answer. rows: this rank's rows per micro-batch; hidden: its slice of F; blocks: its stage's, in
// `chunks` chunks of chunkBlocks (2 for interleaved 1F1B, else 1).
export function labLayout(config) {
  const { model, grid, batch, microBatches } = config;
  const positive = (v) => Number.isInteger(v) && v >= 1;
  for (const [name, v] of [["dp", grid.dp], ["tp", grid.tp], ["pp", grid.pp], ["layers", model.layers],
    ["width", model.width], ["hidden", model.hidden], ["batch", batch], ["microBatches", microBatches],
    ["steps", config.steps]]) {
    if (!positive(v)) throw new Error(`${name} must be a whole number ≥ 1 (got ${v})`);
  }
  if (model.hidden % grid.tp) throw new Error(`tp = ${grid.tp} must divide the hidden width F = ${model.hidden}`);
  if (model.layers % grid.pp) throw new Error(`pp = ${grid.pp} must divide the number of blocks L = ${model.layers}`);
  if (batch % (grid.dp * microBatches)) {
    throw new Error(`dp × micro-batches = ${grid.dp} × ${microBatches} must divide the batch B = ${batch}`);
  }
  const schedule = config.schedule ?? "1f1b";
  if (!["gpipe", "1f1b", "interleaved", "zb-h1"].includes(schedule)) {
    throw new Error(`unknown schedule ${JSON.stringify(schedule)} (gpipe, 1f1b, interleaved, zb-h1)`);
  }
  // Interleaved 1F1B cuts each stage's blocks into v = 2 chunks (stage p holds chunks p and p + pp) and sends
  // micro-batches round in groups of pp (Week 5's interleavedOps).
  const chunks = schedule === "interleaved" ? 2 : 1;
  if (chunks > 1) {
    if (grid.pp < 2) throw new Error("interleaved 1F1B needs pp ≥ 2: with one stage there is no pipeline to interleave");
    if (model.layers % (grid.pp * chunks)) {
      throw new Error(`interleaved 1F1B (v = 2 chunks per stage) needs pp·2 = ${grid.pp * chunks} to divide the number of blocks L = ${model.layers}`);
    }
    if (microBatches % grid.pp) {
      throw new Error(`interleaved 1F1B needs the micro-batches m = ${microBatches} to be a multiple of pp = ${grid.pp} (they go round in groups of pp)`);
    }
  }
  const moe = moeLayout(config);
  return {
    ...moe,
    rows: batch / (grid.dp * microBatches),
    hidden: model.hidden / grid.tp,
    blocks: model.layers / grid.pp,
    chunks,                                        // chunks per stage (v)
    chunkBlocks: model.layers / (grid.pp * chunks),
    ranks: grid.dp * grid.tp * grid.pp,
  };
}

// The expert-parallel axis (config.moe = {experts E, topK, capacityFactor, every}, grid.ep): every `every`-th
// block is an MoE layer of E experts (dsml/moe_mlp.h); E = 0 (or no moe) is the dense model. The ep ranks are a
// subset of each data-parallel group — the dp ranks of one (t, p) cut into dp/ep groups of ep neighbours — and
// each ep rank holds E/ep experts of every MoE block; the router is replicated.
export function moeLayout(config) {
  const { model, grid } = config, moe = config.moe ?? {}, experts = moe.experts ?? 0, ep = grid.ep ?? 1;
  if (!Number.isInteger(experts) || experts < 0) throw new Error(`experts E must be a whole number ≥ 0 (got ${experts}; 0 = no MoE blocks)`);
  if (!Number.isInteger(ep) || ep < 1) throw new Error(`ep must be a whole number ≥ 1 (got ${ep})`);
  if (experts === 0) {
    if (ep > 1) throw new Error(`ep = ${ep} splits experts over ranks, but the model has none: set experts E ≥ ${ep}, or ep = 1`);
    return { experts: 0, ep: 1, every: 0, topK: 0, capacityFactor: 0 };
  }
  const every = moe.every ?? 2, topK = moe.topK ?? 1, capacityFactor = moe.capacityFactor ?? 1.25;
  if (model.residual === false) throw new Error("MoE blocks need the residual model (an MoE layer adds to its input)");
  if (config.fsdp) {
    throw new Error("FSDP with MoE blocks is not in the lab: experts are split over ep, not sharded over dp — choose replicas (DDP) or experts E = 0");
  }
  if (grid.dp % ep) throw new Error(`ep = ${ep} must divide dp = ${grid.dp}: the expert-parallel ranks are a subset of each data-parallel group`);
  if (experts % ep) throw new Error(`ep = ${ep} must divide the number of experts E = ${experts}: each ep rank holds E/ep of them`);
  if (topK !== 1 && topK !== 2) throw new Error(`top-k must be 1 or 2 (got ${topK})`);
  if (topK > experts) throw new Error(`top-2 gating needs at least 2 experts (got E = ${experts})`);
  if (!(capacityFactor > 0) || !Number.isFinite(capacityFactor)) throw new Error(`the capacity factor must be > 0 (got ${capacityFactor})`);
  if (!Number.isInteger(every) || every < 1 || every > model.layers) {
    throw new Error(`every ${every}-th block cannot be MoE in a model of L = ${model.layers} blocks (every must be 1 … L)`);
  }
  return { experts, ep, every, topK, capacityFactor };
}

// Block l is MoE when (l + 1) mod every = 0 (every = 2: blocks 1, 3, …), dsml/moe_mlp.h's rule.
export function isMoeBlock(l, layout) {
  return layout.experts > 0 && (l + 1) % layout.every === 0;
}

// The model's tensors in the core's order (mlpInit, or moeMlpInit with MoE blocks): per block, dense W_in (which
// 0, F × D) and W_out (which 1, D × F); MoE router (E × D), then expert e's W_in and W_out. index = place in order.
export function modelTensors(config, layout) {
  const { width: D, hidden: F } = config.model, out = [];
  for (let l = 0; l < config.model.layers; l++) {
    if (!isMoeBlock(l, layout)) {
      out.push({ block: l, expert: -1, which: 0, length: F * D }, { block: l, expert: -1, which: 1, length: D * F });
      continue;
    }
    out.push({ block: l, expert: -1, which: "router", length: layout.experts * D });
    for (let e = 0; e < layout.experts; e++) {
      out.push({ block: l, expert: e, which: 0, length: F * D }, { block: l, expert: e, which: 1, length: D * F });
    }
  }
  return out.map((t, index) => ({ ...t, index }));
}

// The slice of a dense block's W_in (which = 0) or W_out (which = 1) that
// tensor-parallel rank t holds, as a row-major copy. Megatron's split: W_in (F × D) by rows — a
// column-parallel layer, each rank computes F/tp hidden units; W_out (D × F) by columns — row-parallel,
// each rank produces a partial (B, D) output that g then sums.
export function tpSlice(full, which, t, model, hidden) {
  const D = model.width, F = model.hidden;
  if (which === 0) return full.slice(t * hidden * D, (t + 1) * hidden * D);
  const out = new Float64Array(D * hidden);
  for (let r = 0; r < D; r++) out.set(full.subarray(r * F + t * hidden, r * F + (t + 1) * hidden), r * hidden);
  return out;
}

// The inverse, for assembling a model from its slices: writes slice t of W_in / W_out (which) into `full`.
export function placeTpSlice(full, slice, which, t, model, hidden) {
  const D = model.width, F = model.hidden;
  if (which === 0) { full.set(slice, t * hidden * D); return; }
  for (let r = 0; r < D; r++) full.set(slice.subarray(r * hidden, (r + 1) * hidden), r * F + t * hidden);
}
