// transformer_shapes.h (internal to core/planner) — what one transformer layer runs on one GPU: its matmuls as
// (count, m, n, k) shapes and the bytes its memory-bound kernels move, for a micro-batch of b sequences under
// t-way tensor parallelism (Megatron's column/row split, Shoeybi et al. 2019). Forward pass only; the step planner
// multiplies by the passes it runs.
#pragma once

#include <vector>

#include "dsml/planner.h"

namespace dsml::planner_detail {

// `count` independent products of an (m × k) by a (k × n) matrix: 2·m·n·k FLOPs each, and (mk + kn + mn)
// 16-bit elements read or written each.
struct Matmul {
  double count = 1, m = 0, n = 0, k = 0;
  bool attention_core = false;  // the s×s products (scores, scores·V) selective recomputation redoes
  double flops() const { return count * 2.0 * m * n * k; }
  double bytes() const { return count * 2.0 * (m * k + k * n + m * n); }
};

// Per layer forward, per GPU: QKV, QKᵀ, scores·V, output projection, FFN up (gate and up for SwiGLU), FFN down.
std::vector<Matmul> layer_matmuls(const PlannerModel& model, double micro_batch, int t);
// The output layer (logits), per GPU: (s·b × h) by (h × V/t).
Matmul logits_matmul(const PlannerModel& model, double micro_batch, int t);

// Bytes the memory-bound kernels of one layer's forward move, per GPU (16-bit values, 1-byte dropout masks).
struct LayerTraffic {
  double replicated = 0;      // 2 layer norms (read + write s·b·h) and 2 bias-dropout-residual adds (read 2, write
                              // 1, mask) — 22·s·b·h; sequence parallelism divides it by t
  double ffn = 0;             // bias + GeLU on s·b·f/t (read + write), SwiGLU reads two such tensors
  double attention_core = 0;  // scale-mask-softmax (read + write) and its dropout (read + write + mask) over the
                              // a/t·b·s² scores: 9 bytes each
};
LayerTraffic layer_traffic(const PlannerModel& model, double micro_batch, int t, bool sequence_parallel);

// Seconds one matmul takes on `gpu`: its roofline, max(FLOPs/(η_gemm·peak), bytes/(η_hbm·HBM bandwidth)).
double matmul_seconds(const Matmul& mm, const GpuSpec& gpu);
// Seconds a memory-bound kernel moving `bytes` takes: bytes/(η_hbm·HBM bandwidth).
double stream_seconds(double bytes, const GpuSpec& gpu);

// Weights of one layer (attention, FFN, norms, GPT's biases) and of the embeddings (input table, GPT's positions,
// Llama's untied output layer), elements.
double layer_parameters(const PlannerModel& model);
double embedding_parameters(const PlannerModel& model);

// Throws dsml::Error unless the model's sizes are positive and consistent (heads | hidden, kv_heads | heads).
void validate_model(const PlannerModel& model);
void validate_gpu(const GpuSpec& gpu);

}  // namespace dsml::planner_detail
