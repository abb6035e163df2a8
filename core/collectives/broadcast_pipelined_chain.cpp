// broadcast_pipelined_chain.cpp — broadcast down a chain root → root + 1 → … → root + p − 1, the message cut into
// k segments that flow down the chain one behind another, like a bucket brigade (pipelined broadcast: Johnsson &
// Ho, "Optimum broadcasting and personalized communication in hypercubes", IEEE TC 1989; Thakur, Rabenseifner &
// Gropp 2005 §4.1; NCCL broadcasts this way along its rings, in fixed-size chunks).
//
// Slots: k segments of n/k bytes. Relative rank v = (rank − root) mod p.
//   v = 0 (the root):  for i = 0 … k − 1: send segment i to v + 1.
//   0 < v < p − 1:     for i = 0 … k − 1: receive segment i from v − 1, send it on to v + 1.
//   v = p − 1:         for i = 0 … k − 1: receive segment i from v − 1.
// Sends are eager, so rank v forwards segment i while segment i + 1 is on its way in. With t = α + βn/k, one
// segment's time on one link, segment i reaches relative rank v at (i + v)·t: the first reaches the end after
// p − 1 steps, then one more arrives per step, k − 1 steps to drain —
//   T(k) = (k + p − 2)(α + βn/k),   best k* = √((p − 2)nβ/α),   T(k*) = (√((p − 2)α) + √(nβ))².
// For large n this tends to nβ, the broadcast lower bound (every rank must receive n bytes); the price is the
// start-up of p − 2 steps. k = 1 is the unpipelined chain, (p − 1)(α + nβ), as slow as broadcast_linear.cpp.
// Exact in the simulator when n is a multiple of 4k (equal segments). Compare broadcast_pipelined_tree.cpp.
#include "collectives/generators.h"

namespace dsml::collectives {

void broadcast_pipelined_chain(const Request& request, Schedule& s) {
  const int p = request.ranks, k = request.segments;
  s.slot_bytes = split_bytes(request.bytes, k);
  if (p == 1) return;
  const auto rank = [&](int v) { return wrap(v + request.root, p); };
  // Each rank's list is built in segment order; add_transfer appends the send to the sender's list and the
  // receive to the receiver's, so walking the chain link by link for each segment gives every middle rank
  // "recv i, send i, recv i + 1, …".
  for (int i = 0; i < k; ++i)
    for (int v = 0; v + 1 < p; ++v) add_transfer(s, rank(v), rank(v + 1), {i}, /*reduce=*/false);
}

}  // namespace dsml::collectives
