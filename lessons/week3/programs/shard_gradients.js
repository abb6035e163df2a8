// shard_gradients.js — Week 3's exactness experiments on the page's main thread (or the calc Worker): the
// full-batch gradient of the teacher task against the mean, the sum and the row-weighted mean of shard
// gradients, all computed with the trainer's own forward and backward (web/programs/replica_model.js) in fp64.
import { dpKernels, localGradients } from "../../../web/programs/replica_model.js";

export const EXACT_MODEL = Object.freeze({ layers: 4, width: 32, hidden: 128, activation: "gelu", residual: true });
export const EXACT_BATCH = 840;   // divisible by every P from 1 to 8
export const EXACT_SEED = 3;

// The student's gradients on rows [from, from + rows) of step 0's teacher batch (each the mean over those rows).
// `start` (optional) is startOf(core, options), when the caller takes several parts of one batch.
export function gradientsOn(core, options = {}, from, rows, start = startOf(core, options)) {
  const { model, data, params } = start;
  const D = model.width;
  const part = (buf) => buf.slice(from * D, (from + rows) * D);
  return (localGradients(dpKernels(core, model, null), params, part(data.inputs), part(data.targets))).grads;
}

// Step 0's teacher batch and the student's initial weights: the same for every part of one experiment, so made once
// (the teacher's batch of 840 rows costs as much as a backward pass over it).
export function startOf(core, { model = EXACT_MODEL, batch = EXACT_BATCH, seed = EXACT_SEED } = {}) {
  return { model, data: core.teacherBatch({ model, seed, step: 0, batch }),
           params: core.mlpInit({ ...model, seed: seed + 1 }) };
}

// Σ_d w_d·g_d over replicas' gradient lists.
export function combine(lists, weights) {
  return lists[0].map((_, i) => {
    const out = new Float64Array(lists[0][i].length);
    lists.forEach((g, d) => { for (let e = 0; e < out.length; e++) out[e] += weights[d] * g[i][e]; });
    return out;
  });
}

// Largest |a − b| over every value, and ‖a − b‖ / ‖b‖ over all tensors together.
export function compare(a, b) {
  let max = 0, num = 0, den = 0;
  a.forEach((t, i) => {
    for (let e = 0; e < t.length; e++) {
      const d = t[e] - b[i][e];
      max = Math.max(max, Math.abs(d));
      num += d * d;
      den += b[i][e] ** 2;
    }
  });
  return { max, relative: Math.sqrt(num / den) };
}

// The experiment of sections #exactness (equal shards) and #unequal-shards (any shards): full-batch gradient vs the plain mean, the sum
// and the weighted mean of the shards' gradients.
export function shardExperiment(core, shards, options = {}) {
  const batch = shards.reduce((a, b) => a + b, 0);
  const start = startOf(core, { ...options, batch });
  const full = gradientsOn(core, options, 0, batch, start);
  const parts = [];
  let from = 0;
  for (const rows of shards) { parts.push(gradientsOn(core, options, from, rows, start)); from += rows; }
  const P = shards.length;
  return {
    full,
    mean: compare(combine(parts, shards.map(() => 1 / P)), full),
    sum: compare(combine(parts, shards.map(() => 1)), full),
    weighted: compare(combine(parts, shards.map((r) => r / batch)), full),
  };
}

// One optimizer step from the same weights with the mean gradient and with the P× sum: the ratio of the two
// updates' sizes (SGD: exactly P; Adam: ≈ 1 — the bug hides).
export function sumVersusMean(core, optimizer, full, P) {
  let num = 0, den = 0, diff = 0;
  for (const g of full) {
    const w = new Float64Array(g.length), empty = new Float64Array(0);
    const mean = core.optimizerStep(optimizer, 1, w, g, empty, empty).w;
    const sum = core.optimizerStep(optimizer, 1, w, g.map((x) => P * x), empty, empty).w;
    for (let e = 0; e < g.length; e++) { num += sum[e] ** 2; den += mean[e] ** 2; diff += (sum[e] - mean[e]) ** 2; }
  }
  return { ratio: Math.sqrt(num / den), relative: Math.sqrt(diff / den) };
}
