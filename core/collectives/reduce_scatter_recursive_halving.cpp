// reduce_scatter_recursive_halving.cpp — reduce-scatter in log₂ p steps by halving the data each step
// (Thakur, Rabenseifner & Gropp 2005, §4.5; the first half of Rabenseifner's all-reduce).
//
// Slots: p chunks; rank r ends with the sum of chunk r (owner[r] = r).
// Protocol for p a power of two. Every rank starts responsible for all chunks [0, p). For mask = p/2, p/4, …, 1:
//   rank r's partner is r XOR mask; split the current range [lo, hi) in halves;
//   the rank whose mask bit is 0 keeps the lower half, the other the upper half;
//   each sends the half it gives up and receives the half it keeps, adding the partner's values into it.
// Message sizes n/2, n/4, …, n/p: in total ((p − 1)/p) n bytes sent and reduced, in log₂ p steps:
//   T = log₂ p · α + ((p − 1)/p) n (β + γ)        (n = each rank's input)
// As many bytes as the ring (reduce_scatter_ring.cpp) but log₂ p latencies instead of p − 1; the catch is that
// partners are far apart (distance p/2 first), which hurts on rings and tori.
//
// Other p (power_of_two_fold.cpp, Thakur et al. §4): p = p' + r.
//   fold     rank 2i sends all its chunks to rank 2i + 1, which adds them (i < r);
//   core     the p' members run the protocol above over "parts" instead of chunks: member i's part is the
//            chunks of the ranks it stands for ({2i, 2i + 1} for i < r, else {i + r}); parts stay contiguous;
//   unfold   rank 2i + 1 sends the finished chunk 2i to rank 2i.
#include "collectives/generators.h"

namespace dsml::collectives {

// The block, reused by Rabenseifner's all-reduce. Member i ends with parts[i] summed over all members.
void append_recursive_halving(Schedule& s, const std::vector<int>& members,
                              const std::vector<std::vector<int>>& parts) {
  const int q = static_cast<int>(members.size());
  std::vector<int> lo(static_cast<std::size_t>(q), 0), hi(static_cast<std::size_t>(q), q);  // range of parts
  for (int mask = q / 2; mask >= 1; mask /= 2) {
    std::vector<std::vector<int>> keep(static_cast<std::size_t>(q));
    for (int i = 0; i < q; ++i) {
      const int mid = (lo[i] + hi[i]) / 2;
      const bool lower = (i & mask) == 0;
      add_send(s, members[i], members[i ^ mask], lower ? join_parts(parts, mid, hi[i]) : join_parts(parts, lo[i], mid));
      keep[i] = lower ? join_parts(parts, lo[i], mid) : join_parts(parts, mid, hi[i]);
      (lower ? hi[i] : lo[i]) = mid;
    }
    for (int i = 0; i < q; ++i) add_recv_reduce(s, members[i], members[i ^ mask], keep[i]);
  }
}

void reduce_scatter_recursive_halving(const Request& request, Schedule& s) {
  const int p = request.ranks;
  s.slot_bytes = split_bytes(request.bytes, p);
  s.owner = slot_range(0, p);
  const PowerOfTwoFold fold = fold_to_power_of_two(p);
  const std::vector<int> all = slot_range(0, p);
  for (int i = 0; i < fold.extra; ++i) add_transfer(s, 2 * i, 2 * i + 1, all, /*reduce=*/true);
  append_recursive_halving(s, fold.members, fold.represented);  // a member's ranks' chunks = its part
  for (int i = 0; i < fold.extra; ++i) add_transfer(s, 2 * i + 1, 2 * i, {2 * i}, /*reduce=*/false);
}

}  // namespace dsml::collectives
