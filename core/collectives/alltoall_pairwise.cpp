// alltoall_pairwise.cpp — all-to-all by pairwise exchange (Thakur, Rabenseifner & Gropp 2005, §4.6; MPICH's
// all-to-all for long messages). All-to-all is the collective of expert parallelism (token routing) and of
// distributed transposes.
//
// Slots: p·p blocks; slot i·p + j is rank i's block for rank j (n/p bytes: rank i's n bytes split in p blocks).
// Rank i holds slots i·p + 0 … i·p + p − 1; rank j must end with slots 0·p + j, 1·p + j, …, (p − 1)·p + j.
// Its own block, slot j·p + j, never moves.
// Protocol. In step k = 1 … p − 1:
//   rank r sends block r·p + (r + k) mod p to rank (r + k) mod p,
//   and receives block ((r − k) mod p)·p + r from rank (r − k) mod p.
// Every step is a permutation, so every link carries one block at once:
//   T = (p − 1) α + ((p − 1)/p) nβ        (n = what each rank sends in total, its own block included)
// — optimal in β; Bruck's all-to-all needs only ⌈log₂ p⌉ steps but sends each byte up to log₂ p times.
#include "collectives/generators.h"

namespace dsml::collectives {

void alltoall_pairwise(const Request& request, Schedule& s) {
  const int p = request.ranks;
  const std::vector<double> blocks = split_bytes(request.bytes, p);  // block j of every rank's n bytes
  s.slot_bytes.resize(static_cast<std::size_t>(p) * static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i)
    for (int j = 0; j < p; ++j) s.slot_bytes[static_cast<std::size_t>(i * p + j)] = blocks[static_cast<std::size_t>(j)];
  for (int k = 1; k < p; ++k) {
    for (int r = 0; r < p; ++r) add_send(s, r, wrap(r + k, p), {r * p + wrap(r + k, p)});
    for (int r = 0; r < p; ++r) {
      const int from = wrap(r - k, p);
      add_recv_copy(s, r, from, {from * p + r});
    }
  }
}

}  // namespace dsml::collectives
