// power_of_two_fold.cpp — running a power-of-two algorithm on any number of ranks (Thakur, Rabenseifner &
// Gropp 2005, §4, the fallback MPICH uses for recursive doubling and halving).
//
// Recursive doubling pairs rank v with v XOR 2^k, which only works when p is a power of two. Write
// p = p' + r with p' = 2^⌊log₂ p⌋. The first 2r ranks pair up as (0, 1), (2, 3), …, (2r − 2, 2r − 1):
//   fold     the even rank of each pair gives its data to the odd one (and is idle from then on);
//   core     p' ranks — the odd ones below 2r and every rank from 2r up — run the power-of-two algorithm,
//            as "members" 0 … p' − 1: member i is rank 2i + 1 if i < r, else rank i + r;
//   unfold   each odd rank hands the even one what it needs of the result.
// The fold and the unfold cost one extra message step each (⌊log₂ p⌋ + 2 steps instead of log₂ p). What is
// folded depends on the collective, so the generators write those two steps themselves; this file only
// numbers the members and says which original ranks each one stands for (their slots, where slots are owned).
#include "collectives/generators.h"

namespace dsml::collectives {

PowerOfTwoFold fold_to_power_of_two(int ranks) {
  const int core = floor_power_of_two(ranks);
  PowerOfTwoFold fold;
  fold.extra = ranks - core;
  fold.members.resize(static_cast<std::size_t>(core));
  fold.represented.resize(static_cast<std::size_t>(core));
  for (int i = 0; i < core; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (i < fold.extra) {
      fold.members[k] = 2 * i + 1;
      fold.represented[k] = {2 * i, 2 * i + 1};  // in rank order, so a member's slots stay contiguous
    } else {
      fold.members[k] = i + fold.extra;
      fold.represented[k] = {i + fold.extra};
    }
  }
  return fold;
}

}  // namespace dsml::collectives
