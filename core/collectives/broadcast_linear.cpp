// broadcast_linear.cpp — the naive broadcast: the root sends the whole vector to every other rank in turn.
//
// Protocol (p ranks, root t, one slot holding all n bytes):
//   root      for i = 1 … p − 1: send the slot to rank (t + i) mod p
//   others    receive the slot from the root (copy)
// The root's uplink carries p − 1 full messages one after another, so
//   T = (p − 1)(α + nβ)
// — linear in p. The binomial tree (broadcast_binomial.cpp) needs only ⌈log₂ p⌉ such steps, and
// scatter + all-gather (broadcast_scatter_allgather.cpp) moves only about 2n bytes per rank whatever p is
// (Thakur, Rabenseifner & Gropp 2005, §4.1). Diff this file with those two.
#include "collectives/generators.h"

namespace dsml::collectives {

void append_linear_broadcast(Schedule& s, int root, const std::vector<int>& slots) {
  for (int i = 1; i < s.ranks; ++i) add_transfer(s, root, wrap(root + i, s.ranks), slots, /*reduce=*/false);
}

void broadcast_linear(const Request& request, Schedule& s) {
  s.slot_bytes = {request.bytes};
  append_linear_broadcast(s, request.root, {0});
}

}  // namespace dsml::collectives
