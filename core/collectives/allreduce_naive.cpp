// allreduce_naive.cpp — the all-reduce anyone writes first: reduce everything to rank 0, then broadcast the
// result back, both linearly. It is the baseline the other all-reduce files improve on.
//
// Protocol (one slot holding all n bytes):
//   phase 1 (reduce_linear.cpp)     every rank r ≠ 0 sends its vector to rank 0; rank 0 adds them in rank order
//   phase 2 (broadcast_linear.cpp)  rank 0 sends the sum to ranks 1 … p − 1 in turn
// Rank 0's links carry 2(p − 1) full vectors one after another, and it does all p − 1 additions:
//   T = 2(p − 1)(α + nβ) + (p − 1) nγ        (Thakur, Rabenseifner & Gropp 2005, the reduce + broadcast bound)
// In the simulator rank 0 adds message k while message k + 1 is still arriving, so phase 1 takes
// max((p − 1)(α + nβ) + nγ, (α + nβ) + (p − 1)nγ) there (see reduce_linear.cpp).
// Everything passes through one rank: its time grows as p · n, where the ring (allreduce_ring.cpp) needs ≈ 2n·β.
#include "collectives/generators.h"

namespace dsml::collectives {

void allreduce_naive(const Request& request, Schedule& s) {
  s.slot_bytes = {request.bytes};
  append_linear_reduce(s, /*root=*/0, {0});
  append_linear_broadcast(s, /*root=*/0, {0});
}

}  // namespace dsml::collectives
