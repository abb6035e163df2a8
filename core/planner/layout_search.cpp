// layout_search.cpp — the fastest layouts that fit: every (t, p, v, d, b, ZeRO stage) a cluster admits, priced by
// plan_step (one model for the search and for a single plan), sorted by step time.
//
// t runs over the divisors of the GPUs per node (tensor parallelism stays on NVLink), c over options.contexts, p
// over the divisors of the remaining GPUs that divide the layers, v over the chunk counts that divide the layers
// per stage, d is what is left, e over the divisors of d that divide the experts (1 for a dense model). A layout plan_step refuses (heads not divisible by t, B not divisible by d·b, …) is skipped, not reported:
// the search answers "what is the best I can do", plan_step answers "why not this one".
#include <algorithm>

#include "dsml/error.h"
#include "dsml/planner.h"

namespace dsml {

std::vector<StepPlan> search_layouts(const PlannerModel& model, const ClusterSpec& cluster,
                                     const SearchOptions& options) {
  if (options.keep < 1) throw Error("the search must keep at least 1 layout, got " + std::to_string(options.keep));
  if (options.max_interleave < 1) throw Error("the largest interleaving v must be >= 1");
  if (options.global_batch < 1) throw Error("global batch must be >= 1 sequences");
  if (options.micro_batches.empty() || options.zero_stages.empty() || options.contexts.empty())
    throw Error("the search needs at least one micro-batch size, one ZeRO stage and one context-parallel size");
  planner_parameters(model);  // validates the model: a bad preset is an error, not an empty answer
  if (cluster.nodes < 1 || cluster.gpus_per_node < 1) throw Error("nodes and GPUs per node must be >= 1");
  const int N = cluster.nodes * cluster.gpus_per_node;
  std::vector<StepPlan> fitting;
  PlannerLayout l;
  l.global_batch = options.global_batch;
  l.recomputation = options.recomputation;
  l.overlap_dp = options.overlap_dp;
  auto try_all = [&](PlannerLayout at) {  // every (b, ZeRO stage, e) at a fixed (t, c, p, v, d)
    for (int b : options.micro_batches) {
      for (int zero : options.zero_stages) {
        if (zero > 0 && at.d * at.c == 1) continue;  // ZeRO partitions over d·c: nothing to shard
        for (int e = 1; e <= at.d; ++e) {
          if (at.d % e != 0 || (e > 1 && (model.experts == 0 || model.experts % e != 0))) continue;
          at.micro_batch = b, at.zero_stage = zero, at.e = e;
          if (!layout_error(model, cluster, at).empty()) continue;  // not admissible (see above): skipped
          StepPlan plan = plan_step(model, cluster, at);
          if (plan.fits) fitting.push_back(plan);
        }
      }
    }
  };
  for (int t = 1; t <= cluster.gpus_per_node; ++t) {
    if (cluster.gpus_per_node % t != 0 || model.heads % t != 0) continue;
    for (int c : options.contexts) {
      if (c < 1 || (N / t) % c != 0) continue;
      for (int p = 1; p <= N / (t * c); ++p) {
        if ((N / (t * c)) % p != 0 || model.layers % p != 0) continue;
        for (int v = 1; v <= options.max_interleave; ++v) {
          if ((model.layers / p) % v != 0 || (v > 1 && p < 2)) continue;
          l.t = t, l.c = c, l.p = p, l.v = v, l.d = N / (t * c * p);
          l.sequence_parallel = options.sequence_parallel && t > 1;
          try_all(l);
        }
      }
    }
  }
  std::stable_sort(fitting.begin(), fitting.end(),
                   [](const StepPlan& a, const StepPlan& b) { return a.time.total < b.time.total; });
  if (static_cast<int>(fitting.size()) > options.keep) fitting.resize(options.keep);
  return fitting;
}

}  // namespace dsml
