// design_adapters.cpp — see design_adapters.h. Convert, call the core, convert back.
#include "design_adapters.h"

#include <string>

#include "dsml/cost_model.h"
#include "dsml/parallel_design.h"
#include "dsml/run_limits.h"
#include "fields.h"
#include "js_arrays.h"
#include "js_object.h"

namespace dsml::bindings {
namespace {

CostModel link_or(const val& r, const char* name, const CostModel& fallback, const std::string& ctx) {
  return r[name].isUndefined() ? fallback : to_cost_model(object_field(r, name, ctx), ctx + ": " + name);
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
  require_object(r, ctx, "{model, nodes, gpusPerNode, globalBatch?, microBatch?, flopsPerGpu?, intra?, inter?, …}");
  LayoutConfig c;
  c.model = transformer_preset(text_field(r, "model", ctx));
  c.nodes = static_cast<int>(whole_field(r, "nodes", ctx, 1, limits::kClusterNodes));
  c.gpus_per_node = static_cast<int>(whole_field(r, "gpusPerNode", ctx, 1, limits::kGpusPerNode));
  c.global_batch = static_cast<int>(whole_field_or(r, "globalBatch", c.global_batch, ctx, 1, 1 << 24));
  c.micro_batch = static_cast<int>(whole_field_or(r, "microBatch", c.micro_batch, ctx, 1, 1 << 16));
  c.flops_per_gpu = number_field_or(r, "flopsPerGpu", c.flops_per_gpu, ctx);
  c.intra = link_or(r, "intra", c.intra, ctx);
  c.inter = link_or(r, "inter", c.inter, ctx);
  c.memory_bytes = number_field_or(r, "memoryBytes", c.memory_bytes, ctx);
  c.sequence_parallel = flag_field_or(r, "sequenceParallel", c.sequence_parallel, ctx);
  c.full_recomputation = flag_field_or(r, "fullRecomputation", c.full_recomputation, ctx);
  val rows = val::array();
  for (const LayoutRow& l : dsml::price_3d_layouts(c)) {
    val o = object_of({{"t", l.t}, {"p", l.p}, {"d", l.d}, {"microBatches", l.micro_batches},
                       {"modelStateBytes", l.model_state_bytes}, {"modelStateZero1Bytes", l.model_state_zero1_bytes},
                       {"activationBytes", l.activation_bytes}, {"memoryBytes", l.memory_bytes},
                       {"memoryZero1Bytes", l.memory_zero1_bytes}, {"compute", l.compute_s}, {"bubble", l.bubble_s},
                       {"tensor", l.tensor_s}, {"pipeline", l.pipeline_s}, {"data", l.data_s}, {"step", l.step_s},
                       {"fits", l.fits}, {"fitsZero1", l.fits_zero1}});
    rows.call<void>("push", o);
  }
  return object_of({{"parameters", c.model.parameters}, {"rows", rows}});
}

}  // namespace dsml::bindings
