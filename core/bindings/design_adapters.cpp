// design_adapters.cpp — see design_adapters.h. Convert, call the core, convert back.
#include "design_adapters.h"

#include <string>

#include "dsml/parallel_design.h"
#include "dsml/run_limits.h"
#include "fields.h"
#include "js_arrays.h"
#include "js_object.h"
#include "planner_convert.h"

namespace dsml::bindings {
namespace {

constexpr const char* kLayoutGpu = "a100-80gb";  // price3dLayouts' GPU when the request names none

}  // namespace

val optimal_micro_batches(const val& r) {
  const std::string ctx = "optimalMicroBatches";
  require_object(r, ctx, "{stages, compute, overhead, max}");
  const int P = static_cast<int>(whole_field(r, "stages", ctx, 1, 1 << 16));
  const double t = number_field(r, "compute", ctx), o = number_field(r, "overhead", ctx);
  const int max = static_cast<int>(whole_field(r, "max", ctx, 1, 1 << 16));
  const MicroBatchChoice c = dsml::optimal_micro_batches(P, t, o, max);
  return object_of({{"closedForm", c.closed_form}, {"best", c.best}, {"bestStep", c.best_step_s},
                    {"steps", to_js_array(c.step_s)}});
}

val recomputation_tradeoff(const val& r) {
  const std::string ctx = "recomputationTradeoff";
  require_object(r, ctx, "{sequence, microBatch, hidden, heads, tensorParallel?, sequenceParallel?}");
  const RecomputationTradeoff t = full_recomputation_tradeoff(
      number_field(r, "sequence", ctx), number_field(r, "microBatch", ctx), number_field(r, "hidden", ctx),
      number_field(r, "heads", ctx), static_cast<int>(whole_field_or(r, "tensorParallel", 1, ctx, 1, 1 << 16)),
      flag_field_or(r, "sequenceParallel", false, ctx));
  return object_of({{"keptBytes", t.kept_bytes}, {"recomputedBytes", t.recomputed_bytes},
                    {"savedFraction", t.saved_fraction}, {"computeFactor", t.compute_factor}});
}

val price_3d_layouts(const val& r) {
  const std::string ctx = "price3dLayouts";
  require_object(r, ctx, "{model, gpu?, nodes, gpusPerNode, globalBatch?, microBatch?, sequenceParallel?, …}");
  LayoutConfig c;
  c.model = planner_model_preset(text_field(r, "model", ctx));
  c.cluster.gpu = gpu_preset(r["gpu"].isUndefined() ? std::string(kLayoutGpu) : text_field(r, "gpu", ctx));
  c.cluster.nodes = static_cast<int>(whole_field(r, "nodes", ctx, 1, limits::kClusterNodes));
  c.cluster.gpus_per_node = static_cast<int>(whole_field(r, "gpusPerNode", ctx, 1, limits::kGpusPerNode));
  c.global_batch = static_cast<int>(whole_field_or(r, "globalBatch", c.global_batch, ctx, 1, 1 << 24));
  c.micro_batch = static_cast<int>(whole_field_or(r, "microBatch", c.micro_batch, ctx, 1, 1 << 16));
  c.sequence_parallel = flag_field_or(r, "sequenceParallel", c.sequence_parallel, ctx);
  if (!r["recomputation"].isUndefined())
    c.recomputation = in_context(ctx, [&] { return parse_recomputation(text_field(r, "recomputation", ctx)); });
  val rows = val::array();
  for (const LayoutRow& l : dsml::price_3d_layouts(c)) {
    rows.call<void>("push", object_of({{"t", l.t}, {"p", l.p}, {"d", l.d}, {"microBatches", l.replicated.micro_batches},
                                       {"replicated", plan_to(l.replicated)}, {"zero1", plan_to(l.zero1)}}));
  }
  return object_of({{"model", c.model.name}, {"gpu", c.cluster.gpu.name}, {"parameters", planner_parameters(c.model)},
                    {"capacity", c.cluster.gpu.hbm_bytes}, {"rows", rows}});
}

}  // namespace dsml::bindings
