// attention_kernel.cpp — the attention core of one layer on one GPU (dsml/planner.h, attention_cost): fused
// (FlashAttention) or unfused (Megatron 2021), what it runs, moves and keeps.
//
// Per GPU: a/t query heads of d_h = h/a, g/t KV heads, q = s/c queries (context parallelism) against s keys,
// micro-batch b. What MFU counts is the full product, 4·b·q·s·(a/t)·d_h = 4·b·q·s·h/t FLOPs forward (QKᵀ and
// scores·V, 2 FLOPs per multiply-add), whether or not the mask makes half of it useless.
//   fused     FlashAttention (Dao et al. 2022; FlashAttention-2, Dao 2023): tiles of Q, K, V stream through on-chip memory; the s×s scores never
//             reach HBM. Forward reads Q, K, V and writes O and the softmax statistics (log-sum-exp, 4 bytes per
//             query and head); backward keeps only those, recomputes the scores and runs 5 products where forward
//             ran 2 (QKᵀ again, then dV, dP, dQ, dK): 2.5× forward. Under a causal mask the blocks above the
//             diagonal are skipped: half the count, as FlashAttention's own benchmarks count it, so the measured
//             forward + backward rates (AttentionSpeed) apply to these FLOPs as they stand.
//   unfused   QKᵀ and scores·V as batched matmuls over the full s×s (the mask is applied to the scores, nothing is
//             skipped); the scale-mask-softmax reads and writes the a/t·b·q·s scores (2 + 2 bytes each) and the
//             dropout reads them, writes its output and a 1-byte mask (+5): 9 bytes a score with dropout, 4
//             without. Backward is twice forward. Kept for backward (Korthikanti et al. 2022, §4.1): the softmax
//             output (2 bytes a score), with dropout its mask and output too (+3) — the 5as²b of their count.
#include <string>

#include "dsml/error.h"
#include "dsml/planner.h"
#include "kernel_time.h"
#include "layer_activations.h"
#include "transformer_shapes.h"

namespace dsml {

AttentionCost attention_cost(const PlannerModel& model, const GpuSpec& gpu, AttentionKernel kernel, double b, int t,
                             int c) {
  planner_detail::validate_model(model);
  planner_detail::validate_gpu(gpu);
  require_positive("micro-batch", b);
  if (t < 1 || c < 1) throw Error("t and c must be >= 1");
  const double s = model.sequence, h = model.hidden, a = model.heads, dh = h / a, q = s / c;
  const double heads = a / t, kv = planner_detail::kv_heads(model) / t;
  AttentionCost cost;
  cost.counted_flops = 4.0 * b * q * s * heads * dh;
  const double scores = heads * b * q * s;
  cost.activation_bytes = planner_detail::attention_kept_bytes(model, kernel, b, t, c);
  if (kernel != AttentionKernel::kUnfused) {
    const double rate = planner_detail::fused_attention_flops(gpu, kernel, q, dh);
    cost.forward_flops = cost.counted_flops * 0.5;
    cost.backward_flops = 2.5 * cost.forward_flops;
    cost.forward_seconds = cost.forward_flops / rate;
    cost.backward_seconds = cost.backward_flops / rate;
    cost.hbm_bytes = 2.0 * b * q * dh * (2 * heads + 2 * kv) + cost.activation_bytes;  // Q, K, V, O, statistics
    return cost;
  }
  using planner_detail::Matmul;
  const Matmul qk{heads * b, q, s, dh, Matmul::kAttentionCore}, pv{heads * b, q, dh, s, Matmul::kAttentionCore};
  const double streamed = (model.dropout ? 9.0 : 4.0) * scores;
  cost.forward_flops = qk.flops() + pv.flops();
  cost.backward_flops = 2.0 * cost.forward_flops;
  cost.forward_seconds = planner_detail::matmul_seconds(qk, gpu) + planner_detail::matmul_seconds(pv, gpu) +
                         planner_detail::stream_seconds(streamed, gpu);
  cost.backward_seconds = 2.0 * cost.forward_seconds;
  cost.hbm_bytes = 2.0 * (qk.elements() + pv.elements()) + streamed;
  return cost;
}

AttentionKernel parse_attention_kernel(const std::string& name) {
  if (name == "flash-attention-2" || name == "fused") return AttentionKernel::kFlash2;
  if (name == "flash-attention-1") return AttentionKernel::kFlash1;
  if (name == "flash-attention-triton") return AttentionKernel::kFlashTriton;
  if (name == "unfused") return AttentionKernel::kUnfused;
  throw Error("attention must be flash-attention-2 (or fused), flash-attention-1, flash-attention-triton or unfused "
              "(the scores through HBM), got \"" + name + "\"");
}
const char* attention_kernel_name(AttentionKernel k) {
  switch (k) {
    case AttentionKernel::kFlash2: return "flash-attention-2";
    case AttentionKernel::kFlash1: return "flash-attention-1";
    case AttentionKernel::kFlashTriton: return "flash-attention-triton";
    case AttentionKernel::kUnfused: break;
  }
  return "unfused";
}

Precision parse_precision(const std::string& name) {
  if (name == "bf16") return Precision::kBf16;
  if (name == "fp8") return Precision::kFp8;
  throw Error("precision must be \"bf16\" or \"fp8\", got \"" + name + "\"");
}
const char* precision_name(Precision p) { return p == Precision::kBf16 ? "bf16" : "fp8"; }

}  // namespace dsml
