// all_reduce.cpp — Σ over ranks, in place, by executing the all-reduce schedule (ring by default) on the
// buffers themselves.
//
// Ring all-reduce (Patarasuk & Yuan 2009) = reduce-scatter then all-gather: each rank sends 2(p − 1) chunks of
// n/p elements, i.e. 2(p − 1)/p · n · 8 bytes in fp64 — the number the data-parallel tests check per step.
#include <string>

#include "dsml/error.h"
#include "parallel/comm/run_schedule.h"

namespace dsml {

void all_reduce(std::vector<Buffer>& per_rank, const CommOptions& options) {
  comm::require_ranks(per_rank.size(), "all_reduce");
  const std::size_t n = per_rank[0].size();
  for (std::size_t r = 1; r < per_rank.size(); ++r)
    if (per_rank[r].size() != n)
      throw Error("all_reduce: rank " + std::to_string(r) + " has " + std::to_string(per_rank[r].size()) +
                  " elements but rank 0 has " + std::to_string(n) + "; every rank must bring the same size");
  const int p = static_cast<int>(per_rank.size());
  const Schedule schedule = comm::build_schedule("all-reduce", options, p, n);
  const std::vector<std::size_t> slots = comm::slot_elements(schedule);

  // Every rank holds every slot of its own vector at the start (schedule.h: "all-reduce").
  Buffers buffers(per_rank.size(), RankBuffers(slots.size()));
  for (std::size_t r = 0; r < per_rank.size(); ++r) {
    std::size_t at = 0;
    for (std::size_t s = 0; s < slots.size(); ++s) {
      buffers[r][s].held = true;
      buffers[r][s].values.assign(per_rank[r].begin() + static_cast<std::ptrdiff_t>(at),
                                  per_rank[r].begin() + static_cast<std::ptrdiff_t>(at + slots[s]));
      at += slots[s];
    }
  }
  buffers = execute_on_buffers(schedule, std::move(buffers));

  // Back to flat vectors: slot s of rank r now holds the sum of everyone's slot s.
  for (std::size_t r = 0; r < per_rank.size(); ++r) {
    std::size_t at = 0;
    for (std::size_t s = 0; s < slots.size(); ++s) {
      std::copy(buffers[r][s].values.begin(), buffers[r][s].values.end(),
                per_rank[r].begin() + static_cast<std::ptrdiff_t>(at));
      at += slots[s];
    }
  }
  comm::log_call(schedule, "all-reduce", options);
}

}  // namespace dsml
