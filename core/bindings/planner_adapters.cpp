// planner_adapters.cpp — see planner_adapters.h. Convert, call the core, convert back: the field names are
// dsml.d.ts's (camelCase), the values the core's (seconds, bytes, FLOPs).
#include "planner_adapters.h"

#include <string>
#include <vector>

#include "dsml/error.h"
#include "dsml/planner.h"
#include "dsml/planner_validation.h"
#include "fields.h"
#include "planner_convert.h"

namespace dsml::bindings {
namespace {

int whole(const val& o, const char* name, const std::string& ctx, int minimum = 1) {
  return static_cast<int>(whole_field(o, name, ctx, minimum, 1 << 30));
}
int whole_or(const val& o, const char* name, int fallback, const std::string& ctx, int minimum = 1) {
  return static_cast<int>(whole_field_or(o, name, fallback, ctx, minimum, 1 << 30));
}

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
  for (const PublishedRun& r : presets.table1) {
    val row = val::object();
    row.set("model", r.model);
    row.set("billions", r.billions);
    row.set("t", r.t);
    row.set("p", r.p);
    row.set("gpus", r.gpus);
    row.set("globalBatch", r.global_batch);
    row.set("tflopsPerGpu", r.tflops_per_gpu);
    row.set("percentOfPeak", r.percent_of_peak);
    row.set("aggregatePflops", r.aggregate_pflops);
    row.set("checked", r.checked);
    table.call<void>("push", row);
  }
  val out = val::object();
  out.set("models", models);
  out.set("gpus", gpus);
  out.set("table1", table);
  return out;
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
  val o = val::object();
  o.set("forwardSeconds", a.forward_seconds);
  o.set("backwardSeconds", a.backward_seconds);
  o.set("forwardFlops", a.forward_flops);
  o.set("backwardFlops", a.backward_flops);
  o.set("countedFlops", a.counted_flops);
  o.set("hbmBytes", a.hbm_bytes);
  o.set("activationBytes", a.activation_bytes);
  return o;
}

val planner_validation() {
  const PlannerValidation v = dsml::planner_validation();
  val constants = val::array(), tables = val::array();
  for (const PlannerConstant& c : v.constants) {
    val o = val::object();
    o.set("name", c.name);
    o.set("value", c.value);
    o.set("unit", c.unit);
    o.set("source", c.source);
    o.set("fittedOn", c.fitted_on);
    constants.call<void>("push", o);
  }
  for (const ValidationTable& t : v.tables) {
    val rows = val::array();
    for (const ValidationRow& r : t.rows) {
      val o = val::object();
      o.set("label", r.label);
      o.set("published", r.published);
      o.set("predicted", r.predicted);
      o.set("relativeError", r.relative_error);
      o.set("fits", r.fits);
      o.set("memoryBytes", r.memory_bytes);
      o.set("capacityBytes", r.capacity_bytes);
      o.set("mainTerm", r.main_term);
      o.set("layout", plan_to(r.plan)["layout"]);
      rows.call<void>("push", o);
    }
    val bound = val::object();
    bound.set("each", t.bound_each);
    bound.set("mean", t.bound_mean);
    val o = val::object();
    o.set("id", t.id);
    o.set("title", t.title);
    o.set("source", t.source);
    o.set("gpu", t.gpu);
    o.set("metric", std::string(t.metric == "mfu" ? "mfu" : "tflopsPerGpu"));
    o.set("inSample", t.in_sample);
    o.set("bound", bound);
    o.set("rows", rows);
    o.set("meanAbsError", t.mean_abs_error);
    o.set("worstAbsError", t.worst_abs_error);
    o.set("fitting", t.fitting);
    tables.call<void>("push", o);
  }
  val out = val::object();
  out.set("constants", constants);
  out.set("tables", tables);
  return out;
}

}  // namespace dsml::bindings
