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

// Where one layer runs: micro-batch b under t-way tensor, c-way context and e-way expert parallelism; moe: the
// layer's FFN is the model's experts (a router and top_k expert FFNs per token) rather than one dense FFN.
struct LayerPlace {
  double micro_batch = 1;
  int t = 1, c = 1, e = 1;
  bool moe = false;
};

// Per layer forward, per GPU: QKV, QKᵀ, scores·V, output projection, FFN up (gate and up for SwiGLU), FFN down.
// Context parallelism gives each GPU s/c of the queries against all s keys; an MoE layer adds the router
// (s/c·b × h)·(h × experts) and runs experts/e expert FFNs on this GPU, each on s/c·b·top_k·e/experts tokens.
std::vector<Matmul> layer_matmuls(const PlannerModel& model, const LayerPlace& place);
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
// Context parallelism divides every term by c; an MoE layer's FFN term is top_k times the dense one.
LayerTraffic layer_traffic(const PlannerModel& model, const LayerPlace& place, bool sequence_parallel);

// Seconds one matmul takes on `gpu`: its roofline, max(FLOPs/(η_gemm·peak), bytes/(η_hbm·HBM bandwidth)).
double matmul_seconds(const Matmul& mm, const GpuSpec& gpu);
// Seconds a memory-bound kernel moving `bytes` takes: bytes/(η_hbm·HBM bandwidth).
double stream_seconds(double bytes, const GpuSpec& gpu);

// Weights of one layer (attention, FFN, norms, GPT's biases) and of the embeddings (input table, GPT's positions,
// Llama's untied output layer), elements. An MoE layer: attention, norms, the router (h × experts) and `experts`
// FFNs; ffn_parameters is one FFN (with GPT's biases). moe_layers: how many of the layers are MoE layers.
double layer_parameters(const PlannerModel& model);
double moe_layer_parameters(const PlannerModel& model);
double ffn_parameters(const PlannerModel& model);
double embedding_parameters(const PlannerModel& model);
int moe_layers(const PlannerModel& model, int layers);

// Bytes one MoE layer keeps beyond its dense counterpart (Korthikanti's FFN activations, s·b·(3h + 4f)/t for a
// GeLU FFN, s·b·(3h + 6f)/t for SwiGLU, kept top_k times instead of once), per GPU for s/c of the sequence; 0
// under full recomputation, which keeps only the layer's input.
double moe_extra_activation_bytes(const PlannerModel& model, const LayerPlace& place, Recomputation r);

// Throws dsml::Error unless the model's sizes are positive and consistent (heads | hidden, kv_heads | heads; for
// MoE, 1 ≤ top_k ≤ experts and moe_every dividing the layers).
void validate_model(const PlannerModel& model);
void validate_gpu(const GpuSpec& gpu);

}  // namespace dsml::planner_detail
