// planner_adapters.cpp — see planner_adapters.h. Convert, call the core, convert back: the field names are
// dsml.d.ts's (camelCase), the values the core's (seconds, bytes, FLOPs).
#include "planner_adapters.h"

#include <string>
#include <vector>

#include "dsml/error.h"
#include "dsml/plan_fields.h"
#include "dsml/planner.h"
#include "dsml/planner_validation.h"
#include "fields.h"
#include "js_object.h"
#include "planner_convert.h"

namespace dsml::bindings {
namespace {

SearchOptions search_options_from(const val& r, const std::string& ctx) {
  require_object(r, ctx, "{model, cluster, globalBatch, microBatches?, zeroStages?, …}");
  SearchOptions o;
  o.global_batch = whole(r, "globalBatch", ctx);
  o.micro_batches = wholes_or(r, "microBatches", o.micro_batches, ctx);
  o.zero_stages = wholes_or(r, "zeroStages", o.zero_stages, ctx);
  o.contexts = wholes_or(r, "contexts", o.contexts, ctx);
  o.sequence_parallel = flag_field_or(r, "sequenceParallel", o.sequence_parallel, ctx);
  if (!r["recomputation"].isUndefined())
    o.recomputation = recomputation_from(text_field(r, "recomputation", ctx), ctx);
  o.overlap_dp = flag_field_or(r, "overlapDp", o.overlap_dp, ctx);
  if (!r["attention"].isUndefined())
    o.attention = in_context(ctx, [&] { return parse_attention_kernel(text_field(r, "attention", ctx)); });
  if (!r["precision"].isUndefined())
    o.precision = in_context(ctx, [&] { return parse_precision(text_field(r, "precision", ctx)); });
  o.max_interleave = whole_or(r, "maxInterleave", o.max_interleave, ctx);
  o.keep = whole_or(r, "keep", o.keep, ctx);
  return o;
}

}  // namespace

val planner_presets() {
  const PlannerPresets presets = dsml::planner_presets();
  val models = val::array(), gpus = val::array(), table = val::array();
  for (const PlannerModel& m : presets.models) models.call<void>("push", model_to(m));
  for (const GpuSpec& g : presets.gpus) gpus.call<void>("push", gpu_to(g));
  for (const PublishedRun& r : presets.table1)
    table.call<void>("push", object_of({{"model", r.model}, {"billions", r.billions}, {"t", r.t}, {"p", r.p},
                                        {"gpus", r.gpus}, {"globalBatch", r.global_batch},
                                        {"tflopsPerGpu", r.tflops_per_gpu}, {"percentOfPeak", r.percent_of_peak},
                                        {"aggregatePflops", r.aggregate_pflops}, {"checked", r.checked}}));
  return object_of({{"models", models}, {"gpus", gpus}, {"table1", table}});
}

val plan_step(const val& r) {
  const std::string ctx = "planStep";
  require_object(r, ctx, "{model, cluster, layout}");
  return plan_to(dsml::plan_step(model_from(object_field(r, "model", ctx), ctx + ": model"),
                                 cluster_from(object_field(r, "cluster", ctx), ctx + ": cluster"),
                                 layout_from(object_field(r, "layout", ctx), ctx + ": layout")));
}

val search_layouts(const val& r) {
  const std::string ctx = "searchLayouts";
  const SearchOptions o = search_options_from(r, ctx);
  val out = val::array();
  for (const StepPlan& p : dsml::search_layouts(model_from(object_field(r, "model", ctx), ctx + ": model"),
                                                cluster_from(object_field(r, "cluster", ctx), ctx + ": cluster"), o))
    out.call<void>("push", plan_to(p));
  return out;
}

val search_refusal(const val& r) {
  const std::string ctx = "searchRefusal";
  const SearchOptions o = search_options_from(r, ctx);
  return val(dsml::search_refusal(model_from(object_field(r, "model", ctx), ctx + ": model"),
                                  cluster_from(object_field(r, "cluster", ctx), ctx + ": cluster"), o));
}

val attention_cost(const val& r) {
  const std::string ctx = "attentionCost";
  require_object(r, ctx, "{model, gpu, kernel, microBatch?, t?, c?}");
  const AttentionCost a = in_context(ctx, [&] {
    return dsml::attention_cost(model_from(object_field(r, "model", ctx), ctx + ": model"),
                                gpu_from(object_field(r, "gpu", ctx), ctx + ": gpu"),
                                parse_attention_kernel(text_field(r, "kernel", ctx)),
                                whole_or(r, "microBatch", 1, ctx), whole_or(r, "t", 1, ctx), whole_or(r, "c", 1, ctx));
  });
  return fields_to_val(a);
}

val planner_validation() {
  const PlannerValidation v = dsml::planner_validation();
  val constants = val::array(), tables = val::array();
  for (const PlannerConstant& c : v.constants)
    constants.call<void>("push", object_of({{"name", c.name}, {"value", c.value}, {"unit", c.unit},
                                            {"source", c.source}, {"fittedOn", c.fitted_on}}));
  for (const ValidationTable& t : v.tables) {
    val rows = val::array();
    for (const ValidationRow& r : t.rows)
      rows.call<void>("push", object_of({{"label", r.label}, {"published", r.published}, {"predicted", r.predicted},
                                         {"relativeError", r.relative_error}, {"fits", r.fits},
                                         {"memoryBytes", r.memory_bytes}, {"capacityBytes", r.capacity_bytes},
                                         {"mainTerm", r.main_term}, {"layout", plan_to(r.plan)["layout"]}}));
    tables.call<void>("push",
                      object_of({{"id", t.id}, {"title", t.title}, {"source", t.source}, {"gpu", t.gpu},
                                 {"metric", std::string(t.metric == "mfu" ? "mfu" : "tflopsPerGpu")},
                                 {"inSample", t.in_sample},
                                 {"bound", object_of({{"each", t.bound_each}, {"mean", t.bound_mean}})},
                                 {"rows", rows}, {"meanAbsError", t.mean_abs_error},
                                 {"worstAbsError", t.worst_abs_error}, {"fitting", t.fitting}}));
  }
  return object_of({{"constants", constants}, {"tables", tables}});
}

}  // namespace dsml::bindings
