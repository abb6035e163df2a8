// broadcast_binomial.cpp — broadcast down a binomial tree: every rank that has the data passes it on, so the
// number of ranks holding it doubles each step (Thakur, Rabenseifner & Gropp 2005, §4.1; MPICH's short-message
// broadcast).
//
// Protocol, in ranks relative to the root, v = (rank − root) mod p, one slot holding all n bytes. Let
// 2^K ≥ p be the smallest power of two (K = ⌈log₂ p⌉). For mask = 2^(K−1), 2^(K−2), …, 1:
//   every v that is a multiple of 2·mask and has v + mask < p sends the slot to v + mask.
// So the root sends to p/2 first (the far half of the tree), then p/4, …; rank v receives once, at the mask
// equal to its lowest set bit, and forwards at every smaller mask. Every level takes one message time and there
// are K levels, for any p:
//   T = ⌈log₂ p⌉(α + nβ).
// Each rank still receives all n bytes ⌈log₂ p⌉ hops from the root; for long vectors scatter + all-gather
// (broadcast_scatter_allgather.cpp) trades more α for less β. Compare broadcast_linear.cpp: (p − 1)(α + nβ).
#include "collectives/generators.h"

namespace dsml::collectives {

void broadcast_binomial(const Request& request, Schedule& s) {
  const int p = request.ranks;
  s.slot_bytes = {request.bytes};
  for (int mask = (1 << ceil_log2(p)) / 2; mask >= 1; mask /= 2)
    for (int v = 0; v + mask < p; v += 2 * mask)
      add_transfer(s, wrap(v + request.root, p), wrap(v + mask + request.root, p), {0}, /*reduce=*/false);
}

}  // namespace dsml::collectives
