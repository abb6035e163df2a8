// step_planner.cpp — one training step of a transformer on a GPU cluster, split into its parts (dsml/planner.h has
// the model of each term; this file adds them up stage by stage, in the order a 1F1B pipeline runs them).
//
// Per micro-batch on stage i: its layers' passes — forward 1 + backward 2 for the linear matmuls (dgrad and wgrad)
// and the memory-bound kernels, the attention kernel's own forward and backward, + what recomputation reruns —
// plus, on the last stage, the logits' forward and backward, and the tensor, context and expert collectives of
// its layers. 1F1B runs m micro-batches at the pace of the slowest stage, and fills and drains once through every
// other: (m − 1)·max T_i + Σ T_i; with v interleaved chunks the fill and drain shrink v-fold (Narayanan et al. 2021
// §2.2.2); for p equal stages that is the familiar bubble (p − 1)/v slots. Collectives are the course's closed
// forms (collective_cost.h), memory the course's accountant (memory_accountant.h) — nothing is priced twice. The
// rules a layout must meet are in layout_rules.cpp.
#include <algorithm>
#include <string>

#include "dsml/collective_cost.h"
#include "dsml/error.h"
#include "dsml/planner.h"
#include "kernel_time.h"
#include "layer_activations.h"
#include "transformer_shapes.h"

