// transformer_shapes.h (internal to core/planner) — what one transformer layer runs on one GPU: its matmuls as
// (count, m, n, k) shapes and the bytes its memory-bound kernels move, for a micro-batch of b sequences under
// t-way tensor parallelism (Megatron's column/row split, Shoeybi et al. 2019). Forward pass only; the step planner
// multiplies by the passes it runs. The attention core is attention_kernel.cpp's; activations layer_activations.cpp's.
#pragma once

#include <vector>

#include "dsml/planner.h"

namespace dsml::planner_detail {

// `count` independent products of an (m × k) by a (k × n) matrix: 2·m·n·k FLOPs each.
struct Matmul {
  enum Kind { kLinear, kAttentionCore, kLogits };
  double count = 1, m = 0, n = 0, k = 0;
  Kind kind = kLinear;  // kLinear: a layer's weights (FP8 under Precision::kFp8); kAttentionCore: QKᵀ, scores·V
  double flops() const { return count * 2.0 * m * n * k; }
  // Elements read and written: both operands and the product.
  double elements() const { return count * (m * k + k * n + m * n); }
};

// Where one layer runs: micro-batch b under t-way tensor, c-way context and e-way expert parallelism; moe: the
// layer's FFN is the model's experts (a router and top_k expert FFNs per token) rather than one dense FFN.
struct LayerPlace {
  double micro_batch = 1;
  int t = 1, c = 1, e = 1;
  bool moe = false;
};

// Per layer forward, per GPU: QKV, (attention_core: QKᵀ, scores·V), output projection, FFN up (gate and up for
// SwiGLU), FFN down. Context parallelism gives each GPU s/c of the queries against all s keys; an MoE layer adds the
// router (s/c·b × h)·(h × experts) and runs experts/e expert FFNs on this GPU, each on s/c·b·top_k·e/experts tokens.
std::vector<Matmul> layer_matmuls(const PlannerModel& model, const LayerPlace& place, bool attention_core);
// The output layer (logits), per GPU: (s/c·b × h) by (h × V/t).
Matmul logits_matmul(const PlannerModel& model, double micro_batch, int t, int c = 1);

// Bytes the memory-bound kernels of one layer's forward move, per GPU (16-bit values, 1-byte dropout masks).
struct LayerTraffic {
  double replicated = 0;  // 2 norms (read + write s·b·h) and 2 residual adds (read 2, write 1; with dropout also
                          // its mask and output: GPT's bias-dropout-add) — 20·s·b·h, 22 with dropout;
                          // sequence parallelism divides it by t
  double ffn = 0;         // the activation on s·b·f/t (GeLU: read + write; SwiGLU: read two, write one)
};
// Context parallelism divides every term by c; an MoE layer's FFN term is top_k times the dense one.
LayerTraffic layer_traffic(const PlannerModel& model, const LayerPlace& place, bool sequence_parallel);

// Weights of one layer (attention, FFN, norms, GPT's biases) and of the embeddings (input table, GPT's positions,
// Llama's untied output layer), elements. An MoE layer: attention, norms, the router (h × experts) and `experts`
// FFNs; ffn_parameters is one FFN (with GPT's biases). moe_layers: how many of `layers` are MoE layers.
double layer_parameters(const PlannerModel& model);
double moe_layer_parameters(const PlannerModel& model);
double ffn_parameters(const PlannerModel& model);
double embedding_parameters(const PlannerModel& model);
double input_embedding_parameters(const PlannerModel& model);  // the token table and GPT's positions
double output_layer_parameters(const PlannerModel& model);     // V·h (the tied table's copy on the last stage)
int moe_layers(const PlannerModel& model, int layers);

double ffn_width(const PlannerModel& model);
double kv_heads(const PlannerModel& model);

// Throws dsml::Error unless the model's sizes are positive and consistent (heads | hidden, kv_heads | heads; for
// MoE, 1 ≤ top_k ≤ experts and moe_every dividing the layers).
void validate_model(const PlannerModel& model);
void validate_gpu(const GpuSpec& gpu);

}  // namespace dsml::planner_detail
