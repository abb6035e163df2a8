// replica_model.js — one data-parallel replica's model: the course's stack of L MLP blocks, forward and backward
// written out with the core's kernels (core/bindings/dsml.d.ts), on whatever rows the replica was given.
// Shipped into the Workers as source text (Week 3's dp_program.js, Week 4's ps_program.js, Week 6's live_program.js), so each function is self-contained; the page's
// exactness widgets call the same functions on the main thread.
//
//   block(x) = x + act(x·W_inᵀ)·W_outᵀ      x (rows × D), W_in (F × D), W_out (D × F)
//   loss     = Σ (y − t)² / (rows·D)         the mean over this replica's rows: its gradient is the MEAN
//                                            gradient of its rows, which is why replicas average, not sum.
// Parameters are mlpInit's order [W_in0, W_out0, W_in1, …]; backward finishes them in reverse: W_out of the
// last block first — the order in which PyTorch DDP's buckets fill (Li et al. 2020 §3.2.3).

// The core's kernels, each timed as compute on the timeline (activity may be null). rows = x.length / D.
export function dpKernels(core, model, activity) {
  const D = model.width, fn = model.activation ?? "gelu";
  const timed = (label, f) => (...args) => {
    activity?.enter(label);
    try { return f(...args); } finally { activity?.leave(); }
  };
  return {
    width: D, residual: model.residual !== false,
    blockInForward: timed("forward", (x, wIn) => core.blockInForward(x, wIn, x.length / D, D, fn)),
    blockOutForward: timed("forward", (a, wOut) => core.blockOutForward(a, wOut, a.length / wOut.length * D, D)),
    blockOutBackward: timed("backward", (dy, a, wOut) => core.blockOutBackward(dy, a, wOut, dy.length / D, D)),
    blockInBackward: timed("backward", (dA, pre, x, wIn) => core.blockInBackward(dA, pre, x, wIn, x.length / D, D, fn)),
    mseLoss: timed("loss", (y, t) => core.mseLoss(y, t)),
    optimizerStep: timed("optimizer", (opt, t, w, g, m, v) => core.optimizerStep(opt, t, w, g, m, v)),
  };
}

// Forward over the blocks, keeping x, H = x·W_inᵀ and A = act(H) of each for backward.
export function mlpForward(k, params, x) {
  const saved = [];
  for (let j = 0; j < params.length / 2; j++) {
    const { pre, act } = k.blockInForward(x, params[2 * j]);
    const y = k.blockOutForward(act, params[2 * j + 1]);
    if (k.residual) for (let i = 0; i < y.length; i++) y[i] += x[i];
    saved.push({ x, pre, act });
    x = y;
  }
  return { y: x, saved };
}

// The loss of this replica's rows, and what backward starts from: dL/dy = 2(y − t)/(rows·D).
export function forwardLoss(k, params, inputs, targets) {
  const { y, saved } = mlpForward(k, params, inputs);
  const { loss, grad } = k.mseLoss(y, targets);
  return { loss, saved, dy: grad };
}

// Backward, one gradient at a time: yields { i, grad } as soon as tensor i's gradient exists, the last block's
// W_out first. The trainer hands each to DDP's reducer — which may launch a bucket's all-reduce — and lets the
// messages move before backward goes on with the earlier blocks.
export function* backwardGradients(k, params, saved, dy) {
  for (let j = params.length / 2 - 1; j >= 0; j--) {
    const { dWOut, dA } = k.blockOutBackward(dy, saved[j].act, params[2 * j + 1]);
    yield { i: 2 * j + 1, grad: dWOut };
    const { dWIn, dX } = k.blockInBackward(dA, saved[j].pre, saved[j].x, params[2 * j]);
    yield { i: 2 * j, grad: dWIn };
    if (k.residual) for (let i = 0; i < dX.length; i++) dX[i] += dy[i];
    dy = dX;
  }
}

// Forward and the whole backward at once: the loss and every gradient (mlpInit's order).
export function localGradients(k, params, inputs, targets) {
  const { loss, saved, dy } = forwardLoss(k, params, inputs, targets);
  const grads = new Array(params.length);
  for (const { i, grad } of backwardGradients(k, params, saved, dy)) grads[i] = grad;
  return { loss, grads };
}
