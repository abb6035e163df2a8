// lab_grid.js — where a rank sits in the dp × tp × pp grid and what it holds. These functions run INSIDE the
// Workers: lab_program.js ships their source text (Function.prototype.toString) as part of the rank program, so
// each must be self-contained — no imports, no module-level constants, only calls to other shipped functions.

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

// The collectives' chunk rule (dsml/comm.h shard_sizes): n values into `parts` chunks, the first n mod parts
// one larger. FSDP shards and ring chunks both follow it, so a shard is exactly a reduce-scatter's output.
export function shardSizes(n, parts) {
  const base = Math.floor(n / parts), extra = n % parts;
  return Array.from({ length: parts }, (_, i) => base + (i < extra ? 1 : 0));
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
  return {
    rows: batch / (grid.dp * microBatches),
    hidden: model.hidden / grid.tp,
    blocks: model.layers / grid.pp,
    chunks,                                        // chunks per stage (v)
    chunkBlocks: model.layers / (grid.pp * chunks),
    ranks: grid.dp * grid.tp * grid.pp,
  };
}

// The slice of tensor `index` (parameter_tensors order: block l's W_in = 2l, W_out = 2l + 1) that
// tensor-parallel rank t holds, as a row-major copy. Megatron's split: W_in (F × D) by rows — a
// column-parallel layer, each rank computes F/tp hidden units; W_out (D × F) by columns — row-parallel,
// each rank produces a partial (B, D) output that g then sums.
export function tpSlice(full, index, t, model, hidden) {
  const D = model.width, F = model.hidden;
  if (index % 2 === 0) return full.slice(t * hidden * D, (t + 1) * hidden * D);
  const out = new Float64Array(D * hidden);
  for (let r = 0; r < D; r++) out.set(full.subarray(r * F + t * hidden, r * F + (t + 1) * hidden), r * hidden);
  return out;
}

// The inverse, for assembling a model from its slices: writes slice t of tensor `index` into `full`.
export function placeTpSlice(full, slice, index, t, model, hidden) {
  const D = model.width, F = model.hidden;
  if (index % 2 === 0) { full.set(slice, t * hidden * D); return; }
  for (let r = 0; r < D; r++) full.set(slice.subarray(r * hidden, (r + 1) * hidden), r * F + t * hidden);
}
