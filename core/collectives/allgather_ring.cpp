// allgather_ring.cpp — all-gather around a ring (Thakur, Rabenseifner & Gropp 2005, §4.2; the algorithm NCCL
// uses for its all-gather).
//
// Slots: p chunks, chunk r owned by rank r (owner[r] = r).
// Protocol: rank r sends to r + 1 and receives from r − 1 (mod p). In step k = 0 … p − 2:
//   rank r sends chunk (r − k) mod p — its own at k = 0, after that the one it has just received —
//   and receives chunk (r − k − 1) mod p.
// Every chunk travels p − 1 hops; every link carries one chunk per step, all at once, so for n divisible by p
//   T = (p − 1) α + ((p − 1)/p) nβ        (n = total gathered bytes)
// — bandwidth-optimal (each rank must receive (p − 1)/p · n bytes), but p − 1 latencies. Recursive doubling
// (allgather_recursive_doubling.cpp) and Bruck (allgather_bruck.cpp) need only ⌈log₂ p⌉.
#include "collectives/generators.h"

namespace dsml::collectives {

// The block, reused by the ring all-reduce, the hierarchical all-reduce and the scatter-allgather broadcast.
// Member i holds parts[i] at the start and is the ring's i-th rank; it sends to member i + 1.
void append_ring_allgather(Schedule& s, const std::vector<int>& members, const std::vector<std::vector<int>>& parts) {
  const int q = static_cast<int>(members.size());
  reserve_steps(s, members, 2 * static_cast<std::size_t>(q > 0 ? q - 1 : 0));  // one send, one receive per step
  for (int k = 0; k + 1 < q; ++k) {
    for (int i = 0; i < q; ++i) add_send(s, members[i], members[wrap(i + 1, q)], parts[wrap(i - k, q)]);
    for (int i = 0; i < q; ++i) add_recv_copy(s, members[i], members[wrap(i - 1, q)], parts[wrap(i - k - 1, q)]);
  }
}

void allgather_ring(const Request& request, Schedule& s) {
  const int p = request.ranks;
  s.slot_bytes = split_bytes(request.bytes, p);
  s.owner = slot_range(0, p);
  std::vector<int> members = slot_range(0, p);  // rank i is the ring's i-th member
  append_ring_allgather(s, members, one_slot_parts(p));
}

}  // namespace dsml::collectives
