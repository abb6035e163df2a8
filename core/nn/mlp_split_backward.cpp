// mlp_split_backward.cpp — mlp_backward (mlp.cpp) cut into B and W; see dsml/mlp_split_backward.h.
#include "dsml/mlp_split_backward.h"

#include <string>
#include <utility>

#include "dsml/block_kernels.h"
#include "dsml/error.h"
#include "dsml/gemm.h"

namespace dsml {
namespace {

// H of block l: kept by the forward, or recomputed from x_l (checkpointing) — the same call as in mlp_backward.
Eigen::MatrixXd pre_of(const MlpForward& forward, const Eigen::MatrixXd& w_in, std::size_t l) {
  return forward.pre.empty() ? pre_activation(forward.inputs[l], w_in) : forward.pre[l];
}

}  // namespace

MlpInputGradients mlp_backward_input(const MlpConfig& config, const MlpParams& params, const MlpForward& forward,
                                     const Eigen::MatrixXd& d_output) {
  check_shapes(config, params);
  const std::size_t layers = params.blocks.size();
  if (forward.inputs.size() != layers || (!forward.pre.empty() && forward.pre.size() != layers))
    throw Error("the forward pass kept " + std::to_string(forward.inputs.size()) + " block inputs, the model has " +
                std::to_string(layers) + " blocks");
  if (d_output.rows() != forward.output.rows() || d_output.cols() != config.width)
    throw Error("d_output must match the output, " + std::to_string(forward.output.rows()) + " x " +
                std::to_string(config.width));
  MlpInputGradients grads;
  grads.d_out.resize(layers);
  grads.d_pre.resize(layers);
  Eigen::MatrixXd dy = d_output;  // (B, D)
  for (std::size_t l = layers; l-- > 0;) {
    const MlpBlock& block = params.blocks[l];
    const Eigen::MatrixXd h = pre_of(forward, block.w_in, l);                                        // (B, F)
    BlockInputGradients<double> b = block_backward_input<double>(config.activation, dy, h, block.w_in,
                                                                  block.w_out);  // dH (B, F), dx (B, D)
    if (config.residual) b.d_x += dy;
    grads.d_out[l] = std::move(dy);
    grads.d_pre[l] = std::move(b.d_pre);
    dy = std::move(b.d_x);
  }
  grads.d_input = std::move(dy);
  return grads;
}

MlpParams mlp_backward_weight(const MlpConfig& config, const MlpParams& params, const MlpForward& forward,
                              const MlpInputGradients& input) {
  check_shapes(config, params);
  const std::size_t layers = params.blocks.size();
  if (forward.inputs.size() != layers || input.d_out.size() != layers || input.d_pre.size() != layers)
    throw Error("the weight gradient needs B's dY and dH for all " + std::to_string(layers) + " blocks, got " +
                std::to_string(input.d_out.size()));
  MlpParams grads;
  grads.blocks.resize(layers);
  for (std::size_t l = 0; l < layers; ++l) {
    const Eigen::MatrixXd& x = forward.inputs[l];  // (B, D)
    const Eigen::MatrixXd a = activate(config.activation, pre_of(forward, params.blocks[l].w_in, l));  // (B, F)
    BlockWeightGradients<double> w = block_backward_weight<double>(input.d_out[l], a, input.d_pre[l], x);
    grads.blocks[l].w_out = std::move(w.d_w_out);  // (D, F)
    grads.blocks[l].w_in = std::move(w.d_w_in);    // (F, D)
  }
  return grads;
}

}  // namespace dsml
