// layout_search.cpp — the fastest layouts that fit: every (t, p, v, d, b, ZeRO stage) a cluster admits, priced by
// plan_step (one model for the search and for a single plan), sorted by step time.
//
// t runs over the divisors of the GPUs per node (tensor parallelism stays on NVLink), c over options.contexts, p
// over the divisors of the remaining GPUs up to the layers (unequal stages where p does not divide them), v over
// the chunk counts that divide the layers per stage, d is what is left, e over the divisors of d that divide the
// experts (1 for a dense model). A layout plan_step refuses (heads not divisible by t, B not divisible by d·b, …)
// is skipped, not reported: the search answers "what is the best I can do", plan_step answers "why not this one";
// search_refusal answers "why nothing".
#include <algorithm>
#include <cstdio>
#include <string>

#include "dsml/error.h"
#include "dsml/planner.h"
#include "transformer_shapes.h"

namespace dsml {
namespace {

// Calls `visit` with every layout the search walks, admissible or not.
template <class Visit>
void for_each_layout(const PlannerModel& model, const ClusterSpec& cluster, const SearchOptions& options,
                     Visit visit) {
  const int N = cluster.nodes * cluster.gpus_per_node;
  PlannerLayout l;
  l.global_batch = options.global_batch;
  l.recomputation = options.recomputation;
  l.overlap_dp = options.overlap_dp;
  l.attention = options.attention;
  l.precision = options.precision;
  for (int t = 1; t <= cluster.gpus_per_node; ++t) {
    if (cluster.gpus_per_node % t != 0 || model.heads % t != 0) continue;
    for (int c : options.contexts) {
      if (c < 1 || (N / t) % c != 0) continue;
      for (int p = 1; p <= std::min(N / (t * c), model.layers); ++p) {
        if ((N / (t * c)) % p != 0) continue;
        for (int v = 1; v <= options.max_interleave; ++v) {
          if (v > 1 && (p < 2 || model.layers % (p * v) != 0)) continue;
          l.t = t, l.c = c, l.p = p, l.v = v, l.d = N / (t * c * p);
          l.sequence_parallel = options.sequence_parallel && t > 1;
          for (int b : options.micro_batches) {
            for (int zero : options.zero_stages) {
              if (zero > 0 && l.d * l.c == 1) continue;  // ZeRO partitions over d·c: nothing to shard
              for (int e = 1; e <= l.d; ++e) {
                if (l.d % e != 0 || (e > 1 && (model.experts == 0 || model.experts % e != 0))) continue;
                l.micro_batch = b, l.zero_stage = zero, l.e = e;
                visit(l);
              }
            }
          }
        }
      }
    }
  }
}

void check_options(const SearchOptions& options) {
  if (options.keep < 1) throw Error("the search must keep at least 1 layout, got " + std::to_string(options.keep));
  if (options.max_interleave < 1) throw Error("the largest interleaving v must be >= 1");
  if (options.global_batch < 1) throw Error("global batch must be >= 1 sequences");
  if (options.micro_batches.empty() || options.zero_stages.empty() || options.contexts.empty())
    throw Error("the search needs at least one micro-batch size, one ZeRO stage and one context-parallel size");
}

}  // namespace

std::vector<StepPlan> search_layouts(const PlannerModel& model, const ClusterSpec& cluster,
                                     const SearchOptions& options) {
  check_options(options);
  planner_parameters(model);  // validates the model: a bad preset is an error, not an empty answer
  if (cluster.nodes < 1 || cluster.gpus_per_node < 1) throw Error("nodes and GPUs per node must be >= 1");
  std::vector<StepPlan> fitting;
  for_each_layout(model, cluster, options, [&](const PlannerLayout& at) {
    if (!layout_error(model, cluster, at).empty()) return;  // not admissible (see above): skipped
    StepPlan plan = plan_step(model, cluster, at);
    if (plan.fits) fitting.push_back(plan);
  });
  std::stable_sort(fitting.begin(), fitting.end(),
                   [](const StepPlan& a, const StepPlan& b) { return a.time.total < b.time.total; });
  if (static_cast<int>(fitting.size()) > options.keep) fitting.resize(options.keep);
  return fitting;
}

}  // namespace dsml

namespace dsml {

std::string search_refusal(const PlannerModel& model, const ClusterSpec& cluster, const SearchOptions& options) {
  check_options(options);
  planner_parameters(model);
  if (cluster.nodes < 1 || cluster.gpus_per_node < 1) throw Error("nodes and GPUs per node must be >= 1");
  planner_detail::validate_gpu(cluster.gpu);
  int admissible = 0;
  bool batch_divides = false;
  std::string first_rule;
  StepPlan smallest;
  for_each_layout(model, cluster, options, [&](const PlannerLayout& at) {
    batch_divides = batch_divides || at.global_batch % (at.d * at.micro_batch) == 0;
    const std::string rule = layout_error(model, cluster, at);
    if (!rule.empty()) {
      if (first_rule.empty()) first_rule = rule;
      return;
    }
    const StepPlan plan = plan_step(model, cluster, at);
    if (admissible++ == 0 || plan.memory.total < smallest.memory.total) smallest = plan;
  });
  const int gpus = cluster.nodes * cluster.gpus_per_node;
  if (!batch_divides)
    return "global batch " + std::to_string(options.global_batch) + " is not divisible by d·b for any layout of " +
           std::to_string(gpus) + " GPUs (d divides the GPUs, b is one of the micro-batch sizes): every data-parallel"
           " replica runs whole micro-batches";
  if (admissible == 0) return "no layout is admissible; the first one tried breaks this rule: " + first_rule;
  if (smallest.fits) return "";
  const PlannerLayout& l = smallest.layout;
  char gb[64];
  std::snprintf(gb, sizeof gb, "%.1f GB of the GPU's %.1f GB", smallest.memory.total / 1e9, smallest.capacity / 1e9);
  return "none of the " + std::to_string(admissible) + " admissible layouts fits: the smallest (t = " +
         std::to_string(l.t) + ", c = " + std::to_string(l.c) + ", p = " + std::to_string(l.p) + ", d = " +
         std::to_string(l.d) + ", b = " + std::to_string(l.micro_batch) + ", ZeRO " + std::to_string(l.zero_stage) +
         ") needs " + gb;
}

}  // namespace dsml
