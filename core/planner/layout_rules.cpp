// layout_rules.cpp — which layouts plan_step accepts (dsml/planner.h, layout_error): the sentence naming the first
// rule a layout breaks, or "" when it is admissible. One place for the rules, so the search (which skips what is
// refused) and plan_step (which throws it) cannot disagree.
#include <string>

#include "dsml/planner.h"

namespace dsml {
namespace {

std::string str(long long v) { return std::to_string(v); }

std::string parallel_error(const PlannerModel& model, const ClusterSpec& c, const PlannerLayout& l) {
  const long long gpus = static_cast<long long>(c.nodes) * c.gpus_per_node;
  if (1LL * l.t * l.c * l.p * l.d != gpus)
    return "t·c·p·d = " + str(l.t) + "·" + str(l.c) + "·" + str(l.p) + "·" + str(l.d) + " = " +
           str(1LL * l.t * l.c * l.p * l.d) + " must equal the cluster's " + str(gpus) + " GPUs";
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

std::string expert_error(const PlannerModel& model, const PlannerLayout& l) {
  if (l.e > 1 && model.experts == 0)
    return "expert parallelism e = " + str(l.e) + " needs a mixture-of-experts model (experts > 0)";
  if (l.d % l.e != 0)
    return "e = " + str(l.e) + " must divide d = " + str(l.d) + " (the experts are split over data-parallel ranks)";
  if (model.experts > 0 && model.experts % l.e != 0)
    return str(model.experts) + " experts are not divisible by e = " + str(l.e) + " (each GPU holds experts/e)";
  const int per_stage = model.layers / (l.p * l.v);
  if (model.experts > 0 && per_stage % model.moe_every != 0)
    return "each chunk's " + str(per_stage) + " layers must be a multiple of the MoE interval " +
           str(model.moe_every) + " (every stage holds the same MoE layers)";
  return "";
}

}  // namespace

std::string layout_error(const PlannerModel& model, const ClusterSpec& c, const PlannerLayout& l) {
  if (c.nodes < 1 || c.gpus_per_node < 1) return "nodes and GPUs per node must be >= 1";
  if (l.t < 1 || l.c < 1 || l.p < 1 || l.v < 1 || l.d < 1 || l.e < 1 || l.micro_batch < 1 || l.global_batch < 1)
    return "t, c, p, v, d, e, micro-batch and global batch must all be >= 1";
  const std::string parallel = parallel_error(model, c, l);
  if (!parallel.empty()) return parallel;
  if (model.layers % (l.p * l.v) != 0)
    return str(model.layers) + " layers are not divisible by p·v = " + str(l.p) + "·" + str(l.v) +
           " (each of the p stages holds v chunks of equal depth)";
  if (l.global_batch % (l.d * l.micro_batch) != 0)
    return "global batch " + str(l.global_batch) + " is not divisible by d·b = " + str(l.d) + "·" +
           str(l.micro_batch) + " (every data-parallel replica runs whole micro-batches)";
  const int m = l.global_batch / (l.d * l.micro_batch);
  if (l.v > 1 && (l.p < 2 || m % l.p != 0))
    return "the interleaved schedule (v = " + str(l.v) + ") needs p >= 2 and the " + str(m) +
           " micro-batches a multiple of p = " + str(l.p);
  if (l.zero_stage < 0 || l.zero_stage > 3) return "ZeRO stage must be 0, 1, 2 or 3, got " + str(l.zero_stage);
  return expert_error(model, l);
}

}  // namespace dsml
