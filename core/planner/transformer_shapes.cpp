// transformer_shapes.cpp — the matmul shapes and kernel traffic of a decoder layer (transformer_shapes.h) and the
// parameter count.
//
// Per layer forward on one GPU of a t-way tensor-parallel group, micro-batch b, sequence s, hidden h, a heads of
// d_h = h/a, k KV heads, FFN width f (Narayanan et al. 2021 §3.2, eq. 3 counts the same products for k = a, f = 4h):
//   QKV        (s·b × h) · (h × (h + 2·k·d_h)/t)      6·s·b·h²/t FLOPs for MHA
//   QKᵀ        a/t·b products (s × d_h) · (d_h × s)     2·b·s²·h/t   (unfused only: a fused kernel is priced
//   scores·V   a/t·b products (s × s) · (s × d_h)       2·b·s²·h/t    by attention_kernel.cpp)
//   projection (s·b × h/t) · (h/t × h)                  2·s·b·h²/t
//   FFN        (s·b × h) · (h × f/t), (s·b × f/t) · (f/t × h)   4·s·b·h·f/t (SwiGLU: 6·s·b·h·f/t)
//   logits     (s·b × h) · (h × V/t), last stage only   2·s·b·h·V/t
// With f = 4h: 24·s·b·h²/t + 4·b·s²·h/t per layer — eq. 3's bracket before recomputation.
// Context parallel c: every row count s·b becomes s·b/c and QKᵀ, scores·V take s/c queries against s keys, so the
// c GPUs together run the same FLOPs. MoE layer with E experts, top_k = k, over e GPUs: router (s·b/c × h)·(h × E);
// E/e expert FFNs per GPU, each on s·b·k·e/(c·E) tokens (balanced routing) — k times the dense FFN's FLOPs.
#include "transformer_shapes.h"

#include <algorithm>
#include <string>

#include "dsml/error.h"

