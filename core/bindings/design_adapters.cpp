// design_adapters.cpp — see design_adapters.h. Convert, call the core, convert back.
#include "design_adapters.h"

#include <string>

#include "dsml/parallel_design.h"
#include "dsml/run_limits.h"
#include "fields.h"
#include "js_arrays.h"
#include "js_object.h"

namespace dsml::bindings {
namespace {

constexpr const char* kLayoutGpu = "a100-80gb";  // price3dLayouts' GPU when the request names none

// What Week 5 shows of a StepPlan, under StepPlan's own field names (types/planner.d.ts): the step's terms, the
// first stage's memory, whether it fits.
val layout_plan(const StepPlan& p) {
  const StepSplit& s = p.time;
  val time = object_of({{"compute", s.compute}, {"bubble", s.bubble}, {"tensor", s.tensor}, {"context", s.context},
                        {"expert", s.expert}, {"pipeline", s.pipeline}, {"data", s.data}, {"optimizer", s.optimizer},
                        {"total", s.total}});
  const PlanMemory& m = p.memory;
  val memory = object_of({{"params", m.params}, {"grads", m.grads}, {"optimizer", m.optimizer},
                          {"activations", m.activations}, {"total", m.total}});
  return object_of({{"time", time}, {"memory", memory}, {"fits", p.fits}});
}

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
                                       {"replicated", layout_plan(l.replicated)}, {"zero1", layout_plan(l.zero1)}}));
  }
  return object_of({{"model", c.model.name}, {"gpu", c.cluster.gpu.name}, {"parameters", planner_parameters(c.model)},
                    {"capacity", c.cluster.gpu.hbm_bytes}, {"rows", rows}});
}

}  // namespace dsml::bindings
