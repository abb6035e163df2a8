// dsml/mlp.h — the model every training lesson parallelises: a stack of L identical MLP blocks.
//
//   block(x) = [x +] act(x · W_inᵀ) · W_outᵀ          x: (B, D) one example per row
//   W_in: (F, D)   W_out: (D, F)   D = model width, F = hidden width (4·D in a transformer)
//
// Forward and backward are written out by hand (no autodiff) so that a parallel strategy can cut them
// exactly where Megatron, GPipe or ZeRO cut them: W_in by rows / W_out by columns for tensor parallelism,
// blocks for pipeline stages, whole tensors for FSDP. Everything is double precision, so a parallel run can
// be compared with the single-device reference to ~1e-15, not "close enough in float32".
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

namespace dsml {

enum class Activation { relu, gelu, tanh };

// "relu", "gelu" (tanh approximation, Hendrycks & Gimpel 2016), "tanh"; throws Error on anything else.
Activation parse_activation(const std::string& name);
const char* activation_name(Activation activation);

// act(h) and act'(h), elementwise. GELU uses 0.5·h·(1 + tanh(√(2/π)·(h + 0.044715·h³))).
Eigen::MatrixXd activate(Activation activation, const Eigen::MatrixXd& h);
Eigen::MatrixXd activate_derivative(Activation activation, const Eigen::MatrixXd& h);

struct MlpConfig {
  int layers = 2;    // L, number of blocks
  int width = 8;     // D, model width (input = output width)
  int hidden = 32;   // F, hidden width
  Activation activation = Activation::gelu;
  bool residual = true;  // block(x) = x + branch(x) when true, branch(x) otherwise
};

// Field by field, every field: mlp_params.cpp fails to compile when MlpConfig grows and this is not updated, so a
// memo keyed on a config (the lab's teacher) cannot go stale silently.
bool operator==(const MlpConfig& a, const MlpConfig& b);
inline bool operator!=(const MlpConfig& a, const MlpConfig& b) { return !(a == b); }

// Throws Error unless layers, width and hidden are ≥ 1.
void validate(const MlpConfig& config);

// One block's weights. A plain struct of matrices, so a strategy can slice, scatter or shard it.
struct MlpBlock {
  Eigen::MatrixXd w_in;   // (F, D)
  Eigen::MatrixXd w_out;  // (D, F)
};

// Parameters, and — with the same shape — their gradients. blocks[l] is block l (input side first).
struct MlpParams {
  std::vector<MlpBlock> blocks;
};

// Throws Error naming the first tensor whose shape differs from what `config` says ("blocks[1].w_out must be
// 8 x 32, got 8 x 16").
void check_shapes(const MlpConfig& config, const MlpParams& params, const char* what = "params");

// Deterministic initialisation from a seed (identical natively and in wasm):
//   W_in  ~ N(0, 1/D)   (LeCun: keeps the pre-activations ~ N(0, 1) for unit-variance inputs)
//   W_out ~ N(0, 1/F)
// drawn block by block, W_in then W_out, each in row-major order, from std::mt19937_64(seed) through
// Box–Muller (std::normal_distribution is implementation-defined, so it is not used).
MlpParams init_mlp(const MlpConfig& config, std::uint64_t seed);

// All zeros with the shapes of `config` — the starting value of a gradient accumulator.
MlpParams zeros_like(const MlpConfig& config);

// The tensors in a fixed order (blocks[0].w_in, blocks[0].w_out, blocks[1].w_in, …) — what an optimizer
// walks over. Pointers into `params`; valid while `params` is not resized.
std::vector<Eigen::MatrixXd*> parameter_tensors(MlpParams& params);
std::vector<const Eigen::MatrixXd*> parameter_tensors(const MlpParams& params);
std::size_t parameter_count(const MlpConfig& config);  // L · 2 · D · F

// What forward keeps for backward. inputs[l] is block l's input x_l (B, D), l = 0 … L−1 (x_0 = X).
// pre[l] = x_l · W_inᵀ (B, F) is kept when keep_activations was true and is empty otherwise:
// backward then recomputes it from x_l (activation checkpointing at block boundaries, Chen et al. 2016),
// trading one (B, D)·(D, F) product per block for L·B·F stored doubles.
struct MlpForward {
  Eigen::MatrixXd output;                // (B, D)
  std::vector<Eigen::MatrixXd> inputs;   // L × (B, D)
  std::vector<Eigen::MatrixXd> pre;      // L × (B, F), or empty when recomputing
};

// Throws Error if X is not (B, D) with B ≥ 1 or params do not match config.
MlpForward mlp_forward(const MlpConfig& config, const MlpParams& params, const Eigen::MatrixXd& x,
                       bool keep_activations = true);

// Output only, nothing kept (inference, the teacher).
Eigen::MatrixXd mlp_predict(const MlpConfig& config, const MlpParams& params, const Eigen::MatrixXd& x);

struct MlpGradients {
  Eigen::MatrixXd d_input;  // (B, D) = ∂loss/∂X — what a pipeline stage sends to the previous stage
  MlpParams params;         // ∂loss/∂W, same shapes as the parameters
};

// Backpropagation through the stack given d_output = ∂loss/∂output (B, D). Per block, last to first:
//   dW_out = dYᵀ · A  (D, F)       dA = dY · W_out  (B, F)       dH = dA ⊙ act'(H)
//   dW_in  = dHᵀ · x  (F, D)       dx = dH · W_in   (B, D)  [+ dY with the residual]
MlpGradients mlp_backward(const MlpConfig& config, const MlpParams& params, const MlpForward& forward,
                          const Eigen::MatrixXd& d_output);

// Mean squared error over all B·D entries: loss = Σ (Y − T)² / (B·D). Averaging over the batch (not summing)
// means data-parallel ranks with equal shards average their gradients to get the full-batch gradient.
double mse_loss(const Eigen::MatrixXd& output, const Eigen::MatrixXd& target);
// ∂loss/∂Y = 2·(Y − T) / (B·D), (B, D).
Eigen::MatrixXd mse_loss_gradient(const Eigen::MatrixXd& output, const Eigen::MatrixXd& target);

}  // namespace dsml
