// broadcast_scatter_allgather.cpp — broadcast a long vector as a scatter followed by an all-gather
// (van de Geijn's algorithm; Barnett et al. 1994; Thakur, Rabenseifner & Gropp 2005, §4.1, MPICH's long-message
// broadcast).
//
// Why: a tree broadcast pushes all n bytes through ⌈log₂ p⌉ hops. Cutting the vector into p chunks, scattering
// them (each rank gets one) and then all-gathering them moves only ≈ 2n bytes into each rank, whatever p is.
//
// Slots: p chunks; chunk c belongs to the rank c places after the root, v = c (relative rank v = (rank − root)
// mod p).
// Phase 1, binomial scatter. Relative rank v holds the chunks of its subtree, [v, v + 2·lowbit(v)) ∩ [0, p).
//   For mask = 2^(K−1), …, 1 (2^K ≥ p): every v that is a multiple of 2·mask and has v + mask < p sends
//   chunks [v + mask, min(v + 2·mask, p)) to v + mask. The root sends n/2, then n/4, … bytes.
// Phase 2, ring all-gather (allgather_ring.cpp) of the p chunks: in step k, relative rank v sends chunk
//   (v − k) mod p to v + 1 and receives chunk (v − k − 1) mod p from v − 1.
// For p a power of two and n divisible by p, both phases are lock-step:
//   scatter     log₂ p · α + ((p − 1)/p) nβ
//   all-gather  (p − 1) α + ((p − 1)/p) nβ
//   T = (log₂ p + p − 1) α + 2((p − 1)/p) nβ.
// For other p the scatter's halves are uneven, but the root still sends p − 1 chunks in ⌈log₂ p⌉ messages and
// every other rank finishes the scatter no later than the root does, so T holds with ⌈log₂ p⌉ for any p.
#include <algorithm>

#include "collectives/generators.h"

namespace dsml::collectives {

void broadcast_scatter_allgather(const Request& request, Schedule& s) {
  const int p = request.ranks;
  s.slot_bytes = split_bytes(request.bytes, p);
  const auto rank = [&](int v) { return wrap(v + request.root, p); };

  // Phase 1: binomial scatter, far half first.
  for (int mask = (1 << ceil_log2(p)) / 2; mask >= 1; mask /= 2)
    for (int v = 0; v + mask < p; v += 2 * mask)
      add_transfer(s, rank(v), rank(v + mask), slot_range(v + mask, std::min(v + 2 * mask, p)), /*reduce=*/false);

  // Phase 2: ring all-gather; member v is relative rank v and owns chunk v.
  std::vector<int> members(static_cast<std::size_t>(p));
  for (int v = 0; v < p; ++v) members[static_cast<std::size_t>(v)] = rank(v);
  append_ring_allgather(s, members, one_slot_parts(p));
}

}  // namespace dsml::collectives
