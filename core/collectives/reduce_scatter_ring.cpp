// reduce_scatter_ring.cpp — reduce-scatter around a ring (Patarasuk & Yuan 2009; the first half of NCCL's ring
// all-reduce).
//
// Slots: p chunks; rank r ends with the sum of chunk r (owner[r] = r, as MPI_Reduce_scatter_block).
// Protocol: rank r sends to r + 1 and receives from r − 1 (mod p). In step k = 0 … p − 2:
//   rank r sends chunk (r − k − 1) mod p — at k = 0 its own value, after that the partial sum it has just made —
//   and receives chunk (r − k − 2) mod p, adding its own value into it.
// Chunk c starts at rank c + 1 and picks up one contribution per hop; after p − 1 hops it reaches rank c, which
// adds the last one (its own). Each step moves n/p bytes over every link at once and reduces n/p bytes, so for
// n divisible by p
//   T = (p − 1) α + ((p − 1)/p) n (β + γ)        (n = each rank's input)
// — optimal in β and γ, with p − 1 latencies (recursive halving: log₂ p).
// (The textbook ring, with rank r sending chunk (r − k) mod p, ends with chunk r + 1 on rank r; the ring
// all-reduce uses that numbering. Here the chunks are shifted by one so each rank keeps its own.)
#include "collectives/generators.h"

namespace dsml::collectives {

// The block, reused by the ring and hierarchical all-reduces. Member i ends holding parts[i] summed over all q
// members; parts[i − 1] is the part it sends first.
void append_ring_reduce_scatter(Schedule& s, const std::vector<int>& members,
                                const std::vector<std::vector<int>>& parts) {
  const int q = static_cast<int>(members.size());
  reserve_steps(s, members, 2 * static_cast<std::size_t>(q > 0 ? q - 1 : 0));  // one send, one receive per step
  for (int k = 0; k + 1 < q; ++k) {
    for (int i = 0; i < q; ++i) add_send(s, members[i], members[wrap(i + 1, q)], parts[wrap(i - k - 1, q)]);
    for (int i = 0; i < q; ++i)
      add_recv_reduce(s, members[i], members[wrap(i - 1, q)], parts[wrap(i - k - 2, q)]);
  }
}

void reduce_scatter_ring(const Request& request, Schedule& s) {
  const int p = request.ranks;
  s.slot_bytes = split_bytes(request.bytes, p);
  s.owner = slot_range(0, p);
  append_ring_reduce_scatter(s, slot_range(0, p), one_slot_parts(p));
}

}  // namespace dsml::collectives
