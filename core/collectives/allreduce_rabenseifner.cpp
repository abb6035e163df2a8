// allreduce_rabenseifner.cpp — Rabenseifner's all-reduce: a recursive-halving reduce-scatter followed by a
// recursive-doubling all-gather (R. Rabenseifner, "Optimization of collective reduction operations", ICCS 2004;
// Thakur, Rabenseifner & Gropp 2005, §4.4; MPICH's all-reduce for long vectors).
//
// Why: recursive doubling (allreduce_recursive_doubling.cpp) has the fewest steps but moves the whole vector
// log₂ p times; the ring (allreduce_ring.cpp) moves the minimum but takes 2(p − 1) steps. Halving the data
// each step gets both: 2 log₂ p steps and ≈ 2n bytes.
//
// Slots: p' chunks, p' = the largest power of two ≤ p (p' = p for powers of two).
// Protocol for p a power of two (member i = rank i, part i = chunk i):
//   phase 1, recursive halving (reduce_scatter_recursive_halving.cpp): for mask = p/2, …, 1, exchange half of
//            the current range with r XOR mask and add in the half kept; rank r ends with the sum of chunk r;
//   phase 2, recursive doubling (allgather_recursive_doubling.cpp): for mask = 1, …, p/2, exchange the block
//            held with r XOR mask; every rank ends with every summed chunk.
//   T = 2 log₂ p · α + 2((p − 1)/p) nβ + ((p − 1)/p) nγ
//
// Other p (power_of_two_fold.cpp, Thakur et al. §4), p = p' + r:
//   fold     rank 2i sends its whole vector to rank 2i + 1, which adds it (i < r);
//   core     the p' members run both phases on p' chunks;
//   unfold   rank 2i + 1 sends the whole result to rank 2i.
// (Thakur et al. halve the fold's cost by having each pair exchange and reduce half a vector; we fold whole
// vectors, as for recursive doubling, which keeps the fold one visible step: + 2(α + nβ) + nγ.)
#include "collectives/generators.h"

namespace dsml::collectives {

void allreduce_rabenseifner(const Request& request, Schedule& s) {
  const PowerOfTwoFold fold = fold_to_power_of_two(request.ranks);
  const int q = static_cast<int>(fold.members.size());
  s.slot_bytes = split_bytes(request.bytes, q);
  const std::vector<int> all = slot_range(0, q);

  for (int i = 0; i < fold.extra; ++i) add_transfer(s, 2 * i, 2 * i + 1, all, /*reduce=*/true);
  const std::vector<std::vector<int>> parts = one_slot_parts(q);
  append_recursive_halving(s, fold.members, parts);
  append_recursive_doubling_allgather(s, fold.members, parts);
  for (int i = 0; i < fold.extra; ++i) add_transfer(s, 2 * i + 1, 2 * i, all, /*reduce=*/false);
}

}  // namespace dsml::collectives
