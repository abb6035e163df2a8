// reduce_linear.cpp — the naive reduce: every rank sends its whole vector to the root, which adds them up.
//
// Protocol (p ranks, root t, one slot holding all n bytes):
//   others    send the slot to the root
//   root      for every other rank s, in increasing rank order: receive from s and add into the slot
// The root's downlink takes p − 1 full messages one after another, and it reduces each: Thakur, Rabenseifner &
// Gropp (2005, §4.3) charge
//   T = (p − 1)(α + nβ + nγ).
// The simulator's eager sends let the root add message k while message k + 1 is still on the wire, so there it
// finishes in max((p − 1)(α + nβ) + nγ, (α + nβ) + (p − 1)nγ) — the same for p = 2, less after. Receiving in
// rank order matches the order the messages queue at the root (all are posted at t = 0, lowest rank first).
// The binomial tree (reduce_binomial.cpp) needs ⌈log₂ p⌉ steps instead of p − 1.
#include "collectives/generators.h"

namespace dsml::collectives {

void append_linear_reduce(Schedule& s, int root, const std::vector<int>& slots) {
  for (int r = 0; r < s.ranks; ++r)
    if (r != root) add_send(s, r, root, slots);
  for (int r = 0; r < s.ranks; ++r)
    if (r != root) add_recv_reduce(s, root, r, slots);
}

void reduce_linear(const Request& request, Schedule& s) {
  s.slot_bytes = {request.bytes};
  append_linear_reduce(s, request.root, {0});
}

}  // namespace dsml::collectives