namespace dsml::planner_detail {
double ffn_width(const PlannerModel& m) { return m.ffn > 0 ? m.ffn : 4.0 * m.hidden; }
double kv_heads(const PlannerModel& m) { return m.kv_heads > 0 ? m.kv_heads : m.heads; }

namespace {
bool is_gpt(const PlannerModel& m) { return !m.gated_ffn; }  // GPT: biases and LayerNorm (scale + shift)
}  // namespace

void validate_model(const PlannerModel& m) {
  if (m.layers < 1 || m.hidden < 1 || m.heads < 1 || m.sequence < 1 || m.vocabulary < 1)
    throw Error("model \"" + m.name + "\" needs layers, hidden, heads, sequence and vocabulary >= 1");
  if (m.kv_heads < 0 || m.ffn < 0) throw Error("KV heads and FFN width must be >= 0 (0 = the default)");
  if (m.hidden % m.heads != 0)
    throw Error("hidden size " + std::to_string(m.hidden) + " is not divisible by " + std::to_string(m.heads) +
                " heads");
  if (m.heads % static_cast<int>(kv_heads(m)) != 0)
    throw Error(std::to_string(m.heads) + " heads are not divisible by " + std::to_string(m.kv_heads) +
                " KV heads (grouped-query attention shares each KV head among a group of query heads)");
  if (m.experts < 0) throw Error("experts must be >= 0 (0 = a dense model)");
  if (m.experts > 0) {
    if (m.top_k < 1 || m.top_k > m.experts)
      throw Error("top-k must be between 1 and the " + std::to_string(m.experts) + " experts, got " +
                  std::to_string(m.top_k));
    if (m.moe_every < 1 || m.layers % m.moe_every != 0)
      throw Error("the MoE interval " + std::to_string(m.moe_every) + " must be >= 1 and divide the " +
                  std::to_string(m.layers) + " layers");
  }
}

void validate_gpu(const GpuSpec& g) {
  require_positive("GPU peak FLOP/s", g.peak_flops);
  require_non_negative("GPU FP8 peak FLOP/s", g.fp8_peak_flops);
  require_positive("GPU memory (bytes)", g.hbm_bytes);
  require_positive("HBM bandwidth (bytes/s)", g.hbm_bandwidth);
  require_positive("NVLink bandwidth (bytes/s)", g.nvlink_bandwidth);
  require_non_negative("NVLink latency (s)", g.nvlink_latency);
  require_positive("network bandwidth (bytes/s)", g.network_bandwidth);
  require_non_negative("network latency (s)", g.network_latency);
  if (!(g.matmul_in_step > 0 && g.matmul_in_step <= 1))
    throw Error("the share of the measured matmul rate a step reaches must be in (0, 1]");
  const KernelSpeeds& k = g.kernels;
  require_positive("measured matmul FLOP/s", k.matmul_flops);
  require_non_negative("measured FP8 matmul FLOP/s", k.matmul_fp8_flops);
  require_positive("measured HBM bandwidth (bytes/s)", k.hbm_bandwidth);
  if (k.matmul_flops > g.peak_flops || k.hbm_bandwidth > g.hbm_bandwidth || k.matmul_fp8_flops > g.fp8_peak_flops)
    throw Error("a measured kernel speed cannot exceed the datasheet's peak (matmul FLOP/s, FP8, HBM bandwidth)");
  if (k.sms < 1 || k.tile_m < 1 || k.tile_n < 1) throw Error("multiprocessors and tile sizes must be >= 1");
  for (const AttentionSpeed& m : k.attention) {
    if (m.kernel == AttentionKernel::kUnfused || m.head_dim < 1 || m.sequences.empty() ||
        m.flops.size() != m.sequences.size())
      throw Error("a fused attention measurement needs its kernel, head dimension and one FLOP/s per sequence length");
    for (std::size_t i = 0; i < m.sequences.size(); ++i) {
      require_positive("attention sequence length", m.sequences[i]);
      require_positive("attention FLOP/s", m.flops[i]);
      if (i > 0 && !(m.sequences[i] > m.sequences[i - 1])) throw Error("attention sequence lengths must ascend");
    }
  }
}

std::vector<Matmul> layer_matmuls(const PlannerModel& model, const LayerPlace& at, bool attention_core) {
  const double s = model.sequence, h = model.hidden, a = model.heads, dh = h / a, b = at.micro_batch;
  const double kv = kv_heads(model), f = ffn_width(model), tp = at.t, rows = s * b / at.c, q = s / at.c;
  std::vector<Matmul> out;
  out.push_back({1, rows, (h + 2 * kv * dh) / tp, h});           // QKV
  if (attention_core) {
    out.push_back({a / tp * b, q, s, dh, Matmul::kAttentionCore});  // QKᵀ, one per head and sequence
    out.push_back({a / tp * b, q, dh, s, Matmul::kAttentionCore});  // scores·V
  }
  out.push_back({1, rows, h, h / tp});                            // output projection (row-parallel)
  const double up = (model.gated_ffn ? 2 : 1) * f / tp;
  if (!at.moe) {
    out.push_back({1, rows, up, h});                              // FFN up (gate and up for SwiGLU)
    out.push_back({1, rows, h, f / tp});                          // FFN down (row-parallel)
    return out;
  }
  const double E = model.experts, local = E / at.e, tokens = rows * model.top_k * at.e / E;
  out.push_back({1, rows, E, h});                                 // router logits
  out.push_back({local, tokens, up, h});                          // each local expert's up (gate and up)
  out.push_back({local, tokens, h, f / tp});                      // each local expert's down
  return out;
}

Matmul logits_matmul(const PlannerModel& model, double b, int t, int c) {
  return {1, model.sequence * b / c, static_cast<double>(model.vocabulary) / t, static_cast<double>(model.hidden),
          Matmul::kLogits};
}

LayerTraffic layer_traffic(const PlannerModel& model, const LayerPlace& at, bool sequence_parallel) {
  const double h = model.hidden, f = ffn_width(model), b = at.micro_batch;
  const double t = at.t, q = model.sequence / static_cast<double>(at.c), routed = at.moe ? model.top_k : 1;
  LayerTraffic tr;
  tr.replicated = (model.dropout ? 22.0 : 20.0) * q * b * h / (sequence_parallel ? t : 1);
  tr.ffn = routed * (model.gated_ffn ? 6.0 : 4.0) * q * b * f / t;
  return tr;
}

// GPT: biases on every linear and two LayerNorms with scale and shift (Narayanan's 13h per layer);
// Llama: no biases, two RMSNorm scales.
double ffn_parameters(const PlannerModel& m) {
  const double h = m.hidden, f = ffn_width(m);
  return (m.gated_ffn ? 3 : 2) * h * f + (is_gpt(m) ? f + h : 0.0);
}

namespace {
double attention_and_norms(const PlannerModel& m) {
  const double h = m.hidden, dh = h / m.heads, qkv = h + 2 * kv_heads(m) * dh;
  return h * qkv + h * h + (is_gpt(m) ? qkv + h + 4 * h : 2 * h);
}
}  // namespace

double layer_parameters(const PlannerModel& m) { return attention_and_norms(m) + ffn_parameters(m); }

double moe_layer_parameters(const PlannerModel& m) {
  return attention_and_norms(m) + static_cast<double>(m.hidden) * m.experts + m.experts * ffn_parameters(m);
}

int moe_layers(const PlannerModel& m, int layers) { return m.experts > 0 ? layers / m.moe_every : 0; }


double input_embedding_parameters(const PlannerModel& m) {
  const double h = m.hidden;
  return m.vocabulary * h + (m.learned_positions ? m.sequence * h : 0.0);
}
double output_layer_parameters(const PlannerModel& m) { return static_cast<double>(m.vocabulary) * m.hidden; }
double embedding_parameters(const PlannerModel& m) {
  return input_embedding_parameters(m) + (m.tied_embeddings ? 0.0 : output_layer_parameters(m));
}

}  // namespace dsml::planner_detail
