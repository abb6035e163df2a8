// lab_adapters.h — the parallelism lab's kernels as JavaScript sees them: one MLP block's forward and backward
// products on a rank's slice, the loss, the optimizer update of one tensor (or shard), and the deterministic
// model, data and single-device run the lab checks itself against. Same rules as adapters.h: convert
// (lab_convert.h), call the core, convert back.
//
// All arrays are Float64Array, ROW-MAJOR; results are fresh copies. Shapes, with D = width and Fl the rank's
// slice of the hidden width F (Fl = wIn.length / D):  x (rows × D), wIn (Fl × D), wOut (D × Fl).
// The kernels take positional arguments because the trainer calls them several times per block per step.
#pragma once

#include <emscripten/val.h>

#include <string>

namespace dsml::bindings {

using emscripten::val;

// blockInForward(x, wIn, rows, width, activation) → {pre (rows × Fl) = x·wInᵀ, act (rows × Fl) = act(pre)}
val block_in_forward(const val& x, const val& w_in, double rows, double width, const std::string& activation);
// blockOutForward(a, wOut, rows, width) → Float64Array (rows × D) = a·wOutᵀ   (no residual: the caller adds x)
val block_out_forward(const val& a, const val& w_out, double rows, double width);
// blockOutBackward(dy, a, wOut, rows, width) → {dWOut (D × Fl) = dyᵀ·a, dA (rows × Fl) = dy·wOut}
val block_out_backward(const val& dy, const val& a, const val& w_out, double rows, double width);
// blockInBackward(dA, pre, x, wIn, rows, width, activation) → {dWIn (Fl × D) = dHᵀ·x, dX (rows × D) = dH·wIn},
// dH = dA ⊙ act'(pre)   (no residual: the caller adds dy)
val block_in_backward(const val& d_a, const val& pre, const val& x, const val& w_in, double rows, double width,
                      const std::string& activation);

// The same two backward kernels writing into the caller's Float64Arrays instead of returning new ones — for a
// trainer that reuses its gradient buffers step after step (allocating an ArrayBuffer costs a Web Worker tens of
// µs; see lab_convert.h). Every output must be a Float64Array of exactly its shape's length.
// blockOutBackwardInto(dy, a, wOut, rows, width, dWOut, dA) · blockInBackwardInto(dA, pre, x, wIn, rows, width,
// activation, dWIn, dX) → undefined
void block_out_backward_into(const val& dy, const val& a, const val& w_out, double rows, double width,
                             const val& d_w_out, const val& d_a);
void block_in_backward_into(const val& d_a, const val& pre, const val& x, const val& w_in, double rows, double width,
                            const std::string& activation, const val& d_w_in, const val& d_x);

// activate(pre, activation) → Float64Array act(pre), elementwise — backward recomputes A = act(H) from the kept H
// instead of storing both (what mlp_backward does, and what the memory accountant assumes).
val lab_activate(const val& pre, const std::string& activation);

// mseLoss(y, t) → {loss = Σ(y−t)²/n, grad = 2(y−t)/n}, n = y.length (the mean over rows·D, as mse_loss).
val lab_mse_loss(const val& y, const val& t);

// mlpInit({layers, width, hidden, seed}) → [w_in0 (F × D), w_out0 (D × F), w_in1, …] = init_mlp, in
// parameter_tensors order.
val mlp_init(const val& request);

// teacherBatch({model: {layers, width, hidden, activation?, residual?}, seed, step, batch})
// → {inputs (batch × D), targets (batch × D)} = TeacherTask(model, seed).make_batch(step, batch)
val teacher_batch(const val& request);

// optimizerStep({kind: "sgd"|"momentum"|"adam", lr, momentum?, beta1?, beta2?, epsilon?, weightDecay?,
//   warmupSteps?}, t, w, g, m, v) → {w, m, v}
// t is the 1-based step; the rate is warmup_lr(lr, t − 1, warmupSteps) as the Optimizer schedules it (lr when no
// warm-up). m and v may be empty (zeros, as on the first step). Elementwise, so it updates any shard: it is
// update_shard (dsml/zero.h), the update every ZeRO rank applies to its shard.
val optimizer_step(const val& options, double t, const val& w, const val& g, const val& m, const val& v);

// optimizerStepInPlace(optimizer, t, w, g, m, v) → undefined: the same update written into w, and into the state
// the optimizer uses (m unless SGD, v for Adam), which must then have w's length — zeros before the first step.
void optimizer_step_in_place(const val& options, double t, const val& w, const val& g, const val& m, const val& v);

// trainSingle({model, optimizer, batch, steps, seed}) → {losses: Float64Array(steps), params: [Float64Array × 2L]}
// — trainCompare's single-device reference (dsml/single_device.h: single_device_run).
val train_single(const val& request);

}  // namespace dsml::bindings
