// step_planner.cpp — one training step of a transformer on a GPU cluster, split into its parts (dsml/planner.h has
// the model of each term; this file adds them up in the order a 1F1B pipeline runs them).
//
// Per micro-batch on the slowest (last) stage: L/p layers of passes × (matmuls + memory-bound kernels), passes =
// forward 1 + backward 2 (a backward runs two products of each forward's size: dgrad and wgrad) + what
// recomputation reruns, plus the logits' forward and backward. m micro-batches run back to back; the 1F1B
// pipeline adds (p − 1)/v more slots of that stage (Narayanan et al. 2021 §2.2: bubble fraction (p − 1)/(v·m)).
// Collectives are the course's closed forms (collective_cost.h), memory the course's accountant
// (memory_accountant.h) — nothing is priced twice.
#include <algorithm>
#include <string>

#include "dsml/collective_cost.h"
#include "dsml/error.h"
#include "dsml/planner.h"
#include "transformer_shapes.h"

namespace dsml {
namespace {

using planner_detail::Matmul;

std::string str(long long v) { return std::to_string(v); }

}  // namespace

std::string layout_error(const PlannerModel& model, const ClusterSpec& c, const PlannerLayout& l) {
  if (c.nodes < 1 || c.gpus_per_node < 1) return ("nodes and GPUs per node must be >= 1");
  if (l.t < 1 || l.p < 1 || l.v < 1 || l.d < 1 || l.micro_batch < 1 || l.global_batch < 1)
    return ("t, p, v, d, micro-batch and global batch must all be >= 1");
  const long long gpus = static_cast<long long>(c.nodes) * c.gpus_per_node;
  if (static_cast<long long>(l.t) * l.p * l.d != gpus)
    return ("t·p·d = " + str(l.t) + "·" + str(l.p) + "·" + str(l.d) + " = " + str(1LL * l.t * l.p * l.d) +
                " must equal the cluster's " + str(gpus) + " GPUs");
  if (l.t > c.gpus_per_node)
    return ("tensor parallelism stays inside a node: t = " + str(l.t) + " > " + str(c.gpus_per_node) +
                " GPUs per node");
  if (model.heads % l.t != 0)
    return (str(model.heads) + " attention heads are not divisible by t = " + str(l.t));
  const int kv = model.kv_heads > 0 ? model.kv_heads : model.heads;
  if (kv % l.t != 0) return (str(kv) + " KV heads are not divisible by t = " + str(l.t));
  if (model.layers % (l.p * l.v) != 0)
    return (str(model.layers) + " layers are not divisible by p·v = " + str(l.p) + "·" + str(l.v) +
                " (each of the p stages holds v chunks of equal depth)");
  if (l.global_batch % (l.d * l.micro_batch) != 0)
    return ("global batch " + str(l.global_batch) + " is not divisible by d·b = " + str(l.d) + "·" +
                str(l.micro_batch) + " (every data-parallel replica runs whole micro-batches)");
  const int m = l.global_batch / (l.d * l.micro_batch);
  if (l.v > 1 && (l.p < 2 || m % l.p != 0))
    return ("the interleaved schedule (v = " + str(l.v) + ") needs p >= 2 and the " + str(m) +
                " micro-batches a multiple of p = " + str(l.p));
  if (l.zero_stage < 0 || l.zero_stage > 3) return ("ZeRO stage must be 0, 1, 2 or 3, got " + str(l.zero_stage));
  return "";
}

namespace {

CostModel link(double latency, double bandwidth) { return CostModel::from_bandwidth(latency, bandwidth); }

double collective(const char* name, int ranks, double bytes, const CostModel& on) {
  return ranks > 1 ? closed_form_time(name, "ring", ranks, bytes, on).total() : 0.0;
}

// Seconds of the layer's products and kernels for one micro-batch: forward, backward (2×) and the recomputation.
struct LayerSeconds {
  double forward = 0, attention_core = 0;  // attention_core: the part selective recomputation reruns
};
LayerSeconds layer_seconds(const PlannerModel& model, const GpuSpec& gpu, double b, int t, bool sp) {
  LayerSeconds s;
  for (const Matmul& mm : planner_detail::layer_matmuls(model, b, t)) {
    const double sec = planner_detail::matmul_seconds(mm, gpu);
    s.forward += sec;
    if (mm.attention_core) s.attention_core += sec;
  }
  const auto tr = planner_detail::layer_traffic(model, b, t, sp);
  s.forward += planner_detail::stream_seconds(tr.replicated + tr.ffn + tr.attention_core, gpu);
  s.attention_core += planner_detail::stream_seconds(tr.attention_core, gpu);
  return s;
}

double recomputed(const LayerSeconds& s, Recomputation r) {
  return r == Recomputation::kFull ? s.forward : r == Recomputation::kSelective ? s.attention_core : 0.0;
}

}  // namespace

double planner_parameters(const PlannerModel& model) {
  planner_detail::validate_model(model);
  return model.layers * planner_detail::layer_parameters(model) + planner_detail::embedding_parameters(model);
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
  const int t = l.t, p = l.p, v = l.v, d = l.d, G = cluster.gpus_per_node;
  const double b = l.micro_batch, s = model.sequence, h = model.hidden;
  const int m = l.global_batch / (d * l.micro_batch), per_stage = model.layers / p;

  StepPlan plan;
  plan.layout = l;
  plan.gpus = cluster.nodes * G;
  plan.micro_batches = m;
  plan.parameters = planner_parameters(model);
  plan.capacity = gpu.hbm_bytes;

  // FLOPs per step: every product, times the passes that run it (forward 1 + backward 2 + recomputation).
  double layer_flops = 0, core_flops = 0;
  for (const Matmul& mm : planner_detail::layer_matmuls(model, 1.0, 1)) {  // per sequence, whole layer
    layer_flops += mm.flops();
    if (mm.attention_core) core_flops += mm.flops();
  }
  const double redo = l.recomputation == Recomputation::kFull        ? layer_flops
                      : l.recomputation == Recomputation::kSelective ? core_flops
                                                                     : 0.0;
  const double B = l.global_batch;
  plan.hardware_flops = B * (model.layers * (3.0 * layer_flops + redo) + 3.0 * planner_detail::logits_matmul(model, 1.0, 1).flops());
  plan.model_flops = B * s * (6.0 * plan.parameters + 12.0 * model.layers * h * s);

  // Compute: the slowest stage (the last: its layers and the logits) per micro-batch.
  const LayerSeconds ls = layer_seconds(model, gpu, b, t, l.sequence_parallel);
  const double layer_s = 3.0 * ls.forward + recomputed(ls, l.recomputation);
  const double logits_s = 3.0 * planner_detail::matmul_seconds(planner_detail::logits_matmul(model, b, t), gpu);
  const double stage_compute = per_stage * layer_s + logits_s;

  // Tensor parallelism: Megatron's g (forward) and f̄ (backward) all-reduce s·b·h·2 bytes twice per layer each;
  // full recomputation reruns the forward's two. With sequence parallelism each becomes a reduce-scatter and an
  // all-gather of the same bytes (Korthikanti et al. §4.2.2) — the same ring time.
  const CostModel nvlink = link(gpu.nvlink_latency, gpu.nvlink_bandwidth);
  const CostModel network = link(gpu.network_latency, gpu.network_bandwidth);
  const double act_bytes = s * b * h * 2;
  const double one_tp = l.sequence_parallel ? collective("reduce-scatter", t, act_bytes, nvlink) +
                                                  collective("all-gather", t, act_bytes, nvlink)
                                            : collective("all-reduce", t, act_bytes, nvlink);
  const double tp_per_layer = (4.0 + (l.recomputation == Recomputation::kFull ? 2.0 : 0.0)) * one_tp;
  const double stage_tensor = per_stage * tp_per_layer;

  plan.time.compute = m * stage_compute;
  plan.time.tensor = m * stage_tensor;
  plan.time.bubble = p > 1 ? (p - 1.0) / v * (stage_compute + stage_tensor) : 0.0;
  // Pipeline sends: each micro-batch's activation out and gradient back, per chunk; Megatron scatters the s·b·h
  // tensor over the t GPUs of a stage so each NIC carries 1/t of it. Order t, d, p: stages sit N/p ranks apart.
  const CostModel& pp_link = plan.gpus <= G ? nvlink : network;
  plan.time.pipeline = p > 1 ? 2.0 * m * v * message_time(pp_link, act_bytes / t) : 0.0;

  // Data parallelism over the first stage's parameters (it holds the input embedding) on this GPU's shard.
  const double stage_params = (per_stage * planner_detail::layer_parameters(model) +
                               (p == 1 ? planner_detail::embedding_parameters(model)
                                       : model.vocabulary * h + (model.learned_positions ? s * h : 0.0))) / t;
  const double grad_bytes = 2.0 * stage_params;
  const CostModel& dp_link = t * d <= G ? nvlink : network;
  double data = 0;
  if (l.zero_stage == 0) {
    data = collective("all-reduce", d, grad_bytes, dp_link);
  } else {  // ZeRO: reduce-scatter the gradients, all-gather the updated parameters
    data = collective("reduce-scatter", d, grad_bytes, dp_link) + collective("all-gather", d, grad_bytes, dp_link);
    if (l.zero_stage == 3) data += 2.0 * m * collective("all-gather", d, grad_bytes, dp_link);  // fwd + bwd gathers
  }
  const double last_backward = 2.0 * per_stage * ls.forward / v;  // the last micro-batch's last chunk
  plan.time.data = l.overlap_dp ? std::max(0.0, data - last_backward) : data;
  // Adam: read and write fp32 parameter, momentum, variance (24 B), read the gradient, write the fp16 copy (4 B).
  const double owned = stage_params / (l.zero_stage >= 1 ? d : 1);
  plan.time.optimizer = planner_detail::stream_seconds(28.0 * owned, gpu);
  const StepSplit& T = plan.time;
  plan.time.total = T.compute + T.bubble + T.tensor + T.pipeline + T.data + T.optimizer;

  // Memory of the first stage: model states by ZeRO stage, Korthikanti's activations for the micro-batches in
  // flight — min(m, p) of L/p layers under 1F1B, × (1 + (p − 1)/(p·v)) interleaved (Korthikanti §4.2.3) — and, with
  // full recomputation, one layer's full activations rebuilt during its backward.
  const double per_layer = transformer_layer_activation_bytes(s, b, h, model.heads, t, l.sequence_parallel,
                                                              l.recomputation);
  double in_flight = std::min(m, p);
  if (v > 1) in_flight *= 1.0 + (p - 1.0) / (p * static_cast<double>(v));
  double activations = in_flight * per_stage * per_layer;
  if (l.recomputation == Recomputation::kFull)
    activations += transformer_layer_activation_bytes(s, b, h, model.heads, t, l.sequence_parallel,
                                                      Recomputation::kNone);
  const MemoryBreakdown mem = memory_per_device(stage_params, d, l.zero_stage, activations);
  plan.memory = {mem.params, mem.grads, mem.optimizer, mem.activations, mem.total};
  plan.fits = mem.total <= gpu.hbm_bytes;

  const double N = plan.gpus;
  plan.tokens_per_s = B * s / T.total;
  plan.tflops_per_gpu = plan.hardware_flops / (T.total * N) / 1e12;
  plan.hfu = plan.hardware_flops / (T.total * N * gpu.peak_flops);
  plan.mfu = plan.model_flops / (T.total * N * gpu.peak_flops);
  return plan;
}

}  // namespace dsml
