// live_train.js — the program every Worker runs in Week 6's live sections: synchronous data-parallel SGD on the
// course's teacher task, gradients summed by the course's ring all-reduce (web/programs/ring.js), checkpoints sent
// to the page, the world allowed to shrink mid-run, and optionally each gradient compressed (top-k with error
// feedback, gathered).
//
// ctx.input: { model, batch B (global, kept whatever the world), lr, seed, steps,
//              start: { step, params (flat θ, mlpInit's order) | null }   — a restart resumes from a checkpoint
//              checkpointEvery k, worlds: [{ step, members }] (who trains from that step on, in ring order),
//              compression: null | { ratio, errorFeedback }, heldOut (report the held-out loss on evalBatch rows, as
//              trainCompressed does, instead of the training loss), wire ("fp64" | "fp32"), stepDelayMs }
// Step t (as the core's trainElastic, elastic.h): the global batch is teacherBatch(seed, t, B); member i of P'
// trains on rows [i·B/P', (i+1)·B/P'); the gradients (and the local loss, one more value) are summed and divided by
// P'; every member applies the same SGD update (core.optimizerStepInPlace). A rank not in step t's world leaves:
// it returns (a graceful leave; the survivors' ring no longer includes it).
// Progress to the page: { kind: "step", step, loss, time } after every step, and every k steps a checkpoint SHARD
// { kind: "checkpoint", step, begin, end, values } — member i sends its key range of θ (a sharded checkpoint, as
// PyTorch DCP writes one file per rank), posted at once ({ flush: true }: a save completes before training goes
// on); the page commits step s only once all P' shards of s have arrived.

export async function main(ctx) {
  const c = ctx.input, core = ctx.core;
  if (!core) throw new Error("Week 6's training needs the wasm core in every Worker (ctx.core is null)");
  const kernels = dpKernels(core, c.model, null), D = c.model.width;
  const sizes = core.mlpInit({ ...c.model, seed: c.seed + 1 }).map((t) => t.length);
  const theta = c.start?.params ? Float64Array.from(c.start.params) : flattenParams(core.mlpInit({ ...c.model, seed: c.seed + 1 }));
  const n = theta.length, zeros = new Float64Array(n), sgd = { kind: "sgd", lr: c.lr };
  const errors = sizes.map((m) => new Float64Array(m));   // error feedback's residual e_w, per tensor
  const held = c.heldOut ? core.teacherBatch({ model: c.model, seed: c.seed, step: 2 ** 40, batch: c.evalBatch }) : null;
  const worldAt = (t) => c.worlds.filter((w) => w.step <= t).at(-1).members;
  const sleep = (ms) => new Promise((resume) => setTimeout(resume, ms));
  const losses = [];
  for (let t = c.start?.step ?? 0; t < c.steps; t++) {
    const members = worldAt(t), P = members.length, i = members.indexOf(ctx.rank);
    if (i < 0) return { rank: ctx.rank, left: t, params: theta, losses };
    if (c.batch % P !== 0) throw new Error(`a global batch of ${c.batch} rows cannot be cut into ${P} equal shards`);
    const rows = c.batch / P, batch = core.teacherBatch({ model: c.model, seed: c.seed, step: t, batch: c.batch });
    const x = batch.inputs.slice(i * rows * D, (i + 1) * rows * D), y = batch.targets.slice(i * rows * D, (i + 1) * rows * D);
    const { loss, grads } = localGradients(kernels, splitParams(theta, sizes), x, y);
    let mean;
    if (c.compression) {
      mean = await compressedMean(ctx, core, members, grads, errors, c.compression);
    } else {
      const sum = new Float64Array(c.heldOut ? n : n + 1);   // the local loss rides along as one more value
      sum.set(flattenParams(grads));
      if (!c.heldOut) sum[n] = loss;
      await ringAllReduce(ctx, members, sum, { tag: "grad", wire: c.wire ?? "fp64" });
      mean = sum.map((v) => v / P);
    }
    core.optimizerStepInPlace(sgd, t + 1, theta, mean.subarray(0, n), zeros, zeros);
    const reported = c.heldOut ? forwardLoss(kernels, splitParams(theta, sizes), held.inputs, held.targets).loss : mean[n];
    losses.push(reported);
    ctx.progress({ kind: "step", step: t + 1, loss: reported, time: ctx.now() });
    if (c.checkpointEvery && (t + 1) % c.checkpointEvery === 0) {
      const begin = Math.floor((i * n) / P), end = Math.floor(((i + 1) * n) / P);
      ctx.progress({ kind: "checkpoint", step: t + 1, shards: P, begin, end, values: theta.slice(begin, end) }, { flush: true });
    }
    if (c.stepDelayMs) await sleep(c.stepDelayMs);
  }
  return { rank: ctx.rank, left: null, params: theta, losses };
}

// Top-k with error feedback (Seide et al. 2014), each tensor on its own: v = g + e, c = topk(v) by the core's
// compressGradient, e ← v − c. The k kept values go as fp32 with int32 indices (8 bytes a value, what
// compressionWire prices) to every member by all-gather — top-k is not linear, so a ring all-reduce cannot add the
// messages — and every member decodes and averages all P'. → the mean update (and NaN in place of the loss).
export async function compressedMean(ctx, core, members, grads, errors, { ratio, errorFeedback }) {
  const offsets = [], indices = [], values = [];
  let offset = 0;
  grads.forEach((g, t) => {
    const v = errorFeedback ? g.map((x, j) => x + errors[t][j]) : g;
    const c = core.compressGradient({ compressor: "top-k", ratio, values: v }).values;
    const k = Math.min(v.length, Math.max(1, Math.round(ratio * v.length)));
    const kept = [];
    for (let j = 0; j < c.length && kept.length < k; j++) if (c[j] !== 0) kept.push(j);
    for (let j = 0; kept.length < k; j++) if (c[j] === 0) kept.push(j);   // a zero among the top k: sent as 0
    const sent = new Float32Array(kept.map((j) => c[j]));
    if (errorFeedback) {                  // e = v − what the others will decode (fp32 rounding included)
      errors[t] = Float64Array.from(v);
      kept.forEach((j, q) => { errors[t][j] -= sent[q]; });
    }
    indices.push(...kept.map((j) => offset + j));
    values.push(...sent);
    offsets.push(offset);
    offset += g.length;
  });
  const all = await ringGatherMessages(ctx, members, [Int32Array.from(indices), Float32Array.from(values)], { tag: "topk" });
  const mean = new Float64Array(offset + 1);
  for (const [idx, val] of all) for (let q = 0; q < idx.length; q++) mean[idx[q]] += val[q] / members.length;
  mean[offset] = NaN;
  return mean;
}
