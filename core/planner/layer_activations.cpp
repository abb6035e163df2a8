// layer_activations.cpp — what one decoder layer keeps for its backward (layer_activations.h), tensor by tensor.
//
// Per GPU for q = s/c tokens of b sequences, hidden h, FFN width f, a query heads and g KV heads of d_h, t-way
// tensor parallelism; 16-bit values (2 bytes), 1-byte dropout masks. Korthikanti et al. 2022 (§4.1) count the same
// tensors for GPT; this derivation is theirs with the architecture left open:
//   replicated over t (divided by t only with sequence parallelism):
//     the two norms' inputs 2·2qbh, the attention's input (the first norm's output) 2qbh, the FFN's input 2qbh,
//     and with dropout the masks after attention and after the FFN, qbh each          → 8qbh, 10qbh with dropout
//   split over t:
//     Q 2qbh, K and V 2·2qb·g·d_h, attention's output (the projection's input) 2qbh,
//     the FFN's hidden: GeLU's input and output 2·2qbf, SwiGLU's gate, up and their product 3·2qbf,
//     the attention core's kept scores or statistics (attention_kept_bytes)
// GPT (f = 4h, g = a, dropout, unfused): sbh(10 + 24/t + 5as/(ht)) — Korthikanti's equation, recovered exactly.
// Llama (SwiGLU, GQA, RMSNorm, no dropout, fused attention) keeps 8qbh + qbh(4 + 4g/a + 6f/h)/t + the statistics.
// Selective recomputation drops the unfused scores (recomputed); a fused kernel keeps none to drop. Full
// recomputation keeps only the layer's input, 2qbh (/t with sequence parallelism). FP8 keeps the linear layers'
// inputs (the attention and FFN inputs, the projection's and the down projection's) as 1-byte copies.
// An MoE layer keeps its FFN's tensors for each of the top_k experts a token visits (the dispatched input and the
// hidden), top_k times the dense FFN's (expert weights are balanced: each GPU holds its share of the tokens).
#include "layer_activations.h"

namespace dsml::planner_detail {

double attention_kept_bytes(const PlannerModel& model, AttentionKernel kernel, double b, int t, int c) {
  const double q = model.sequence / static_cast<double>(c), heads = static_cast<double>(model.heads) / t;
  if (kernel != AttentionKernel::kUnfused) return 4.0 * heads * b * q;
  return (model.dropout ? 5.0 : 2.0) * heads * b * q * model.sequence;
}

double layer_activation_bytes(const PlannerModel& model, const LayerPlace& at, const LayerActivationOptions& o) {
  const double h = model.hidden, f = ffn_width(model), b = at.micro_batch, t = at.t;
  const double q = model.sequence / static_cast<double>(at.c), qbh = q * b * h;
  const double shard_replicated = o.sequence_parallel ? t : 1.0;
  if (o.recomputation == Recomputation::kFull) return 2.0 * qbh / shard_replicated;
  const double linear_input = o.precision == Precision::kFp8 ? 1.0 : 2.0;  // bytes a kept matmul input takes
  const double mask = model.dropout ? 1.0 : 0.0;
  const double routed = at.moe ? model.top_k : 1;
  // Replicated: norm inputs, the attention's input, the FFN's input (once per routed copy), the dropout masks.
  const double replicated =
      (2 * 2.0 + linear_input + routed * linear_input + 2 * mask) * qbh / shard_replicated;
  const double dh = h / model.heads, kv = kv_heads(model);
  const double attention_tensors = (2.0 + 2.0 * 2.0 * kv * dh / h + linear_input) * qbh;  // Q, K, V, output
  const double ffn_hidden = model.gated_ffn ? (2.0 + 2.0 + linear_input) * q * b * f  // gate, up, their product
                                            : (2.0 + linear_input) * q * b * f;        // GeLU's input, output
  double split = (attention_tensors + routed * ffn_hidden) / t;
  const bool drop_scores = o.recomputation == Recomputation::kSelective;
  if (!drop_scores) split += attention_kept_bytes(model, o.attention, b, at.t, at.c);
  return replicated + split;
}

}  // namespace dsml::planner_detail
