// reduce_scatter.cpp — rank r keeps shard r of Σ over ranks, by executing the reduce-scatter schedule (ring by
// default). ZeRO-2 and ZeRO-3 use it instead of an all-reduce: each rank only needs the gradient of the
// parameters it updates, so it moves (p − 1)/p · n · 8 bytes — half an all-reduce.
#include <string>

#include "dsml/error.h"
#include "parallel/comm/run_schedule.h"

namespace dsml {

std::vector<Buffer> reduce_scatter(const std::vector<Buffer>& full, const CommOptions& options) {
  const std::size_t n = comm::require_same_sizes(full, "reduce_scatter");
  const int p = static_cast<int>(full.size());
  const Schedule schedule = comm::build_schedule("reduce-scatter", options, p, n);
  const std::vector<std::size_t> slots = comm::slot_elements(schedule);

  // Every rank holds every slot of its own vector at the start, as for an all-reduce.
  const Buffers buffers = execute_on_buffers(schedule, comm::holding_everything(full, slots));

  // Rank r's result: the slots it owns, in order — by the shard rule, exactly shard r.
  const std::vector<std::size_t> expected = shard_sizes(n, p);
  std::vector<Buffer> shards(full.size());
  for (std::size_t r = 0; r < full.size(); ++r) {
    for (std::size_t s = 0; s < slots.size(); ++s)
      if (schedule.owner[s] == static_cast<int>(r))
        shards[r].insert(shards[r].end(), buffers[r][s].values.begin(), buffers[r][s].values.end());
    if (shards[r].size() != expected[r])
      throw Error("reduce_scatter: the " + schedule.algorithm + " schedule's slots do not match the shard rule");
  }
  comm::log_call(schedule, "reduce-scatter", options);
  return shards;
}

}  // namespace dsml
