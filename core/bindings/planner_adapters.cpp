// planner_adapters.cpp — see planner_adapters.h. Convert, call the core, convert back: the field names are
// dsml.d.ts's (camelCase), the values the core's (seconds, bytes, FLOPs).
#include "planner_adapters.h"

#include <string>
#include <vector>

#include "dsml/error.h"
#include "dsml/planner.h"
#include "fields.h"

namespace dsml::bindings {
namespace {

int whole(const val& o, const char* name, const std::string& ctx, int minimum = 1) {
  return static_cast<int>(whole_field(o, name, ctx, minimum, 1 << 30));
}
int whole_or(const val& o, const char* name, int fallback, const std::string& ctx, int minimum = 1) {
  return static_cast<int>(whole_field_or(o, name, fallback, ctx, minimum, 1 << 30));
}

Recomputation recomputation_from(const std::string& name, const std::string& ctx) {
  return in_context(ctx, [&] { return parse_recomputation(name); });
}

std::string name_or_custom(const val& o) { return o["name"].isString() ? o["name"].as<std::string>() : "custom"; }

// The model's and the GPU's fields, one row each: read (with its minimum; an optional field falls back to the
// core's default, PlannerModel's own) and written from the same table, so the two directions cannot drift apart.
struct WholeField {
  const char* key;
  int PlannerModel::*member;
  bool required;
  int minimum;
};
constexpr WholeField kModelWholes[] = {
    {"layers", &PlannerModel::layers, true, 1},     {"hidden", &PlannerModel::hidden, true, 1},
    {"heads", &PlannerModel::heads, true, 1},       {"kvHeads", &PlannerModel::kv_heads, false, 0},
    {"ffn", &PlannerModel::ffn, false, 0},          {"sequence", &PlannerModel::sequence, true, 1},
    {"vocabulary", &PlannerModel::vocabulary, true, 1}, {"experts", &PlannerModel::experts, false, 0},
    {"topK", &PlannerModel::top_k, false, 1},       {"moeEvery", &PlannerModel::moe_every, false, 1},
};
struct FlagField {
  const char* key;
  bool PlannerModel::*member;
};
constexpr FlagField kModelFlags[] = {{"gatedFfn", &PlannerModel::gated_ffn},
                                     {"learnedPositions", &PlannerModel::learned_positions},
                                     {"tiedEmbeddings", &PlannerModel::tied_embeddings}};
struct NumberField {
  const char* key;
  double GpuSpec::*member;
};
constexpr NumberField kGpuNumbers[] = {
    {"peakFlops", &GpuSpec::peak_flops},         {"hbmBytes", &GpuSpec::hbm_bytes},
    {"hbmBandwidth", &GpuSpec::hbm_bandwidth},   {"nvlinkBandwidth", &GpuSpec::nvlink_bandwidth},
    {"nvlinkLatency", &GpuSpec::nvlink_latency}, {"networkBandwidth", &GpuSpec::network_bandwidth},
    {"networkLatency", &GpuSpec::network_latency}, {"gemmEfficiency", &GpuSpec::gemm_efficiency},
    {"hbmEfficiency", &GpuSpec::hbm_efficiency},
};

PlannerModel model_from(const val& o, const std::string& ctx) {
  require_object(o, ctx, "{name?, layers, hidden, heads, kvHeads?, ffn?, gatedFfn?, sequence, vocabulary, …}");
  PlannerModel m;  // its defaults are the fallbacks
  m.name = name_or_custom(o);
  for (const WholeField& f : kModelWholes)
    m.*f.member = f.required ? whole(o, f.key, ctx, f.minimum) : whole_or(o, f.key, m.*f.member, ctx, f.minimum);
  for (const FlagField& f : kModelFlags) m.*f.member = flag_field_or(o, f.key, m.*f.member, ctx);
  return m;
}

val model_to(const PlannerModel& m) {
  val o = val::object();
  o.set("name", m.name);
  for (const WholeField& f : kModelWholes) o.set(f.key, m.*f.member);
  for (const FlagField& f : kModelFlags) o.set(f.key, m.*f.member);
  return o;
}

GpuSpec gpu_from(const val& o, const std::string& ctx) {
  require_object(o, ctx, "{name?, peakFlops, hbmBytes, hbmBandwidth, nvlinkBandwidth, …}");
  GpuSpec g;
  g.name = name_or_custom(o);
  for (const NumberField& f : kGpuNumbers) g.*f.member = number_field(o, f.key, ctx);
  return g;
}

val gpu_to(const GpuSpec& g) {
  val o = val::object();
  o.set("name", g.name);
  for (const NumberField& f : kGpuNumbers) o.set(f.key, g.*f.member);
  return o;
}

ClusterSpec cluster_from(const val& o, const std::string& ctx) {
  require_object(o, ctx, "{gpu, nodes, gpusPerNode?}");
  ClusterSpec c;  // its defaults are the fallbacks
  c.gpu = gpu_from(object_field(o, "gpu", ctx), ctx + ": gpu");
  c.nodes = whole(o, "nodes", ctx);
  c.gpus_per_node = whole_or(o, "gpusPerNode", c.gpus_per_node, ctx);
  return c;
}

PlannerLayout layout_from(const val& o, const std::string& ctx) {
  require_object(o, ctx, "{t, p, v?, d, microBatch?, globalBatch, zeroStage?, sequenceParallel?, recomputation?, …}");
  PlannerLayout l;  // its defaults are the fallbacks
  l.t = whole(o, "t", ctx);
  l.p = whole(o, "p", ctx);
  l.v = whole_or(o, "v", l.v, ctx);
  l.d = whole(o, "d", ctx);
  l.c = whole_or(o, "c", l.c, ctx);
  l.e = whole_or(o, "e", l.e, ctx);
  l.micro_batch = whole_or(o, "microBatch", l.micro_batch, ctx);
  l.global_batch = whole(o, "globalBatch", ctx);
  l.zero_stage = whole_or(o, "zeroStage", l.zero_stage, ctx, 0);
  l.sequence_parallel = flag_field_or(o, "sequenceParallel", l.sequence_parallel, ctx);
  if (!o["recomputation"].isUndefined()) l.recomputation = recomputation_from(text_field(o, "recomputation", ctx), ctx);
  l.overlap_dp = flag_field_or(o, "overlapDp", l.overlap_dp, ctx);
  return l;
}

val plan_to(const StepPlan& p) {
  const PlannerLayout& l = p.layout;
  val layout = val::object();
  layout.set("t", l.t);
  layout.set("p", l.p);
  layout.set("v", l.v);
  layout.set("d", l.d);
  layout.set("c", l.c);
  layout.set("e", l.e);
  layout.set("microBatch", l.micro_batch);
  layout.set("globalBatch", l.global_batch);
  layout.set("zeroStage", l.zero_stage);
  layout.set("sequenceParallel", l.sequence_parallel);
  layout.set("recomputation", std::string(recomputation_name(l.recomputation)));
  layout.set("overlapDp", l.overlap_dp);
  val time = val::object();
  time.set("compute", p.time.compute);
  time.set("bubble", p.time.bubble);
  time.set("tensor", p.time.tensor);
  time.set("context", p.time.context);
  time.set("expert", p.time.expert);
  time.set("pipeline", p.time.pipeline);
  time.set("data", p.time.data);
  time.set("optimizer", p.time.optimizer);
  time.set("total", p.time.total);
  val memory = val::object();
  memory.set("params", p.memory.params);
  memory.set("grads", p.memory.grads);
  memory.set("optimizer", p.memory.optimizer);
  memory.set("activations", p.memory.activations);
  memory.set("total", p.memory.total);
  val o = val::object();
  o.set("layout", layout);
  o.set("gpus", p.gpus);
  o.set("microBatches", p.micro_batches);
  o.set("parameters", p.parameters);
  o.set("activeParameters", p.active_parameters);
  o.set("hardwareFlops", p.hardware_flops);
  o.set("modelFlops", p.model_flops);
  o.set("time", time);
  o.set("memory", memory);
  o.set("capacity", p.capacity);
  o.set("fits", p.fits);
  o.set("tokensPerS", p.tokens_per_s);
  o.set("tflopsPerGpu", p.tflops_per_gpu);
  o.set("mfu", p.mfu);
  o.set("hfu", p.hfu);
  return o;
}

std::vector<int> wholes_or(const val& o, const char* name, const std::vector<int>& fallback, const std::string& ctx) {
  if (o[name].isUndefined()) return fallback;
  const val list = o[name];
  if (!list.isArray()) throw Error(ctx + ": " + name + " must be an array of whole numbers");
  std::vector<int> out;
  const int n = list["length"].as<int>();
  for (int i = 0; i < n; ++i)
    out.push_back(static_cast<int>(whole_value(list[i].as<double>(), ctx + ": " + name, 0, 1 << 30)));
  return out;
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
  o.max_interleave = whole_or(r, "maxInterleave", o.max_interleave, ctx);
  o.keep = whole_or(r, "keep", o.keep, ctx);
  val out = val::array();
  for (const StepPlan& p : dsml::search_layouts(model_from(object_field(r, "model", ctx), ctx + ": model"),
                                                cluster_from(object_field(r, "cluster", ctx), ctx + ": cluster"), o))
    out.call<void>("push", plan_to(p));
  return out;
}

}  // namespace dsml::bindings
