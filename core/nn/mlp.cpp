// mlp.cpp — explicit forward and backward passes of the block stack (no autodiff).
//
// Per block l, with x = x_l (B, D):
//   H = x · W_inᵀ          (B, F) = (B, D) · (F, D)ᵀ
//   A = act(H)             (B, F)
//   Y = A · W_outᵀ         (B, D) = (B, F) · (D, F)ᵀ
//   x_{l+1} = [x +] Y
// Backward walks the blocks in reverse, needing x_l and H_l for each; H_l is either kept or recomputed by the
// very same `pre_activation` call, which is why recomputed gradients are bit-identical to kept ones.
// Each product is a kernel of dsml/block_kernels.h: the lab's wasm kernels run the same code on a rank's slice.
#include <string>

#include "dsml/block_kernels.h"
#include "dsml/error.h"
#include "dsml/mlp.h"

namespace dsml {

namespace {

void require_batch(const MlpConfig& config, const Eigen::MatrixXd& m, const char* name) {
  if (m.rows() >= 1 && m.cols() == config.width) return;
  throw Error(std::string(name) + " must be B x D = B x " + std::to_string(config.width) + " with B >= 1, got " +
              std::to_string(m.rows()) + " x " + std::to_string(m.cols()));
}

}  // namespace

MlpForward mlp_forward(const MlpConfig& config, const MlpParams& params, const Eigen::MatrixXd& x,
                       bool keep_activations) {
  check_shapes(config, params);
  require_batch(config, x, "input X");
  MlpForward forward;
  forward.inputs.reserve(params.blocks.size());
  Eigen::MatrixXd current = x;  // x_l (B, D)
  for (const MlpBlock& block : params.blocks) {
    Eigen::MatrixXd h = pre_activation(current, block.w_in);                             // (B, F)
    Eigen::MatrixXd y = block_out_forward(activate(config.activation, h), block.w_out);  // (B, D)
    forward.inputs.push_back(current);
    if (keep_activations) forward.pre.push_back(std::move(h));
    current = config.residual ? Eigen::MatrixXd(current + y) : std::move(y);
  }
  forward.output = std::move(current);
  return forward;
}

Eigen::MatrixXd mlp_predict(const MlpConfig& config, const MlpParams& params, const Eigen::MatrixXd& x) {
  check_shapes(config, params);
  require_batch(config, x, "input X");
  Eigen::MatrixXd current = x;
  for (const MlpBlock& block : params.blocks) {
    Eigen::MatrixXd y =
        block_out_forward(activate(config.activation, pre_activation(current, block.w_in)), block.w_out);
    current = config.residual ? Eigen::MatrixXd(current + y) : std::move(y);
  }
  return current;
}

MlpGradients mlp_backward(const MlpConfig& config, const MlpParams& params, const MlpForward& forward,
                          const Eigen::MatrixXd& d_output) {
  check_shapes(config, params);
  const std::size_t layers = params.blocks.size();
  if (forward.inputs.size() != layers)
    throw Error("forward pass kept " + std::to_string(forward.inputs.size()) + " block inputs, the model has " +
                std::to_string(layers) + " blocks");
  if (!forward.pre.empty() && forward.pre.size() != layers)
    throw Error("forward pass kept " + std::to_string(forward.pre.size()) +
                " pre-activations, expected 0 (recompute) or " + std::to_string(layers));
  const Eigen::Index batch = forward.output.rows();
  if (d_output.rows() != batch || d_output.cols() != config.width)
    throw Error("d_output must match the output, " + std::to_string(batch) + " x " + std::to_string(config.width) +
                ", got " + std::to_string(d_output.rows()) + " x " + std::to_string(d_output.cols()));

  MlpGradients grads;
  grads.params.blocks.resize(layers);
  Eigen::MatrixXd dy = d_output;  // ∂loss/∂x_{l+1} (B, D)
  for (std::size_t i = layers; i-- > 0;) {
    const MlpBlock& block = params.blocks[i];
    const Eigen::MatrixXd& x = forward.inputs[i];                                                    // (B, D)
    const Eigen::MatrixXd h = forward.pre.empty() ? pre_activation(x, block.w_in) : forward.pre[i];  // (B, F)
    const Eigen::MatrixXd a = activate(config.activation, h);                                        // (B, F)

    // dW_out (D, F) = dYᵀ·A, dA (B, F) = dY·W_out; then dH = dA ⊙ act'(H), dW_in (F, D) = dHᵀ·x, dx = dH·W_in.
    BlockOutGradients<double> out = block_out_backward(dy, a, block.w_out);
    BlockInGradients<double> in = block_in_backward(config.activation, out.d_a, h, x, block.w_in);
    grads.params.blocks[i].w_out = std::move(out.d_w_out);
    grads.params.blocks[i].w_in = std::move(in.d_w_in);
    Eigen::MatrixXd dx = std::move(in.d_x);  // (B, D)
    if (config.residual) dx += dy;           // identity path
    dy = std::move(dx);
  }
  grads.d_input = std::move(dy);
  return grads;
}

}  // namespace dsml
