// allreduce_ring.cpp — the bandwidth-optimal ring all-reduce (Patarasuk & Yuan, "Bandwidth optimal all-reduce
// algorithms for clusters of workstations", JPDC 2009; popularised for deep learning by Baidu's ring
// all-reduce, 2017, and the default of NCCL and Horovod).
//
// Slots: p chunks of n/p bytes. Rank r sends only to r + 1 and receives only from r − 1 (mod p), so on a
// single-port network every link is busy at once and no link carries more than the minimum.
//   Phase 1, reduce-scatter (reduce_scatter_ring.cpp), steps k = 0 … p − 2:
//     rank r sends chunk (r − k) mod p and receives chunk (r − k − 1) mod p, adding its own value into it.
//     After p − 1 steps rank r holds the full sum of chunk (r + 1) mod p.
//   Phase 2, all-gather (allgather_ring.cpp), steps k = 0 … p − 2:
//     rank r sends chunk (r + 1 − k) mod p and receives chunk (r − k) mod p, copying it.
// Each of the 2(p − 1) steps moves n/p bytes per link; the p − 1 reduce steps add n/p bytes each. For n
// divisible by p:
//   T = 2(p − 1) α + 2((p − 1)/p) nβ + ((p − 1)/p) nγ
// The β term meets the lower bound 2((p − 1)/p) nβ (Chan et al. 2007) — independent of p for large p — but the
// α term grows linearly: for small vectors recursive doubling (allreduce_recursive_doubling.cpp) wins.
// Diff with allreduce_naive.cpp: same result, rank 0 is no longer the bottleneck.
#include "collectives/generators.h"

namespace dsml::collectives {

void allreduce_ring(const Request& request, Schedule& s) {
  const int p = request.ranks;
  s.slot_bytes = split_bytes(request.bytes, p);
  // The ring's i-th member is rank i; parts[i] = chunk (i + 1) mod p, the chunk rank i ends the reduce-scatter
  // with — this gives the textbook numbering above (the blocks send parts[i − k − 1] in step k).
  std::vector<std::vector<int>> parts(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) parts[static_cast<std::size_t>(i)] = {wrap(i + 1, p)};
  const std::vector<int> members = slot_range(0, p);
  reserve_steps(s, members, 4 * static_cast<std::size_t>(p - 1));  // both phases: each rank's list is allocated once
  append_ring_reduce_scatter(s, members, parts);
  append_ring_allgather(s, members, parts);
}

}  // namespace dsml::collectives
