// allreduce_recursive_doubling.cpp — the latency-optimal all-reduce: log₂ p exchanges of the whole vector
// (Thakur, Rabenseifner & Gropp 2005, §4.4; MPICH's all-reduce for short vectors).
//
// Slots: one, holding all n bytes.
// Protocol for p a power of two. For mask = 1, 2, 4, …, p/2:
//   rank r sends its current vector to r XOR mask, receives the partner's, and adds it in.
// After the step with mask 2^k, rank r holds the sum over the 2^(k+1) ranks that agree with r above bit k; after
// log₂ p steps, the sum over all. Both partners send at once (full duplex), so each step costs one message and
// one reduction of the full vector:
//   T = log₂ p · (α + nβ + nγ)
// Fewest latencies possible (⌈log₂ p⌉α, Chan et al. 2007), but log₂ p · n bytes through every link: for long
// vectors the ring (allreduce_ring.cpp) or Rabenseifner (allreduce_rabenseifner.cpp) move only ≈ 2n.
//
// Other p (power_of_two_fold.cpp, Thakur et al. §4): with p = p' + r, p' = 2^⌊log₂ p⌋,
//   fold     rank 2i sends its vector to rank 2i + 1, which adds it (i < r);
//   core     the p' members (ranks 2i + 1 for i < r, then r + i) run the protocol above as ranks 0 … p' − 1;
//   unfold   rank 2i + 1 sends the result to rank 2i.
// That is ⌊log₂ p⌋ + 2 message steps and ⌊log₂ p⌋ + 1 reductions (a folded-away rank idles meanwhile).
#include "collectives/generators.h"

namespace dsml::collectives {

void allreduce_recursive_doubling(const Request& request, Schedule& s) {
  s.slot_bytes = {request.bytes};
  const PowerOfTwoFold fold = fold_to_power_of_two(request.ranks);
  for (int i = 0; i < fold.extra; ++i) add_transfer(s, 2 * i, 2 * i + 1, {0}, /*reduce=*/true);

  const std::vector<int>& m = fold.members;
  const int q = static_cast<int>(m.size());
  for (int mask = 1; mask < q; mask *= 2) {
    // Send before receive on both sides: the two messages cross, neither partner waits for the other.
    for (int i = 0; i < q; ++i) add_send(s, m[i], m[i ^ mask], {0});
    for (int i = 0; i < q; ++i) add_recv_reduce(s, m[i], m[i ^ mask], {0});
  }

  for (int i = 0; i < fold.extra; ++i) add_transfer(s, 2 * i + 1, 2 * i, {0}, /*reduce=*/false);
}

}  // namespace dsml::collectives
