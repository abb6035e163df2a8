// dsml/block_rows.h — one MLP block's kernels (dsml/block_kernels.h) on ROW-MAJOR buffers: the layout of the
// parallelism lab's Float64Arrays and of the messages its ranks exchange. Each function copies its inputs into
// the column-major matrices the core computes with, calls the very kernel mlp_forward / mlp_backward call, and
// writes the results back row-major — so a lab step built from these reproduces the single-device step to
// rounding. They exist so that the bindings make ONE call into compiled code per kernel (the bindings are built
// with C++ exceptions, which in Emscripten 3.1.6 route every call that may throw through a JavaScript
// trampoline; this file is not).
//
// Shapes, with D the model width and Fl a rank's slice of the hidden width (Fl = F / tp):
//   x, y, dy, dx (rows × D)     w_in, dw_in (Fl × D)     w_out, dw_out (D × Fl)     pre, act, da (rows × Fl)
// The caller checks the lengths (the bindings do, with messages that name the argument) and sizes the outputs.
#pragma once

#include <Eigen/Core>

#include "dsml/mlp.h"

namespace dsml::row_major {

// The dimensions of one kernel call on a rank's slice.
struct BlockShape {
  Eigen::Index rows;   // examples in the (micro-)batch
  Eigen::Index width;  // D
  Eigen::Index slice;  // Fl
};

// pre = x·w_inᵀ, act = act(pre).
void block_in_forward(Activation activation, const BlockShape& s, const double* x, const double* w_in, double* pre,
                      double* act);
// y = act·w_outᵀ (no residual: a partial sum under tensor parallelism).
void block_out_forward(const BlockShape& s, const double* act, const double* w_out, double* y);
// dw_out = dyᵀ·act, da = dy·w_out.
void block_out_backward(const BlockShape& s, const double* dy, const double* act, const double* w_out, double* dw_out,
                        double* da);
// dH = da ⊙ act'(pre); dw_in = dHᵀ·x, dx = dH·w_in (no residual).
void block_in_backward(Activation activation, const BlockShape& s, const double* da, const double* pre,
                       const double* x, const double* w_in, double* dw_in, double* dx);

// The backward cut in two (zero-bubble pipelines; dsml/block_kernels.h): B, then W from B's dH.
// B: dh = (dy·w_out) ⊙ act'(pre), dx = dh·w_in (no residual).
void block_backward_input(Activation activation, const BlockShape& s, const double* dy, const double* pre,
                          const double* w_in, const double* w_out, double* dh, double* dx);
// W: dw_out = dyᵀ·act, dw_in = dhᵀ·x.
void block_backward_weight(const BlockShape& s, const double* dy, const double* act, const double* dh,
                           const double* x, double* dw_out, double* dw_in);

// out = act(pre), elementwise over n values (taken as one column, as the lab always has).
void activate(Activation activation, const double* pre, Eigen::Index n, double* out);

// Σ(y − t)²/n over n values (one column), and grad = 2(y − t)/n: mse_loss and mse_loss_gradient.
double mse_loss(const double* y, const double* t, Eigen::Index n, double* grad);

}  // namespace dsml::row_major
