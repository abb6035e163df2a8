// expert_parallel_cost.cpp — an expert-parallel all-to-all priced in closed form and simulated on a topology
// (dsml/expert_parallel.h). On one switch the pairwise schedule takes exactly (R − 1)α + ((R − 1)/R)nβ; on
// nodes of GPUs behind one NIC each, the NIC carries every byte that leaves the node, so the flat all-to-all
// is slower by about the number of GPUs per node.
#include <cmath>
#include <string>

#include "dsml/collective_cost.h"
#include "dsml/error.h"
#include "dsml/expert_parallel.h"
#include "dsml/lazy_schedule.h"
#include "dsml/simulator.h"

namespace dsml {

ExpertAllToAllBytes expert_all_to_all_bytes(const MoeConfig& config, int ranks, int capacity, double element_bytes) {
  const double block = static_cast<double>(config.experts / ranks) * capacity * config.width * element_bytes;
  return {block * ranks, block * (ranks - 1)};
}

AllToAllPrice price_expert_all_to_all(const MoeConfig& config, int tokens_per_rank, double element_bytes,
                                      const CostModel& link, const Topology& topology) {
  validate(config);
  const int R = topology.ranks();
  if (tokens_per_rank < 1) throw Error("tokens per rank must be >= 1, got " + std::to_string(tokens_per_rank));
  require_positive("element bytes", element_bytes);
  if (R < 1 || config.experts % R != 0)
    throw Error("expert parallelism needs the ranks R to divide the experts: E = " + std::to_string(config.experts) +
                ", R = " + std::to_string(R));
  AllToAllPrice price;
  price.capacity =
      static_cast<int>(std::ceil(config.capacity_factor * config.top_k * tokens_per_rank / config.experts - 1e-12));
  price.bytes_per_rank = expert_all_to_all_bytes(config, R, price.capacity, element_bytes).total;
  price.closed_form_s = closed_form_time("all-to-all", "pairwise", R, price.bytes_per_rank, link).total();
  price.simulated_s =
      simulate_schedule(topology, *make_lazy_schedule("all-to-all", "pairwise", R, price.bytes_per_rank), 0).makespan;
  return price;
}

}  // namespace dsml
