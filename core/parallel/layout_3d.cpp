// layout_3d.cpp — pricing every (t, p, d) factorisation of a cluster for a transformer preset
// (dsml/parallel_design.h has the model; this file only walks the factorisations and adds the terms up).
#include <algorithm>
#include <string>

#include "dsml/collective_cost.h"
#include "dsml/error.h"
#include "dsml/parallel_design.h"

namespace dsml {
namespace {

constexpr double kVocabulary = 50257;  // GPT-2/3's BPE vocabulary

TransformerPreset make(const std::string& name, int layers, int hidden, int heads) {
  TransformerPreset p;
  p.name = name;
  p.layers = layers;
  p.hidden = hidden;
  p.heads = heads;
  p.parameters = 12.0 * layers * hidden * static_cast<double>(hidden) + kVocabulary * hidden;
  return p;
}

double ring_all_reduce_s(int ranks, double bytes, const CostModel& link) {
  return ranks > 1 ? closed_form_time("all-reduce", "ring", ranks, bytes, link).total() : 0.0;
}

}  // namespace

TransformerPreset transformer_preset(const std::string& name) {
  if (name == "gpt3-6.7b") return make(name, 32, 4096, 32);
  if (name == "opt-30b") return make(name, 48, 7168, 56);
  if (name == "gpt3-175b") return make(name, 96, 12288, 96);
  throw Error("unknown model preset \"" + name + "\"; choose gpt3-6.7b, opt-30b or gpt3-175b");
}

std::vector<LayoutRow> price_3d_layouts(const LayoutConfig& c) {
  const TransformerPreset& model = c.model;
  if (c.nodes < 1 || c.gpus_per_node < 1) throw Error("nodes and GPUs per node must be >= 1");
  if (c.global_batch < 1 || c.micro_batch < 1) throw Error("global batch and micro-batch must be >= 1 sequences");
  if (model.layers < 1 || model.hidden < 1 || model.heads < 1 || !(model.parameters > 0))
    throw Error("the model preset needs layers, hidden, heads and parameters > 0");
  require_positive("FLOP/s per GPU", c.flops_per_gpu);
  require_positive("device memory", c.memory_bytes);
  validate(c.intra);
  validate(c.inter);
  const int N = c.nodes * c.gpus_per_node, G = c.gpus_per_node;
  const double psi = model.parameters, s = model.sequence, b = c.micro_batch, h = model.hidden;
  const double tokens = static_cast<double>(c.global_batch) * s;
  const double sbh_bytes = s * b * h * 2;  // one fp16 activation tensor of a micro-batch
  std::vector<LayoutRow> rows;
  for (int t = 1; t <= N; ++t) {
    if (N % t != 0 || model.heads % t != 0) continue;
    for (int p = 1; p <= N / t; ++p) {
      if ((N / t) % p != 0 || model.layers % p != 0) continue;
      const int d = N / (t * p);
      if (c.global_batch % (d * c.micro_batch) != 0) continue;
      LayoutRow r;
      r.t = t;
      r.p = p;
      r.d = d;
      r.micro_batches = c.global_batch / (d * c.micro_batch);
      const int m = r.micro_batches;
      // Memory per GPU.
      r.model_state_bytes = memory_per_device(psi / (t * p), d, 0).total;
      r.model_state_zero1_bytes = memory_per_device(psi / (t * p), d, 1).total;
      const double per_layer = transformer_layer_activation_bytes(
          s, b, h, model.heads, t, c.sequence_parallel,
          c.full_recomputation ? Recomputation::kFull : Recomputation::kNone);
      r.activation_bytes = std::min(p, m) * (model.layers / p) * per_layer;
      r.memory_bytes = r.model_state_bytes + r.activation_bytes;
      r.memory_zero1_bytes = r.model_state_zero1_bytes + r.activation_bytes;
      r.fits = r.memory_bytes <= c.memory_bytes;
      r.fits_zero1 = r.memory_zero1_bytes <= c.memory_bytes;
      // Time per step.
      r.compute_s = (c.full_recomputation ? 8.0 : 6.0) * psi * tokens / (N * c.flops_per_gpu);
      r.bubble_s = r.compute_s * (p - 1) / m;
      r.tensor_s = 4.0 * (model.layers / p) * m * ring_all_reduce_s(t, sbh_bytes, t <= G ? c.intra : c.inter);
      const CostModel& pp_link = t * p <= G ? c.intra : c.inter;
      r.pipeline_s = p > 1 ? 2.0 * m * (pp_link.alpha + pp_link.beta * sbh_bytes / t) : 0.0;
      r.data_s = ring_all_reduce_s(d, 2.0 * psi / (t * p), N <= G ? c.intra : c.inter);
      r.step_s = r.compute_s + r.bubble_s + r.tensor_s + r.pipeline_s + r.data_s;
      rows.push_back(r);
    }
  }
  return rows;
}

}  // namespace dsml
