// dsml/mlp_split_backward.h — the MLP's backward cut in two, as zero-bubble pipelines schedule it (Qi et al.,
// "Zero Bubble Pipeline Parallelism", ICLR 2024): B, the input gradient the previous stage waits for, and W, the
// weight gradient nobody waits for. Per block (dsml/block_kernels.h), last to first:
//   B:  dA = dY · W_out (B, F)    dH = dA ⊙ act'(H) (B, F)    dx = dH · W_in (B, D) [+ dY]   — keeps dY and dH
//   W:  dW_out = dYᵀ · A (D, F)   dW_in = dHᵀ · x (F, D)                                      — reads them back
// The products are the very calls mlp_backward makes, so B followed by W gives mlp_backward's numbers bit for bit.
// The price of splitting: between B and W a stage holds dY (B, D) and dH (B, F) per block on top of the forward's
// x and H.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "dsml/mlp.h"

namespace dsml {

struct MlpInputGradients {
  Eigen::MatrixXd d_input;              // (B, D) = ∂loss/∂X — what the previous stage needs
  std::vector<Eigen::MatrixXd> d_out;   // L × (B, D): dY of block l (∂loss/∂ its branch output), for W
  std::vector<Eigen::MatrixXd> d_pre;   // L × (B, F): dH of block l, for W
};

// B. Throws Error on shapes that do not match (as mlp_backward).
MlpInputGradients mlp_backward_input(const MlpConfig& config, const MlpParams& params, const MlpForward& forward,
                                     const Eigen::MatrixXd& d_output);
// W: the parameter gradients from the forward's stash and B's (A = act(H) recomputed from H, or from x when the
// forward did not keep H). Throws Error if the stashes do not fit the model.
MlpParams mlp_backward_weight(const MlpConfig& config, const MlpParams& params, const MlpForward& forward,
                              const MlpInputGradients& input);

}  // namespace dsml
