// dsml/memory_accountant.h — bytes per device when training: parameters, gradients, optimizer state,
// activations.
//
// Model states (Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models",
// SC 2020, §3.1): mixed-precision Adam on Ψ parameters keeps
//   2Ψ  fp16 parameters            (what forward and backward read)
//   2Ψ  fp16 gradients             (what backward writes)
//   12Ψ optimizer state, fp32      (master parameters 4Ψ + momentum 4Ψ + variance 4Ψ; the paper's K = 12)
// Plain data parallelism replicates all 16Ψ bytes on every device. ZeRO partitions them over N_d devices:
//   stage 0   2Ψ + 2Ψ + 12Ψ            = 16Ψ
//   stage 1   2Ψ + 2Ψ + 12Ψ/N_d          (optimizer state partitioned, P_os)
//   stage 2   2Ψ + (2 + 12)Ψ/N_d         (+ gradients, P_os+g)
//   stage 3   (2 + 2 + 12)Ψ/N_d          (+ parameters, P_os+g+p; FSDP)
// Paper's example, Ψ = 7.5 B, N_d = 64: 120 GB, 31.4 GB, 16.6 GB, 1.9 GB.
//
// Activations of one transformer layer (Korthikanti et al., "Reducing Activation Recomputation in Large
// Transformer Models", MLSys 2023 / arXiv 2022, §4), sequence length s, micro-batch b, hidden size h, a heads,
// 16-bit activations and 1-byte dropout masks (the paper's constants already include the element sizes):
//   no parallelism                         s·b·h·(34 + 5·a·s/h)
//   tensor parallel t                      s·b·h·(10 + 24/t + 5·a·s/(h·t))
//   tensor + sequence parallel t           s·b·h·(34 + 5·a·s/h)/t
//   selective recomputation                the 5·a·s/h term (attention scores, softmax, its dropout) is dropped
//   full recomputation                     only the layer's input is kept: 2·s·b·h (/t with sequence parallel)
#pragma once

#include <string>

namespace dsml {

// Bytes per parameter under mixed-precision Adam (ZeRO §3.1).
constexpr double kFp16ParameterBytes = 2;
constexpr double kFp16GradientBytes = 2;
constexpr double kAdamStateBytes = 12;  // K: fp32 parameters, momentum, variance

// Bytes per device. total = params + grads + optimizer + activations.
struct MemoryBreakdown {
  double params = 0;
  double grads = 0;
  double optimizer = 0;
  double activations = 0;
  double total = 0;
};

// Model-state bytes per device for `parameters` Ψ > 0 under ZeRO stage 0, 1, 2 or 3 on `dp_devices` N_d ≥ 1
// data-parallel devices, plus `activation_bytes` ≥ 0 (per device, passed through: ZeRO does not partition
// activations). Throws dsml::Error on anything else.
MemoryBreakdown memory_per_device(double parameters, int dp_devices, int zero_stage, double activation_bytes = 0);

enum class Recomputation { kNone, kSelective, kFull };
// "none", "selective", "full" (a request's or the CLI's names); parse throws Error naming the choices.
Recomputation parse_recomputation(const std::string& name);
const char* recomputation_name(Recomputation recomputation);

// Activation bytes one transformer layer keeps for backward, per device (Korthikanti et al., above). All sizes
// > 0: sequence s (tokens), micro_batch b, hidden h, heads a; tensor_parallel t ≥ 1. sequence_parallel shards
// the parts tensor parallelism leaves replicated (layer norms, dropouts) along the sequence.
double transformer_layer_activation_bytes(double sequence, double micro_batch, double hidden, double heads,
                                          int tensor_parallel = 1, bool sequence_parallel = false,
                                          Recomputation recomputation = Recomputation::kNone);

// The course's MLP block (dsml/mlp.h), batch of B rows: block(x) = [x +] act(x·W_inᵀ)·W_outᵀ, x (B, D),
// H = x·W_inᵀ (B, F). Exactly what mlp_forward keeps for mlp_backward, per block:
//   x (B, D)   the block's input: dW_in = dHᵀ·x
//   H (B, F)   the pre-activation: backward recomputes A = act(H) for dW_out = dYᵀ·A and act'(H) for
//              dH = dA ⊙ act'(H) — one tensor serves any activation (ReLU, GeLU, tanh)
// so B·(D + F) values. The block's output is the next block's x and is counted there; the last output is the
// loss's input. With keep_pre_activations = false (mlp_forward's keep_activations = false: checkpointing at
// block boundaries, Chen et al. 2016) only x is kept: B·D. All sizes > 0.
double mlp_block_activation_values(double batch, double width, double hidden, bool keep_pre_activations = true);

// blocks · mlp_block_activation_values · element_bytes: the activations an MLP stack of `blocks` ≥ 1 blocks
// keeps for backward, element_bytes > 0 (8 for the course's doubles, 4 for float32, 2 for fp16/bf16).
double mlp_stack_activation_bytes(double batch, double width, double hidden, int blocks, double element_bytes,
                                  bool keep_pre_activations = true);

}  // namespace dsml
