// two_level_cost.cpp — the hierarchical all-reduce's closed form on the two-level cluster it is made for
// (Topology::hierarchical: nodes of d devices on a switch, ONE NIC per node into the network), dsml/collective_cost.h.
//
// Phases 1 and 3 (allreduce_hierarchical.cpp) stay inside the nodes: d − 1 rounds each of one message of n/d bytes
// per device, on the intra links, every node in parallel: 2(d − 1)(α_intra + (n/d)β_intra) + ((d − 1)/d)nγ.
// Phase 2 runs d rings across the m nodes, one per local index, and all d of a node's devices send through its one
// NIC: a message holds every link of its route (topology.h), so each round the NIC carries d messages of n/(d·m)
// bytes one after another, each T = α_intra + α_inter + max(β_intra, β_inter)·n/(d·m). Over 2(m − 1) rounds:
//   2(m − 1)·d·T + ((m − 1)/m)(n/d)γ
// The bandwidth term, 2((m − 1)/m)·n·max(β)·…, is the per-device ring's over a NIC d times as fast; the latency term
// pays d·(α_intra + α_inter) a round — what sharing one NIC costs that one NIC per device would not.
// The simulator meets it exactly for γ = 0 and n a multiple of 4p (tests/core/test_lazy_hierarchical.cpp); with
// γ > 0 a device's reduction overlaps the other devices' turns on the NIC, so it is an upper bound.
#include <string>

#include "dsml/collective_cost.h"
#include "dsml/error.h"

namespace dsml {

CostTerms hierarchical_allreduce_two_level(int nodes, int per_node, double bytes, const CostModel& intra,
                                           const CostModel& inter) {
  if (nodes < 1 || per_node < 1)
    throw Error("the two-level cluster needs at least 1 node of at least 1 device, got " + std::to_string(nodes) +
                " × " + std::to_string(per_node));
  require_non_negative("bytes", bytes);
  validate(intra);
  validate(inter);
  const double d = per_node, m = nodes, n = bytes;
  const double beta_path = inter.beta > intra.beta ? inter.beta : intra.beta;
  CostTerms t;
  t.latency = 2 * (d - 1) * intra.alpha + 2 * (m - 1) * d * (intra.alpha + inter.alpha);
  t.bandwidth = 2 * (d - 1) * (n / d) * intra.beta + 2 * (m - 1) * (n / m) * beta_path;
  t.reduction = (d - 1) / d * n * intra.gamma + (m - 1) / m * (n / d) * intra.gamma;
  return t;
}

}  // namespace dsml
