// split_backward_adapters.h — one MLP block's backward cut in two, as a zero-bubble pipeline (ZB-H1) schedules it
// on the Workers: B, the input gradient the previous stage waits for, and W, the weight gradient nobody waits for
// (dsml/block_kernels.h block_backward_input / block_backward_weight; Qi et al., ICLR 2024). Same rules and shapes
// as lab_adapters.h: convert, one call into dsml/block_rows.h, convert back. B then W gives blockOutBackward's and
// blockInBackward's numbers bit for bit.
#pragma once

#include <emscripten/val.h>

#include <string>

namespace dsml::bindings {

using emscripten::val;

// blockBackwardInput(dy, pre, wIn, wOut, rows, width, activation) → {dH (rows × Fl) = (dy·wOut) ⊙ act'(pre),
// dX (rows × D) = dH·wIn}   (no residual: the caller adds dy)
val block_backward_input(const val& dy, const val& pre, const val& w_in, const val& w_out, double rows, double width,
                         const std::string& activation);
// blockBackwardWeight(dy, act, dH, x, rows, width) → {dWOut (D × Fl) = dyᵀ·act, dWIn (Fl × D) = dHᵀ·x}
val block_backward_weight(const val& dy, const val& act, const val& d_h, const val& x, double rows, double width);

}  // namespace dsml::bindings
