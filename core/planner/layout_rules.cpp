// layout_rules.cpp — which layouts plan_step accepts (dsml/planner.h, layout_error): the sentence naming the first
// rule a layout breaks, or "" when it is admissible; and complete_layout, which fills in what a layout may leave
// out (d, the layers of each stage). One place for the rules, so the search (which skips what is refused),
// plan_step (which throws it) and every front end cannot disagree.
#include <numeric>
#include <string>

#include "dsml/planner.h"

namespace dsml {
namespace {

std::string str(long long v) { return std::to_string(v); }

long long gpus_of(const ClusterSpec& c) { return static_cast<long long>(c.nodes) * c.gpus_per_node; }

// L layers over p stages as equal as they can be: ⌈L/p⌉ each, one fewer on the first, the last, the second, the
// second to last, … until they sum to L (the end stages also run the embedding and the output layer).
std::vector<int> balanced_stages(int layers, int p) {
  const int most = (layers + p - 1) / p;
  std::vector<int> stages(p, most);
  int fewer = most * p - layers;
  for (int i = 0; fewer > 0; ++i, --fewer) stages[i % 2 == 0 ? i / 2 : p - 1 - i / 2] -= 1;
  return stages;
}

std::string parallel_error(const PlannerModel& model, const ClusterSpec& c, const PlannerLayout& l) {
  const long long gpus = gpus_of(c);
  if (1LL * l.t * l.c * l.p * l.d != gpus) {
    if (gpus % (1LL * l.t * l.c * l.p) != 0)
      return "t·c·p = " + str(l.t) + "·" + str(l.c) + "·" + str(l.p) + " = " + str(1LL * l.t * l.c * l.p) +
             " does not divide the cluster's " + str(gpus) + " GPUs (d = GPUs/(t·c·p) must be whole)";
    return "t·c·p·d = " + str(l.t) + "·" + str(l.c) + "·" + str(l.p) + "·" + str(l.d) + " = " +
           str(1LL * l.t * l.c * l.p * l.d) + " must equal the cluster's " + str(gpus) + " GPUs";
  }
  if (l.t > c.gpus_per_node)
    return "tensor parallelism stays inside a node: t = " + str(l.t) + " > " + str(c.gpus_per_node) +
           " GPUs per node";
  if (model.heads % l.t != 0) return str(model.heads) + " attention heads are not divisible by t = " + str(l.t);
  const int kv = model.kv_heads > 0 ? model.kv_heads : model.heads;
  if (kv % l.t != 0) return str(kv) + " KV heads are not divisible by t = " + str(l.t);
  if (model.sequence % l.c != 0)
    return "sequence " + str(model.sequence) + " is not divisible by c = " + str(l.c) +
           " (context parallelism gives each GPU an equal slice of every sequence)";
  return "";
}

// `given`: whether the layout came with its own layers per stage (complete_layout fills them in otherwise).
std::string stage_error(const PlannerModel& model, const PlannerLayout& l, bool given) {
  if (l.p > model.layers)
    return str(model.layers) + " layers cannot fill p = " + str(l.p) + " pipeline stages (each needs a layer)";
  if (l.v > 1 && model.layers % (l.p * l.v) != 0)
    return str(model.layers) + " layers are not divisible by p·v = " + str(l.p) + "·" + str(l.v) +
           " (interleaving gives each of the p stages v chunks of equal depth)";
  if (!given) return "";
  if (static_cast<int>(l.stage_layers.size()) != l.p)
    return "layers per stage lists " + str(static_cast<long long>(l.stage_layers.size())) + " stages, p = " +
           str(l.p);
  if (l.v > 1)
    for (int n : l.stage_layers)
      if (n != model.layers / l.p)
        return "unequal stages are for the plain schedule (v = 1); interleaving gives every stage L/p = " +
               str(model.layers / l.p) + " layers";
  for (int n : l.stage_layers)
    if (n < 1) return "every pipeline stage needs at least one layer, got " + str(n);
  const long long sum = std::accumulate(l.stage_layers.begin(), l.stage_layers.end(), 0LL);
  if (sum != model.layers)
    return "layers per stage sum to " + str(sum) + ", the model has " + str(model.layers);
  return "";
}

std::string expert_error(const PlannerModel& model, const PlannerLayout& l) {
  if (l.e > 1 && model.experts == 0)
    return "expert parallelism e = " + str(l.e) + " needs a mixture-of-experts model (experts > 0)";
  if (l.d % l.e != 0)
    return "e = " + str(l.e) + " must divide d = " + str(l.d) + " (the experts are split over data-parallel ranks)";
  if (model.experts > 0 && model.experts % l.e != 0)
    return str(model.experts) + " experts are not divisible by e = " + str(l.e) + " (each GPU holds experts/e)";
  if (model.experts == 0) return "";
  for (int n : l.stage_layers)
    if ((n / l.v) % model.moe_every != 0)
      return "each chunk's " + str(n / l.v) + " layers must be a multiple of the MoE interval " +
             str(model.moe_every) + " (every stage holds whole groups of dense and MoE layers)";
  return "";
}

}  // namespace

PlannerLayout complete_layout(const PlannerModel& model, const ClusterSpec& c, PlannerLayout l) {
  const long long tcp = 1LL * l.t * l.c * l.p;
  if (l.d == 0 && tcp > 0 && gpus_of(c) % tcp == 0) l.d = static_cast<int>(gpus_of(c) / tcp);
  if (l.stage_layers.empty() && l.p >= 1 && l.p <= model.layers && l.v >= 1) {
    if (l.v == 1) l.stage_layers = balanced_stages(model.layers, l.p);
    else if (model.layers % (l.p * l.v) == 0) l.stage_layers.assign(l.p, model.layers / l.p);
  }
  return l;
}

std::string layout_error(const PlannerModel& model, const ClusterSpec& c, const PlannerLayout& given) {
  if (c.nodes < 1 || c.gpus_per_node < 1) return "nodes and GPUs per node must be >= 1";
  if (given.t < 1 || given.c < 1 || given.p < 1 || given.v < 1 || given.d < 0 || given.e < 1 ||
      given.micro_batch < 1 || given.global_batch < 1)
    return "t, c, p, v, e, micro-batch and global batch must all be >= 1 (and d >= 1, or 0 to derive it)";
  const PlannerLayout l = complete_layout(model, c, given);
  const std::string parallel = parallel_error(model, c, l);
  if (!parallel.empty()) return parallel;
  const std::string stages = stage_error(model, l, !given.stage_layers.empty());
  if (!stages.empty()) return stages;
  if (l.global_batch % (l.d * l.micro_batch) != 0)
    return "global batch " + str(l.global_batch) + " is not divisible by d·b = " + str(l.d) + "·" +
           str(l.micro_batch) + " (every data-parallel replica runs whole micro-batches)";
  const int m = l.global_batch / (l.d * l.micro_batch);
  if (l.v > 1 && l.p < 2)
    return "the interleaved schedule (v = " + str(l.v) + ") needs a pipeline: p >= 2, got p = " + str(l.p);
  if (l.v > 1 && m % l.p != 0)
    return "the interleaved schedule (v = " + str(l.v) + ") runs micro-batches in groups of p = " + str(l.p) +
           ": the " + str(m) + " micro-batches are not a multiple of it";
  if (l.zero_stage < 0 || l.zero_stage > 3) return "ZeRO stage must be 0, 1, 2 or 3, got " + str(l.zero_stage);
  return expert_error(model, l);
}

}  // namespace dsml
