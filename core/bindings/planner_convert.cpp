// planner_convert.cpp — see planner_convert.h: the planner's values to and from JavaScript objects, field by field,
// each table read and written from one list so the two directions cannot drift apart.
#include "planner_convert.h"

#include <string>
#include <vector>

#include "dsml/error.h"
#include "dsml/plan_fields.h"
#include "fields.h"
#include "js_object.h"

namespace dsml::bindings {
namespace {

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
                                     {"tiedEmbeddings", &PlannerModel::tied_embeddings},
                                     {"dropout", &PlannerModel::dropout}};
struct NumberField {
  const char* key;
  double GpuSpec::*member;
};
constexpr NumberField kGpuNumbers[] = {
    {"peakFlops", &GpuSpec::peak_flops},         {"fp8PeakFlops", &GpuSpec::fp8_peak_flops},
    {"hbmBytes", &GpuSpec::hbm_bytes},           {"hbmBandwidth", &GpuSpec::hbm_bandwidth},
    {"nvlinkBandwidth", &GpuSpec::nvlink_bandwidth}, {"nvlinkLatency", &GpuSpec::nvlink_latency},
    {"networkBandwidth", &GpuSpec::network_bandwidth}, {"networkLatency", &GpuSpec::network_latency},
    {"matmulInStep", &GpuSpec::matmul_in_step},
};
struct KernelNumber {
  const char* key;
  double KernelSpeeds::*member;
};
constexpr KernelNumber kKernelNumbers[] = {{"matmulFlops", &KernelSpeeds::matmul_flops},
                                           {"matmulFp8Flops", &KernelSpeeds::matmul_fp8_flops},
                                           {"hbmBandwidth", &KernelSpeeds::hbm_bandwidth}};
struct KernelWhole {
  const char* key;
  int KernelSpeeds::*member;
};
constexpr KernelWhole kKernelWholes[] = {
    {"sms", &KernelSpeeds::sms}, {"tileM", &KernelSpeeds::tile_m}, {"tileN", &KernelSpeeds::tile_n}};

std::vector<double> numbers_of(const val& list, const std::string& ctx) {
  if (!list.isArray()) throw Error(ctx + " must be an array of numbers");
  std::vector<double> out;
  const int n = list["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    if (!list[i].isNumber()) throw Error(ctx + " must be an array of numbers");
    out.push_back(list[i].as<double>());
  }
  return out;
}

val numbers_to(const std::vector<double>& xs) {
  val out = val::array();
  for (double x : xs) out.call<void>("push", x);
  return out;
}

KernelSpeeds kernels_from(const val& o, const std::string& ctx) {
  require_object(o, ctx, "{matmulFlops, matmulFp8Flops, hbmBandwidth, sms, tileM, tileN, attention: [...]}");
  KernelSpeeds k;
  for (const KernelNumber& f : kKernelNumbers) k.*f.member = number_field(o, f.key, ctx);
  for (const KernelWhole& f : kKernelWholes) k.*f.member = whole(o, f.key, ctx);
  const val list = o["attention"];
  if (!list.isArray()) throw Error(ctx + ": attention must be an array of {kernel, headDim, sequences, flops}");
  const int n = list["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const std::string at = ctx + ": attention[" + std::to_string(i) + "]";
    require_object(list[i], at, "{kernel, headDim, sequences, flops}");
    AttentionSpeed a;
    a.kernel = in_context(at, [&] { return parse_attention_kernel(text_field(list[i], "kernel", at)); });
    a.head_dim = whole(list[i], "headDim", at);
    a.sequences = numbers_of(list[i]["sequences"], at + ": sequences");
    a.flops = numbers_of(list[i]["flops"], at + ": flops");
    k.attention.push_back(a);
  }
  return k;
}

val kernels_to(const KernelSpeeds& k) {
  val o = val::object();
  for (const KernelNumber& f : kKernelNumbers) o.set(f.key, k.*f.member);
  for (const KernelWhole& f : kKernelWholes) o.set(f.key, k.*f.member);
  val list = val::array();
  for (const AttentionSpeed& a : k.attention) {
    val x = val::object();
    x.set("kernel", std::string(attention_kernel_name(a.kernel)));
    x.set("headDim", a.head_dim);
    x.set("sequences", numbers_to(a.sequences));
    x.set("flops", numbers_to(a.flops));
    list.call<void>("push", x);
  }
  o.set("attention", list);
  return o;
}

}  // namespace

int whole_or(const val& o, const char* name, int fallback, const std::string& ctx, int minimum) {
  return static_cast<int>(whole_field_or(o, name, fallback, ctx, minimum, 1 << 30));
}

int whole(const val& o, const char* name, const std::string& ctx, int minimum) {
  return static_cast<int>(whole_field(o, name, ctx, minimum, 1 << 30));
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

Recomputation recomputation_from(const std::string& name, const std::string& ctx) {
  return in_context(ctx, [&] { return parse_recomputation(name); });
}

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
  require_object(o, ctx, "{name?, peakFlops, hbmBytes, hbmBandwidth, nvlinkBandwidth, …, kernels}");
  GpuSpec g;
  g.name = name_or_custom(o);
  for (const NumberField& f : kGpuNumbers) g.*f.member = number_field(o, f.key, ctx);
  g.kernels = kernels_from(object_field(o, "kernels", ctx), ctx + ": kernels");
  return g;
}

val gpu_to(const GpuSpec& g) {
  val o = val::object();
  o.set("name", g.name);
  for (const NumberField& f : kGpuNumbers) o.set(f.key, g.*f.member);
  o.set("kernels", kernels_to(g.kernels));
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
  require_object(o, ctx, "{t, p, v?, d?, microBatch?, globalBatch, zeroStage?, sequenceParallel?, recomputation?, …}");
  PlannerLayout l;  // its defaults are the fallbacks; d = 0: the core derives it
  l.t = whole(o, "t", ctx);
  l.p = whole(o, "p", ctx);
  l.v = whole_or(o, "v", l.v, ctx);
  l.d = whole_or(o, "d", 0, ctx, 0);
  l.c = whole_or(o, "c", l.c, ctx);
  l.e = whole_or(o, "e", l.e, ctx);
  l.micro_batch = whole_or(o, "microBatch", l.micro_batch, ctx);
  l.global_batch = whole(o, "globalBatch", ctx);
  l.zero_stage = whole_or(o, "zeroStage", l.zero_stage, ctx, 0);
  l.sequence_parallel = flag_field_or(o, "sequenceParallel", l.sequence_parallel, ctx);
  if (!o["recomputation"].isUndefined()) l.recomputation = recomputation_from(text_field(o, "recomputation", ctx), ctx);
  l.overlap_dp = flag_field_or(o, "overlapDp", l.overlap_dp, ctx);
  if (!o["attention"].isUndefined())
    l.attention = in_context(ctx, [&] { return parse_attention_kernel(text_field(o, "attention", ctx)); });
  if (!o["precision"].isUndefined())
    l.precision = in_context(ctx, [&] { return parse_precision(text_field(o, "precision", ctx)); });
  l.stage_layers = wholes_or(o, "stageLayers", l.stage_layers, ctx);
  return l;
}

val memory_to(const PlanMemory& m) { return fields_to_val(m); }

val plan_to(const StepPlan& p) { return fields_to_val(p); }

}  // namespace dsml::bindings
