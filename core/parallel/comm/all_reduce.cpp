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
  const std::size_t n = comm::require_same_sizes(per_rank, "all_reduce");
  const int p = static_cast<int>(per_rank.size());
  const Schedule schedule = comm::build_schedule("all-reduce", options, p, n);
  const std::vector<std::size_t> slots = comm::slot_elements(schedule);

  // Every rank holds every slot of its own vector at the start (schedule.h: "all-reduce").
  const Buffers buffers = execute_on_buffers(schedule, comm::holding_everything(per_rank, slots));

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
