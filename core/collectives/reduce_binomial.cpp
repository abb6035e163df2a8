// reduce_binomial.cpp — reduce up a binomial tree: the mirror image of the binomial broadcast
// (Thakur, Rabenseifner & Gropp 2005, §4.3; MPICH's short-message reduce).
//
// Protocol, in ranks relative to the root, v = (rank − root) mod p, one slot holding all n bytes.
// For mask = 1, 2, 4, … < p:
//   if v's lowest set bit is mask:      send the slot (its partial sum) to v − mask; v is done
//   else if v is a multiple of 2·mask:  receive from v + mask (if that rank exists) and add into the slot
// After the step with mask 2^k, rank v (a multiple of 2^(k+1)) holds the sum of ranks v … v + 2^(k+1) − 1.
// For p a power of two every level costs one message and one reduction:
//   T = log₂ p · (α + nβ + nγ).
// For other p the tree is unbalanced and messages queue at the root, so ⌈log₂ p⌉(α + nβ + nγ) is an estimate
// there. Compare reduce_linear.cpp: (p − 1)(α + nβ + nγ).
#include "collectives/generators.h"

namespace dsml::collectives {

void reduce_binomial(const Request& request, Schedule& s) {
  const int p = request.ranks;
  s.slot_bytes = {request.bytes};
  const auto rank = [&](int v) { return wrap(v + request.root, p); };
  for (int mask = 1; mask < p; mask *= 2)
    for (int v = 0; v + mask < p; v += 2 * mask)  // v receives from v + mask, whose lowest set bit is mask
      add_transfer(s, rank(v + mask), rank(v), {0}, /*reduce=*/true);
}

}  // namespace dsml::collectives
