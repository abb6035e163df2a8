// step_planner.cpp — one training step of a transformer on a GPU cluster, split into its parts (dsml/planner.h has
// the model of each term; this file adds them up in the order a 1F1B pipeline runs them).
//
// Per micro-batch on the slowest (last) stage: L/p layers of passes × (matmuls + memory-bound kernels), passes =
// forward 1 + backward 2 (a backward runs two products of each forward's size: dgrad and wgrad) + what
// recomputation reruns, plus the logits' forward and backward. m micro-batches run back to back; the 1F1B
// pipeline adds (p − 1)/v more slots of that stage (Narayanan et al. 2021 §2.2: bubble fraction (p − 1)/(v·m)).
// A stage's layers are dense ones and, for a mixture of experts, MoE ones (every moe_every-th); each kind priced by
// its own shapes. Collectives are the course's closed forms (collective_cost.h), memory the course's accountant
// (memory_accountant.h) — nothing is priced twice. The rules a layout must meet are in layout_rules.cpp.
#include <algorithm>
#include <string>

#include "dsml/collective_cost.h"
#include "dsml/error.h"
#include "dsml/planner.h"
#include "transformer_shapes.h"

namespace dsml {
namespace {

using planner_detail::LayerPlace;
using planner_detail::Matmul;

CostModel link(double latency, double bandwidth) { return CostModel::from_bandwidth(latency, bandwidth); }

double collective(const char* name, int ranks, double bytes, const CostModel& on) {
  if (ranks <= 1) return 0.0;
  return closed_form_time(name, std::string(name) == "all-to-all" ? "pairwise" : "ring", ranks, bytes, on).total();
}

// Seconds of the layer's products and kernels for one micro-batch: forward, backward (2×) and the recomputation.
struct LayerSeconds {
  double forward = 0, attention_core = 0;  // attention_core: the part selective recomputation reruns
};
LayerSeconds layer_seconds(const PlannerModel& model, const GpuSpec& gpu, const LayerPlace& at, bool sp) {
  LayerSeconds s;
  for (const Matmul& mm : planner_detail::layer_matmuls(model, at)) {
    const double sec = planner_detail::matmul_seconds(mm, gpu);
    s.forward += sec;
    if (mm.attention_core) s.attention_core += sec;
  }
  const auto tr = planner_detail::layer_traffic(model, at, sp);
  s.forward += planner_detail::stream_seconds(tr.replicated + tr.ffn + tr.attention_core, gpu);
  s.attention_core += planner_detail::stream_seconds(tr.attention_core, gpu);
  return s;
}

double recomputed(const LayerSeconds& s, Recomputation r) {
  return r == Recomputation::kFull ? s.forward : r == Recomputation::kSelective ? s.attention_core : 0.0;
}

// FLOPs of one whole layer (all GPUs) for one sequence, and the attention core's part of them.
struct LayerFlops {
  double all = 0, core = 0;
};
LayerFlops layer_flops(const PlannerModel& model, bool moe) {
  LayerFlops f;
  for (const Matmul& mm : planner_detail::layer_matmuls(model, {1.0, 1, 1, 1, moe})) {
    f.all += mm.flops();
    if (mm.attention_core) f.core += mm.flops();
  }
  return f;
}

}  // namespace

double planner_parameters(const PlannerModel& model) {
  planner_detail::validate_model(model);
  const int moe = planner_detail::moe_layers(model, model.layers);
  return (model.layers - moe) * planner_detail::layer_parameters(model) +
         moe * planner_detail::moe_layer_parameters(model) + planner_detail::embedding_parameters(model);
}

double planner_active_parameters(const PlannerModel& model) {
  const double idle = model.experts > 0 ? model.experts - model.top_k : 0;
  return planner_parameters(model) -
         planner_detail::moe_layers(model, model.layers) * idle * planner_detail::ffn_parameters(model);
}

double narayanan_flops_per_iteration(const PlannerModel& m, double B) {
  require_positive("batch size", B);
  const double s = m.sequence, l = m.layers, h = m.hidden, V = m.vocabulary;
  return 96.0 * B * s * l * h * h * (1.0 + s / (6.0 * h) + V / (16.0 * l * h));
}

StepPlan plan_step(const PlannerModel& model, const ClusterSpec& cluster, const PlannerLayout& layout) {
  planner_detail::validate_model(model);
  planner_detail::validate_gpu(cluster.gpu);
  const std::string problem = layout_error(model, cluster, layout);
  if (!problem.empty()) throw Error(problem);
  const GpuSpec& gpu = cluster.gpu;
  const PlannerLayout& l = layout;
  const int t = l.t, c = l.c, p = l.p, v = l.v, d = l.d, e = l.e, G = cluster.gpus_per_node;
  const double b = l.micro_batch, s = model.sequence, h = model.hidden;
  const int m = l.global_batch / (d * l.micro_batch), per_stage = model.layers / p;
  const int moe_stage = planner_detail::moe_layers(model, per_stage), dense_stage = per_stage - moe_stage;
  const Recomputation redo_kind = l.recomputation;

  StepPlan plan;
  plan.layout = l;
  plan.gpus = cluster.nodes * G;
  plan.micro_batches = m;
  plan.parameters = planner_parameters(model);
  plan.active_parameters = planner_active_parameters(model);
  plan.capacity = gpu.hbm_bytes;

  // FLOPs per step: every product, times the passes that run it (forward 1 + backward 2 + recomputation).
  const int moe_all = planner_detail::moe_layers(model, model.layers);
  const double B = l.global_batch;
  auto step_flops = [&](const LayerFlops& f) {
    return 3.0 * f.all + (redo_kind == Recomputation::kFull ? f.all : redo_kind == Recomputation::kSelective ? f.core : 0.0);
  };
  plan.hardware_flops = B * ((model.layers - moe_all) * step_flops(layer_flops(model, false)) +
                             (moe_all > 0 ? moe_all * step_flops(layer_flops(model, true)) : 0.0) +
                             3.0 * planner_detail::logits_matmul(model, 1.0, 1).flops());
  plan.model_flops = B * s * (6.0 * plan.active_parameters + 12.0 * model.layers * h * s);

  // Compute: the slowest stage (the last: its layers and the logits) per micro-batch; each GPU holds s/c tokens.
  const LayerSeconds dense_s = layer_seconds(model, gpu, {b, t, c, e, false}, l.sequence_parallel);
  const LayerSeconds moe_s =  // a dense model has no MoE layer to price (its expert shapes would divide by 0)
      moe_stage > 0 ? layer_seconds(model, gpu, {b, t, c, e, true}, l.sequence_parallel) : LayerSeconds{};
  auto pass_seconds = [&](const LayerSeconds& x) { return 3.0 * x.forward + recomputed(x, redo_kind); };
  const double logits_s =
      3.0 * planner_detail::matmul_seconds(planner_detail::logits_matmul(model, b / c, t), gpu);
  const double stage_compute = dense_stage * pass_seconds(dense_s) + moe_stage * pass_seconds(moe_s) + logits_s;

  // Tensor parallelism: Megatron's g (forward) and f̄ (backward) all-reduce s·b·h·2/c bytes twice per layer each;
  // full recomputation reruns the forward's two. With sequence parallelism each becomes a reduce-scatter and an
  // all-gather of the same bytes (Korthikanti et al. §4.2.2) — the same ring time.
  const CostModel nvlink = link(gpu.nvlink_latency, gpu.nvlink_bandwidth);
  const CostModel network = link(gpu.network_latency, gpu.network_bandwidth);
  const double act_bytes = s * b * h * 2 / c;
  const double one_tp = l.sequence_parallel ? collective("reduce-scatter", t, act_bytes, nvlink) +
                                                  collective("all-gather", t, act_bytes, nvlink)
                                            : collective("all-reduce", t, act_bytes, nvlink);
  const double stage_tensor = per_stage * (4.0 + (redo_kind == Recomputation::kFull ? 2.0 : 0.0)) * one_tp;

  // Context parallelism: the K/V ring, (c − 1) messages per attention pass (dsml/planner.h).
  const double kv = model.kv_heads > 0 ? model.kv_heads : model.heads;
  const double kv_block = 2.0 * (s / c) * b * kv * (h / model.heads) * 2.0 / t;
  const int ring_passes = 3 + (redo_kind == Recomputation::kNone ? 0 : 1);
  const double stage_context =
      c > 1 ? per_stage * ring_passes * (c - 1.0) * message_time(t * c <= G ? nvlink : network, kv_block) : 0.0;

  // Expert parallelism: dispatch and combine all-to-alls over e ranks, 2 forward + 4 backward (+ 2 rerun).
  const double a2a_bytes = model.experts > 0 ? (s / c) * b * model.top_k * h * 2.0 / t : 0.0;
  const int a2a_count = 6 + (redo_kind == Recomputation::kFull ? 2 : 0);
  const double stage_expert =
      moe_stage * a2a_count * collective("all-to-all", e, a2a_bytes, t * c * e <= G ? nvlink : network);

  const double stage_comm = stage_tensor + stage_context + stage_expert;
  plan.time.compute = m * stage_compute;
  plan.time.tensor = m * stage_tensor;
  plan.time.context = m * stage_context;
  plan.time.expert = m * stage_expert;
  plan.time.bubble = p > 1 ? (p - 1.0) / v * (stage_compute + stage_comm) : 0.0;
  // Pipeline sends: each micro-batch's activation out and gradient back, per chunk; Megatron scatters the s·b·h/c
  // tensor over the t GPUs of a stage so each NIC carries 1/t of it. Order t, c, d, p: stages sit N/p ranks apart.
  const CostModel& pp_link = plan.gpus <= G ? nvlink : network;
  plan.time.pipeline = p > 1 ? 2.0 * m * v * message_time(pp_link, act_bytes / t) : 0.0;

  // Data parallelism over the first stage's weights (it holds the input embedding), this GPU's shard: the dense
  // part over the d·c replicas, the experts over the d·c/e that hold the same experts.
  const double embed = p == 1 ? planner_detail::embedding_parameters(model)
                              : model.vocabulary * h + (model.learned_positions ? s * h : 0.0);
  const double expert_weights = moe_stage * (model.experts / static_cast<double>(e)) *
                                planner_detail::ffn_parameters(model) / t;
  const double stage_params = (dense_stage * planner_detail::layer_parameters(model) +
                               moe_stage * planner_detail::moe_layer_parameters(model) + embed) / t;
  const double dense_params = stage_params - moe_stage * model.experts * planner_detail::ffn_parameters(model) / t;
  const int dp = d * c, edp = d * c / e;
  const CostModel& dp_link = t * c * d <= G ? nvlink : network;
  auto reduce = [&](int ranks, double weights) {
    const double bytes = 2.0 * weights;
    if (weights <= 0) return 0.0;  // a dense model has no expert weights to reduce
    if (l.zero_stage == 0) return collective("all-reduce", ranks, bytes, dp_link);
    double x = collective("reduce-scatter", ranks, bytes, dp_link) + collective("all-gather", ranks, bytes, dp_link);
    if (l.zero_stage == 3) x += 2.0 * m * collective("all-gather", ranks, bytes, dp_link);  // fwd + bwd gathers
    return x;
  };
  const double data = reduce(dp, dense_params) + reduce(edp, expert_weights);
  const double last_backward = 2.0 * (dense_stage * dense_s.forward + moe_stage * moe_s.forward) / v;
  plan.time.data = l.overlap_dp ? std::max(0.0, data - last_backward) : data;
  // Adam: read and write fp32 parameter, momentum, variance (24 B), read the gradient, write the fp16 copy (4 B).
  const bool sharded = l.zero_stage >= 1;
  const double owned = dense_params / (sharded ? dp : 1) + expert_weights / (sharded ? edp : 1);
  plan.time.optimizer = planner_detail::stream_seconds(28.0 * owned, gpu);
  const StepSplit& T = plan.time;
  plan.time.total = T.compute + T.bubble + T.tensor + T.context + T.expert + T.pipeline + T.data + T.optimizer;

  // Memory of the first stage: model states by ZeRO stage, Korthikanti's activations for s/c tokens of the
  // micro-batches in flight — min(m, p) of L/p layers under 1F1B, × (1 + (p − 1)/(p·v)) interleaved (Korthikanti
  // §4.2.3), MoE layers keeping top_k FFN activations — and, with full recomputation, one layer's full activations
  // rebuilt during its backward.
  const double per_layer = transformer_layer_activation_bytes(s / c, b, h, model.heads, t, l.sequence_parallel,
                                                              redo_kind);
  const double moe_extra = planner_detail::moe_extra_activation_bytes(model, {b, t, c, e, true}, redo_kind);
  double in_flight = std::min(m, p);
  if (v > 1) in_flight *= 1.0 + (p - 1.0) / (p * static_cast<double>(v));
  double activations = in_flight * (per_stage * per_layer + moe_stage * moe_extra);
  if (redo_kind == Recomputation::kFull)
    activations += transformer_layer_activation_bytes(s / c, b, h, model.heads, t, l.sequence_parallel,
                                                      Recomputation::kNone);
  const MemoryBreakdown mem = memory_per_device(dense_params, dp, l.zero_stage, activations);
  const MemoryBreakdown experts_mem =
      expert_weights > 0 ? memory_per_device(expert_weights, edp, l.zero_stage) : MemoryBreakdown{};
  plan.memory = {mem.params + experts_mem.params, mem.grads + experts_mem.grads,
                 mem.optimizer + experts_mem.optimizer, mem.activations, mem.total + experts_mem.total};
  plan.fits = plan.memory.total <= gpu.hbm_bytes;

  const double N = plan.gpus;
  plan.tokens_per_s = B * s / T.total;
  plan.tflops_per_gpu = plan.hardware_flops / (T.total * N) / 1e12;
  plan.hfu = plan.hardware_flops / (T.total * N * gpu.peak_flops);
  plan.mfu = plan.model_flops / (T.total * N * gpu.peak_flops);
  return plan;
}

}  // namespace dsml
