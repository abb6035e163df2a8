// reduce_scatter_pairwise.cpp — reduce-scatter by pairwise exchange: every rank sends every other rank, directly,
// the chunk that rank owns (Thakur, Rabenseifner & Gropp 2005, §4.5; MPICH's reduce-scatter for long messages
// with non-commutative operations, and the shape of an all-to-all).
//
// Slots: p chunks; rank r ends with the sum of chunk r (owner[r] = r).
// Protocol. In step k = 1 … p − 1:
//   rank r sends its own value of chunk (r + k) mod p to rank (r + k) mod p,
//   and receives rank (r − k) mod p's value of chunk r, adding it in.
// Each step is a permutation (every rank sends one message and receives one), so all links are busy at once:
//   T = (p − 1) α + ((p − 1)/p) n (β + γ)        (n = each rank's input, divisible by p)
// The same cost as the ring (reduce_scatter_ring.cpp), but with no forwarding: a rank only ever sends its own
// data, and never waits for a partial sum — which also makes it tolerant of a slow rank. The price is that every
// pair of ranks talks, which contends on rings and tori.
#include "collectives/generators.h"

namespace dsml::collectives {

void reduce_scatter_pairwise(const Request& request, Schedule& s) {
  const int p = request.ranks;
  s.slot_bytes = split_bytes(request.bytes, p);
  s.owner = slot_range(0, p);
  for (int k = 1; k < p; ++k) {
    for (int r = 0; r < p; ++r) add_send(s, r, wrap(r + k, p), {wrap(r + k, p)});
    for (int r = 0; r < p; ++r) add_recv_reduce(s, r, wrap(r - k, p), {r});
  }
}

}  // namespace dsml::collectives