namespace dsml {
namespace {

using planner_detail::LayerPlace;
using planner_detail::Matmul;

CostModel link(double latency, double bandwidth) { return CostModel::from_bandwidth(latency, bandwidth); }

double collective(const char* name, int ranks, double bytes, const CostModel& on) {
  if (ranks <= 1 || bytes <= 0) return 0.0;
  return closed_form_time(name, std::string(name) == "all-to-all" ? "pairwise" : "ring", ranks, bytes, on).total();
}

// One layer's kernels for one micro-batch, by kind: seconds of a whole step's passes (forward, backward and what
// recomputation reruns) and the forward alone (what overlap hides gradient reduction under: the backward, 2×).
struct LayerSeconds {
  double matmul = 0, attention = 0, memory_bound = 0;
  double forward = 0;
  double total() const { return matmul + attention + memory_bound; }
};
LayerSeconds layer_seconds(const PlannerModel& model, const GpuSpec& gpu, const LayerPlace& at,
                           const PlannerLayout& l) {
  double linear = 0;
  for (const Matmul& mm : planner_detail::layer_matmuls(model, at, false))
    linear += planner_detail::matmul_seconds(mm, gpu, l.precision);
  const AttentionCost core = attention_cost(model, gpu, l.attention, at.micro_batch, at.t, at.c);
  const auto tr = planner_detail::layer_traffic(model, at, l.sequence_parallel);
  const double stream = planner_detail::stream_seconds(tr.replicated + tr.ffn, gpu);
  const bool full = l.recomputation == Recomputation::kFull;
  const bool selective = l.recomputation == Recomputation::kSelective && l.attention == AttentionKernel::kUnfused;
  LayerSeconds s;
  s.matmul = (3.0 + (full ? 1.0 : 0.0)) * linear;
  s.attention = core.forward_seconds + core.backward_seconds + (full || selective ? core.forward_seconds : 0.0);
  s.memory_bound = (3.0 + (full ? 1.0 : 0.0)) * stream;
  s.forward = linear + core.forward_seconds + stream;
  return s;
}

// FLOPs of one whole layer (all GPUs) for one sequence: every product its passes run.
double layer_step_flops(const PlannerModel& model, const GpuSpec& gpu, bool moe, const PlannerLayout& l) {
  double linear = 0;
  for (const Matmul& mm : planner_detail::layer_matmuls(model, {1.0, 1, 1, 1, moe}, false))
    linear += mm.flops();
  const AttentionCost core = attention_cost(model, gpu, l.attention, 1.0);
  const bool full = l.recomputation == Recomputation::kFull;
  const bool selective = l.recomputation == Recomputation::kSelective && l.attention == AttentionKernel::kUnfused;
  return (3.0 + (full ? 1.0 : 0.0)) * linear + core.forward_flops + core.backward_flops +
         (full || selective ? core.forward_flops : 0.0);
}

// The links a group of GPUs talks over. Inside a node, NVLink. A group spanning nodes with k members in each node
// rings over both: NCCL runs k rings side by side, each crossing between nodes on its own NIC and carrying 1/k of
// the data, so each GPU moves its share at min(NVLink, k·NIC) with the network's latency per step (one NIC per GPU:
// k = 1 is the plain network ring).
struct Links {
  CostModel nvlink, network;
  int per_node = 8;
  double nvlink_bandwidth = 0, network_bandwidth = 0;
  const CostModel& over(int gpus_spanned) const { return gpus_spanned <= per_node ? nvlink : network; }
  CostModel group(int gpus_spanned, int members_per_node) const {
    if (gpus_spanned <= per_node) return nvlink;
    const int k = std::max(1, members_per_node);
    return link(network.alpha, std::min(nvlink_bandwidth, k * network_bandwidth));
  }
};

// A stage's per-micro-batch time, its parts, its weights and its memory.
struct StageWork {
  LayerSeconds compute;  // summed over its layers (and the logits on the last stage, counted as matmul)
  double tensor = 0, context = 0, expert = 0;
  double dense_params = 0, expert_params = 0;  // this GPU's, elements
  double activations = 0;
  double per_micro_batch() const { return compute.total() + tensor + context + expert; }
};

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

StepPlan plan_step(const PlannerModel& model, const ClusterSpec& cluster, const PlannerLayout& given) {
  planner_detail::validate_model(model);
  planner_detail::validate_gpu(cluster.gpu);
  const std::string problem = layout_error(model, cluster, given);
  if (!problem.empty()) throw Error(problem);
  if (given.precision == Precision::kFp8 && cluster.gpu.kernels.matmul_fp8_flops <= 0)
    throw Error("the " + cluster.gpu.name + " has no FP8 matmuls: choose bf16");
  const PlannerLayout l = complete_layout(model, cluster, given);
  const GpuSpec& gpu = cluster.gpu;
  const int t = l.t, c = l.c, p = l.p, v = l.v, d = l.d, e = l.e, G = cluster.gpus_per_node;
  const double b = l.micro_batch, s = model.sequence, h = model.hidden;
  const int m = l.global_batch / (d * l.micro_batch);
  const Links links{link(gpu.nvlink_latency, gpu.nvlink_bandwidth), link(gpu.network_latency, gpu.network_bandwidth),
                    G, gpu.nvlink_bandwidth, gpu.network_bandwidth};
  const int tc_per_node = std::max(1, G / (t * c));  // the data-parallel peers of a GPU in its own node

  StepPlan plan;
  plan.layout = l;
  plan.gpus = cluster.nodes * G;
  plan.micro_batches = m;
  plan.parameters = planner_parameters(model);
  plan.active_parameters = planner_active_parameters(model);
  plan.capacity = gpu.hbm_bytes;

  // FLOPs per step: every layer's products, times the passes that run them, and the logits' three.
  const int moe_all = planner_detail::moe_layers(model, model.layers);
  const double B = l.global_batch;
  plan.hardware_flops =
      B * ((model.layers - moe_all) * layer_step_flops(model, gpu, false, l) +
           (moe_all > 0 ? moe_all * layer_step_flops(model, gpu, true, l) : 0.0) +
           3.0 * planner_detail::logits_matmul(model, 1.0, 1).flops());
  plan.model_flops = B * s * (6.0 * plan.active_parameters + 12.0 * model.layers * h * s);

  // One layer of each kind on this GPU, for one micro-batch.
  const LayerPlace dense_at{b, t, c, e, false}, moe_at{b, t, c, e, true};
  const LayerSeconds dense_s = layer_seconds(model, gpu, dense_at, l);
  const bool has_moe = moe_all > 0;  // a dense model has no MoE layer to price (its expert shapes divide by 0)
  const LayerSeconds moe_s = has_moe ? layer_seconds(model, gpu, moe_at, l) : LayerSeconds{};
  const Matmul logits = planner_detail::logits_matmul(model, b, t, c);
  // The loss as PyTorch's cross-entropy runs it on 16-bit logits: cast to fp32 (read 2, write 4 bytes a logit),
  // log-softmax (two reads of 4, a write of 4); backward its gradient (read 4 + 4, write 4) and the cast back (read
  // 4, write 2): 36 bytes a logit.
  const double logits_s = 3.0 * planner_detail::matmul_seconds(logits, gpu) +
                          planner_detail::stream_seconds(36.0 * logits.m * logits.n, gpu);

  // Per layer collectives. Tensor: Megatron's g (forward) and f̄ (backward) all-reduce s·b·h·2/c bytes twice per
  // layer each, full recomputation reruns the forward's two; with sequence parallelism each is a reduce-scatter
  // and an all-gather of the same bytes (Korthikanti et al. §4.2.2) — the same ring time.
  const double act_bytes = s * b * h * 2 / c;
  const double one_tp = l.sequence_parallel ? collective("reduce-scatter", t, act_bytes, links.nvlink) +
                                                  collective("all-gather", t, act_bytes, links.nvlink)
                                            : collective("all-reduce", t, act_bytes, links.nvlink);
  const bool full = l.recomputation == Recomputation::kFull;
  const double tensor_layer = (4.0 + (full ? 2.0 : 0.0)) * one_tp;
  // Context: the K/V ring, (c − 1) messages per attention pass.
  const double kv_block = 2.0 * (s / c) * b * planner_detail::kv_heads(model) * (h / model.heads) * 2.0 / t;
  const int ring_passes = 3 + (l.recomputation == Recomputation::kNone ? 0 : 1);
  const double context_layer = c > 1 ? ring_passes * (c - 1.0) * message_time(links.over(t * c), kv_block) : 0.0;
  // Expert: dispatch and combine, forward and backward: 4 all-to-alls per MoE layer, + 2 rerun under full
  // recomputation.
  const double a2a_bytes = has_moe ? (s / c) * b * model.top_k * h * 2.0 / t : 0.0;
  const double expert_layer =
      (4.0 + (full ? 2.0 : 0.0)) * collective("all-to-all", e, a2a_bytes, links.group(t * c * e, tc_per_node));

  // Each stage: its layers' work, its weights (the first holds the input embedding, the last the output layer),
  // and the activations of the micro-batches it holds in flight — min(m, p − i) under 1F1B, × (1 + (p − 1)/(p·v))
  // interleaved (Korthikanti §4.2.3) — plus, under full recomputation, one layer rebuilt whole in its backward,
  // and on the last stage the logits (fp32, for the loss's backward).
  planner_detail::LayerActivationOptions kept{l.sequence_parallel, l.recomputation, l.attention, l.precision};
  const double dense_kept = planner_detail::layer_activation_bytes(model, dense_at, kept);
  const double moe_kept = has_moe ? planner_detail::layer_activation_bytes(model, moe_at, kept) : 0.0;
  kept.recomputation = Recomputation::kNone;
  const double rebuilt = full ? planner_detail::layer_activation_bytes(model, has_moe ? moe_at : dense_at, kept) : 0.0;
  std::vector<StageWork> work(p);
  for (int i = 0; i < p; ++i) {
    StageWork& w = work[i];
    const int layers = l.stage_layers[i];
    const int moe_n = planner_detail::moe_layers(model, layers), dense_n = layers - moe_n;
    const bool first = i == 0, last = i == p - 1;
    w.compute.matmul = dense_n * dense_s.matmul + moe_n * moe_s.matmul + (last ? logits_s : 0.0);
    w.compute.attention = dense_n * dense_s.attention + moe_n * moe_s.attention;
    w.compute.memory_bound = dense_n * dense_s.memory_bound + moe_n * moe_s.memory_bound;
    w.compute.forward = dense_n * dense_s.forward + moe_n * moe_s.forward;
    w.tensor = layers * tensor_layer;
    w.context = layers * context_layer;
    w.expert = moe_n * expert_layer;
    double embed = 0;
    if (p == 1) embed = planner_detail::embedding_parameters(model);
    else if (first) embed = planner_detail::input_embedding_parameters(model);
    else if (last) embed = planner_detail::output_layer_parameters(model);
    w.expert_params = moe_n * (model.experts / static_cast<double>(e)) * planner_detail::ffn_parameters(model) / t;
    w.dense_params = (dense_n * planner_detail::layer_parameters(model) +
                      moe_n * (planner_detail::moe_layer_parameters(model) -
                               model.experts * planner_detail::ffn_parameters(model)) + embed) / t;
    double in_flight = std::min(m, p - i);
    if (v > 1) in_flight *= 1.0 + (p - 1.0) / (p * static_cast<double>(v));
    w.activations = in_flight * (dense_n * dense_kept + moe_n * moe_kept) + rebuilt +
                    (last ? 4.0 * logits.m * logits.n : 0.0);
  }
  int slow = 0;
  double fill = 0;
  for (int i = 0; i < p; ++i) {
    fill += work[i].per_micro_batch();
    if (work[i].per_micro_batch() > work[slow].per_micro_batch()) slow = i;
  }
  const StageWork& paced = work[slow];
  plan.slowest_stage = slow;
  plan.time.compute = m * paced.compute.total();
  plan.time.matmul = m * paced.compute.matmul;
  plan.time.attention = m * paced.compute.attention;
  plan.time.memory_bound = m * paced.compute.memory_bound;
  plan.time.tensor = m * paced.tensor;
  plan.time.context = m * paced.context;
  plan.time.expert = m * paced.expert;
  plan.time.bubble = (fill - paced.per_micro_batch()) / v;
  // Pipeline sends: each micro-batch's activation out and gradient back, per chunk; Megatron scatters the s·b·h/c
  // tensor over the t GPUs of a stage so each NIC carries 1/t of it. Order t, c, d, p: stages sit N/p ranks apart.
  plan.time.pipeline = p > 1 ? 2.0 * m * v * message_time(links.over(plan.gpus), act_bytes / t) : 0.0;

  // Data parallelism over each stage's weights, this GPU's shard: the dense part over the d·c replicas, the experts
  // over the d·c/e that hold the same experts. The slowest stage's reduction is the one the step waits for.
  const int dp = d * c, edp = d * c / e;
  const CostModel dp_link = links.group(t * c * d, tc_per_node);
  const bool sharded = l.zero_stage >= 1;
  double data = 0, optimizer = 0;
  for (int i = 0; i < p; ++i) {
    const StageWork& w = work[i];
    auto reduce = [&](int ranks, double weights) {
      const double bytes = 2.0 * weights;
      if (l.zero_stage == 0) return collective("all-reduce", ranks, bytes, dp_link);
      if (l.zero_stage < 3)  // gradients reduce-scattered, the updated parameters all-gathered after the step
        return collective("reduce-scatter", ranks, bytes, dp_link) + collective("all-gather", ranks, bytes, dp_link);
      // FSDP: per micro-batch the parameters gathered for forward and for backward, the gradients reduce-scattered
      return 2.0 * collective("all-gather", ranks, bytes, dp_link) +
             collective("reduce-scatter", ranks, bytes, dp_link);
    };
    const double comm = reduce(dp, w.dense_params) + reduce(edp, w.expert_params);
    double exposed = 0;
    if (l.zero_stage == 3) {
      const double busy = w.per_micro_batch();
      const double first_gather = collective("all-gather", dp, 2.0 * w.dense_params / l.stage_layers[i],
                                             dp_link);  // the first layer's weights arrive before compute starts
      exposed = l.overlap_dp ? m * std::max(0.0, comm - busy) + first_gather : m * comm;
    } else {
      const double last_backward = 2.0 * w.compute.forward / v;
      exposed = l.overlap_dp ? std::max(0.0, comm - last_backward) : comm;
    }
    data = std::max(data, exposed);
    // Adam: read and write fp32 parameter, momentum, variance (24 B), read the gradient, write the 16-bit copy (4 B).
    const double owned = w.dense_params / (sharded ? dp : 1) + w.expert_params / (sharded ? edp : 1);
    optimizer = std::max(optimizer, planner_detail::stream_seconds(28.0 * owned, gpu));
  }
  plan.time.data = data;
  plan.time.optimizer = optimizer;
  const StepSplit& T = plan.time;
  plan.time.total = T.compute + T.bubble + T.tensor + T.context + T.expert + T.pipeline + T.data + T.optimizer;

  // Memory of every stage: model states by ZeRO stage; FSDP also holds the layer it computes and the one it
  // prefetches unsharded (16-bit weights, and one layer's 16-bit gradients before their reduce-scatter).
  plan.fits = true;
  for (int i = 0; i < p; ++i) {
    const StageWork& w = work[i];
    const MemoryBreakdown mem = memory_per_device(w.dense_params, dp, l.zero_stage, w.activations);
    const MemoryBreakdown experts_mem =
        w.expert_params > 0 ? memory_per_device(w.expert_params, edp, l.zero_stage) : MemoryBreakdown{};
    const double gathered =
        l.zero_stage == 3 ? 6.0 * (w.dense_params + w.expert_params) / std::max(1, l.stage_layers[i]) : 0.0;
    StagePlan stage;
    stage.layers = l.stage_layers[i];
    stage.seconds = w.per_micro_batch();
    stage.memory = {mem.params + experts_mem.params + gathered, mem.grads + experts_mem.grads,
                    mem.optimizer + experts_mem.optimizer, mem.activations, mem.total + experts_mem.total + gathered};
    plan.fits = plan.fits && stage.memory.total <= gpu.hbm_bytes;
    if (i == 0 || stage.memory.total > plan.memory.total) plan.memory = stage.memory;
    plan.stages.push_back(stage);
  }

  const double N = plan.gpus;
  plan.tokens_per_s = B * s / T.total;
  plan.tflops_per_gpu = plan.hardware_flops / (T.total * N) / 1e12;
  plan.hfu = plan.hardware_flops / (T.total * N * gpu.peak_flops);
  plan.mfu = plan.model_flops / (T.total * N * gpu.peak_flops);
  return plan;
}

}  // namespace dsml
