// allreduce_hierarchical.cpp — a two-level all-reduce for nodes of several devices: keep most traffic on the
// fast links inside a node, send only 1/d of the vector between nodes (the scheme of Horovod's and NCCL's
// hierarchical all-reduce; Goyal et al. 2017 §4 use the same three phases; Thakur et al. 2005 for the rings).
//
// Layout: p = m · d ranks on m nodes of d devices; rank k·d + l is device l of node k.
// Slots: p chunks, indexed l·m + j: part l (chunks l·m … l·m + m − 1) is what device l is responsible for,
// and chunk j within it is what node j's device l finishes in the middle phase.
//   phase 1, intra-node ring reduce-scatter (reduce_scatter_ring.cpp) on each node, over the d parts:
//            device l ends with part l summed over its node;
//   phase 2, inter-node ring all-reduce (allreduce_ring.cpp's two rings) among the m devices with the same l,
//            over the m chunks of part l: now device l of every node holds part l summed over all p ranks;
//   phase 3, intra-node ring all-gather (allgather_ring.cpp) of the d parts.
// On a uniform network (every link α, β) and n divisible by p, with every node running in parallel:
//   T = 2(d − 1)α + 2((d − 1)/d) nβ + ((d − 1)/d) nγ                         (phases 1 + 3)
//     + 2(m − 1)α + 2((m − 1)/m)(n/d)β + ((m − 1)/m)(n/d)γ                   (phase 2)
// The β terms add up to exactly the ring's 2((p − 1)/p) nβ; the gain is on a real cluster, where only the
// (m − 1)/m · n/d bytes of phase 2 cross the slow inter-node links, and only 2(m − 1) slow latencies are paid.
// d = 1 or m = 1 is a plain ring.
#include "collectives/generators.h"

namespace dsml::collectives {

void allreduce_hierarchical(const Request& request, Schedule& s) {
  const int d = request.devices_per_node;  // checked by registry.cpp: d ≥ 1 divides p
  const int m = request.ranks / d;
  s.slot_bytes = split_bytes(request.bytes, request.ranks);
  const auto rank = [&](int node, int local) { return node * d + local; };

  // part l of the vector: the m chunks device l looks after.
  std::vector<std::vector<int>> node_parts(static_cast<std::size_t>(d));
  for (int l = 0; l < d; ++l) node_parts[static_cast<std::size_t>(l)] = slot_range(l * m, (l + 1) * m);

  std::vector<std::vector<int>> node_members(static_cast<std::size_t>(m));  // the d devices of node k
  for (int k = 0; k < m; ++k)
    for (int l = 0; l < d; ++l) node_members[static_cast<std::size_t>(k)].push_back(rank(k, l));

  // Phase 1: inside every node at once, device l ends with part l summed over the node.
  for (int k = 0; k < m; ++k) append_ring_reduce_scatter(s, node_members[k], node_parts);

  // Phase 2: d independent rings across the nodes, one per local index l, each all-reducing part l's m chunks
  // (chunk l·m + j finishes on node j first). On a real cluster these d rings share each node's NIC.
  for (int l = 0; l < d; ++l) {
    std::vector<int> ring;  // device l of every node
    for (int k = 0; k < m; ++k) ring.push_back(rank(k, l));
    std::vector<std::vector<int>> parts(static_cast<std::size_t>(m));
    for (int j = 0; j < m; ++j) parts[static_cast<std::size_t>(j)] = {l * m + j};
    append_ring_reduce_scatter(s, ring, parts);
    append_ring_allgather(s, ring, parts);
  }

  // Phase 3: inside every node, share the d finished parts.
  for (int k = 0; k < m; ++k) append_ring_allgather(s, node_members[k], node_parts);
}

}  // namespace dsml::collectives
