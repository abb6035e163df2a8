// allgather_bruck.cpp — Bruck's all-gather: ⌈log₂ p⌉ steps for any p, no folding (J. Bruck et al., "Efficient
// algorithms for all-to-all communications in multiport message-passing systems", IEEE TPDS 1997;
// Thakur, Rabenseifner & Gropp 2005, §4.2, MPICH's all-gather for short messages and non-powers of two).
//
// Slots: p chunks, chunk r owned by rank r (owner[r] = r).
// Protocol. Rank r always holds a run of consecutive chunks starting at its own: r, r + 1, … (mod p).
// In step k = 0, 1, … while 2^k < p, with c = min(2^k, p − 2^k):
//   rank r sends its first c chunks, (r + j) mod p for j = 0 … c − 1, to rank r − 2^k,
//   and receives from rank r + 2^k that rank's first c chunks, (r + 2^k + j) mod p, which extend its own run.
// After step k the run is min(2^(k+1), p) long. The last step sends only what is still missing, so in total
// each rank receives p − 1 chunks:
//   T = ⌈log₂ p⌉ α + ((p − 1)/p) nβ        (n = total gathered bytes, divisible by p)
// Bruck's paper keeps the run at the front of a local buffer and rotates it into place at the end; addressing
// chunks by slot makes that final local rotation unnecessary. Compare allgather_recursive_doubling.cpp, which
// needs two extra steps when p is not a power of two, and allgather_ring.cpp (p − 1 steps).
#include <algorithm>

#include "collectives/generators.h"

namespace dsml::collectives {

void allgather_bruck(const Request& request, Schedule& s) {
  const int p = request.ranks;
  s.slot_bytes = split_bytes(request.bytes, p);
  s.owner = slot_range(0, p);
  const auto run = [p](int start, int count) {  // chunks start, start + 1, …, mod p
    std::vector<int> slots;
    for (int j = 0; j < count; ++j) slots.push_back(wrap(start + j, p));
    return slots;
  };
  for (int distance = 1; distance < p; distance *= 2) {
    const int count = std::min(distance, p - distance);
    for (int r = 0; r < p; ++r) add_send(s, r, wrap(r - distance, p), run(r, count));
    for (int r = 0; r < p; ++r) add_recv_copy(s, r, wrap(r + distance, p), run(r + distance, count));
  }
}

}  // namespace dsml::collectives
