// lab_strategies.js — the places where a parallel strategy touches the training step. The lab's
// exercises replace one of them with the learner's version; everything else stays the reference below.
// Shipped into the Workers as source text (see lab_grid.js): self-contained functions only.

// Data parallelism (PyTorch DDP with one bucket): every replica computed gradients on its own rows; the step
// needs their mean, ∇L = (1/dp)·Σ_d g_d. Flatten every tensor into one buffer so the whole sync is ONE
// all-reduce (one α instead of 2L, Week 1's bucketing argument), divide, copy back.
export async function syncGradients(grads, dp) {
  const total = grads.reduce((n, g) => n + g.length, 0);
  const bucket = new Float64Array(total);
  let offset = 0;
  for (const g of grads) { bucket.set(g, offset); offset += g.length; }
  await dp.allReduce(bucket);
  offset = 0;
  for (const g of grads) {
    for (let i = 0; i < g.length; i++) g[i] = bucket[offset + i] / dp.size;
    offset += g.length;
  }
}

// Expert parallelism: the gradient of an expert on its ep rank already sums the tokens its ep group sent it; the
// ranks holding the same expert in the other dp/ep groups hold the rest. The mean over all dp replicas is then
// the mean over those dp/ep holders (the same sync, over the expert-dp group) divided by ep.
export async function syncExpertGradients(grads, edp, ep) {
  await syncGradients(grads, edp);
  for (const g of grads) for (let i = 0; i < g.length; i++) g[i] /= ep.size;
}

// FSDP / ZeRO-3: member i of the dp group holds only chunk i (shardSizes(n, dp.size)[i] values) of a tensor;
// before a block runs — forward, and again in backward — the whole tensor is gathered, used, and dropped.
export async function gatherWeights(shard, dp, n) {
  return dp.allGather(shard, n);
}

// Megatron tensor parallelism (Shoeybi et al. 2019). This rank holds rows of W_in and the matching columns of
// W_out, so it computes its F/tp hidden units completely and a PARTIAL output:
//   f: identity forward (every rank already has x)   → H_t = x·W_in,tᵀ, A_t = act(H_t), Y_t = A_t·W_out,tᵀ
//   g: all-reduce forward                             → Y = Σ_t Y_t, then the residual x + Y
export async function tpBlockForward(x, w, tp, k) {
  const { pre, act } = k.blockInForward(x, w.wIn);
  const y = k.blockOutForward(act, w.wOut);
  await tp.allReduce(y);                                   // g
  if (k.residual) for (let i = 0; i < y.length; i++) y[i] += x[i];
  return { y, saved: { x, pre } };                         // what backward needs: x and H (not A: recomputed)
}

// Backward mirrors it: g's backward is the identity (dY is already whole on every rank), f's backward sums the
// partial input gradients dX_t = dH_t·W_in,t over the group. The residual's dY is added once, after the sum.
export async function tpBlockBackward(dy, saved, w, tp, k) {
  const act = k.activate(saved.pre);
  const { dWOut, dA } = k.blockOutBackward(dy, act, w.wOut);
  const { dWIn, dX } = k.blockInBackward(dA, saved.pre, saved.x, w.wIn);
  await tp.allReduce(dX);                                  // f's backward
  if (k.residual) for (let i = 0; i < dX.length; i++) dX[i] += dy[i];
  return { dx: dX, dWIn, dWOut };
}

// The same backward split in two for a zero-bubble schedule (Qi et al. 2024), with Week 5's kernels: B is the
// input gradient only — what the previous stage waits for, with f's all-reduce — and keeps dY and dH; W, run
// later to fill the bubble, computes this rank's weight gradients from them (no communication: each rank's
// slice of dW needs only its own dH and A). Together bit for bit tpBlockBackward's.
export async function tpBlockBackwardInput(dy, saved, w, tp, k) {
  const { dH, dX } = k.blockBackwardInput(dy, saved.pre, w.wIn, w.wOut);
  saved.dy = dy;
  saved.dH = dH;
  await tp.allReduce(dX);                                  // f's backward
  if (k.residual) for (let i = 0; i < dX.length; i++) dX[i] += dy[i];
  return dX;
}

export function tpBlockBackwardWeight(saved, k) {
  return k.blockBackwardWeight(saved.dy, k.activate(saved.pre), saved.dH, saved.x);
}
