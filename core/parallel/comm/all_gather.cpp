// all_gather.cpp — every rank's shard to every rank, by executing the all-gather schedule (ring by default).
//
// Ring all-gather: each rank forwards p − 1 chunks, (p − 1)/p · n · 8 bytes in fp64 — half a ring all-reduce.
// ZeRO-3/FSDP calls it once per block before forward and again before backward.
#include <limits>
#include <string>

#include "dsml/error.h"
#include "parallel/comm/run_schedule.h"

namespace dsml {

std::vector<Buffer> all_gather(const std::vector<Buffer>& shards, const CommOptions& options) {
  comm::require_ranks(shards.size(), "all_gather");
  const int p = static_cast<int>(shards.size());
  std::size_t n = 0;
  for (const Buffer& s : shards) n += s.size();
  const std::vector<std::size_t> expected = shard_sizes(n, p);
  for (std::size_t r = 0; r < shards.size(); ++r)
    if (shards[r].size() != expected[r])
      throw Error("all_gather: rank " + std::to_string(r) + " brings " + std::to_string(shards[r].size()) +
                  " elements but its shard of " + std::to_string(n) + " over " + std::to_string(p) + " ranks has " +
                  std::to_string(expected[r]) + " (first n mod p shards one larger)");

  const Schedule schedule = comm::build_schedule("all-gather", options, p, n);
  const std::vector<std::size_t> slots = comm::slot_elements(schedule);
  const double nan = std::numeric_limits<double>::quiet_NaN();

  // Rank r starts with the slots it owns, filled from its shard in slot order; the rest are empty (NaN).
  Buffers buffers(shards.size(), RankBuffers(slots.size()));
  for (std::size_t r = 0; r < shards.size(); ++r) {
    std::size_t at = 0;
    for (std::size_t s = 0; s < slots.size(); ++s) {
      SlotBuffer& slot = buffers[r][s];
      if (schedule.owner[s] != static_cast<int>(r)) {
        slot.values.assign(slots[s], nan);
        continue;
      }
      if (at + slots[s] > shards[r].size())
        throw Error("all_gather: the " + schedule.algorithm + " schedule's slots do not match the shard rule");
      slot.held = true;
      slot.values.assign(shards[r].begin() + static_cast<std::ptrdiff_t>(at),
                         shards[r].begin() + static_cast<std::ptrdiff_t>(at + slots[s]));
      at += slots[s];
    }
  }
  buffers = execute_on_buffers(schedule, std::move(buffers));

  std::vector<Buffer> gathered(shards.size());
  for (std::size_t r = 0; r < shards.size(); ++r) {
    gathered[r].reserve(n);
    for (const SlotBuffer& slot : buffers[r])
      gathered[r].insert(gathered[r].end(), slot.values.begin(), slot.values.end());
  }
  comm::log_call(schedule, "all-gather", options);
  return gathered;
}

}  // namespace dsml
