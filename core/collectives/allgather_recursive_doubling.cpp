// allgather_recursive_doubling.cpp — all-gather in log₂ p steps, the data doubling each step
// (Thakur, Rabenseifner & Gropp 2005, §4.2; MPICH's all-gather for short and medium messages).
//
// Slots: p chunks, chunk r owned by rank r (owner[r] = r).
// Protocol for p a power of two. For mask = 1, 2, 4, …, p/2:
//   rank r's partner is r XOR mask; r holds the mask chunks of its aligned block
//   [r − r mod mask, r − r mod mask + mask); it sends them and receives the partner's block, copying it.
// Message sizes n/p, 2n/p, …, n/2: ((p − 1)/p) n bytes in log₂ p steps:
//   T = log₂ p · α + ((p − 1)/p) nβ        (n = total gathered bytes)
// Same bytes as the ring (allgather_ring.cpp), log₂ p latencies instead of p − 1.
//
// Other p: we use the fold of Thakur et al. §4 (power_of_two_fold.cpp), not Bruck — Bruck is its own file
// (allgather_bruck.cpp) and handles any p natively. With p = p' + r:
//   fold     rank 2i sends its chunk 2i to rank 2i + 1 (i < r);
//   core     the p' members run the protocol above over parts: member i's part is the chunks of the ranks it
//            stands for ({2i, 2i + 1} for i < r, else {i + r});
//   unfold   rank 2i + 1 sends rank 2i every chunk except 2i's own.
// That costs two extra steps, the last one carrying almost n bytes: for non-powers of two Bruck is better.
#include "collectives/generators.h"

namespace dsml::collectives {

// The block, reused by Rabenseifner's all-reduce. Member i holds parts[i]; every member ends with all parts.
void append_recursive_doubling_allgather(Schedule& s, const std::vector<int>& members,
                                         const std::vector<std::vector<int>>& parts) {
  const int q = static_cast<int>(members.size());
  for (int mask = 1; mask < q; mask *= 2) {
    for (int i = 0; i < q; ++i) {
      const int block = i - i % mask;  // first part of the block member i holds
      add_send(s, members[i], members[i ^ mask], join_parts(parts, block, block + mask));
    }
    for (int i = 0; i < q; ++i) {
      const int partner = i ^ mask;
      const int block = partner - partner % mask;
      add_recv_copy(s, members[i], members[partner], join_parts(parts, block, block + mask));
    }
  }
}

void allgather_recursive_doubling(const Request& request, Schedule& s) {
  const int p = request.ranks;
  s.slot_bytes = split_bytes(request.bytes, p);
  s.owner = slot_range(0, p);
  const PowerOfTwoFold fold = fold_to_power_of_two(p);
  for (int i = 0; i < fold.extra; ++i) add_transfer(s, 2 * i, 2 * i + 1, {2 * i}, /*reduce=*/false);
  append_recursive_doubling_allgather(s, fold.members, fold.represented);
  for (int i = 0; i < fold.extra; ++i) {
    std::vector<int> others = slot_range(0, p);
    others.erase(others.begin() + 2 * i);
    add_transfer(s, 2 * i + 1, 2 * i, others, /*reduce=*/false);
  }
}

}  // namespace dsml::collectives
