// all_to_all.cpp — every rank's block j to rank j, by executing the pairwise all-to-all schedule
// (collectives/alltoall_pairwise.cpp). Expert parallelism dispatches tokens with it and combines them back.
//
// Each rank sends p blocks of b doubles (its own block included, which never moves): (p − 1)/p · p·b · 8 bytes
// leave each rank — the schedule's n = p·b per rank.
#include <limits>
#include <string>

#include "dsml/error.h"
#include "parallel/comm/run_schedule.h"

namespace dsml {

std::vector<std::vector<Buffer>> all_to_all(const std::vector<std::vector<Buffer>>& blocks, const CommOptions& options) {
  comm::require_ranks(blocks.size(), "all_to_all");
  const int p = static_cast<int>(blocks.size());
  const std::size_t b = blocks[0].empty() ? 0 : blocks[0][0].size();
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (static_cast<int>(blocks[i].size()) != p)
      throw Error("all_to_all: rank " + std::to_string(i) + " brings " + std::to_string(blocks[i].size()) +
                  " blocks, one per rank (" + std::to_string(p) + ") is needed");
    for (const Buffer& block : blocks[i])
      if (block.size() != b)
        throw Error("all_to_all: every block must have the same size, " + std::to_string(b) + " doubles; rank " +
                    std::to_string(i) + " brings one of " + std::to_string(block.size()));
  }
  CommOptions pairwise = options;
  pairwise.algorithm = "pairwise";  // the one all-to-all the registry knows
  const Schedule schedule = comm::build_schedule("all-to-all", pairwise, p, static_cast<std::size_t>(p) * b);
  const std::vector<std::size_t> slots = comm::slot_elements(schedule);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Slot i·p + j is rank i's block for rank j, held by rank i at the start.
  Buffers buffers(blocks.size(), RankBuffers(slots.size()));
  for (int r = 0; r < p; ++r) {
    for (int s = 0; s < p * p; ++s) {
      SlotBuffer& slot = buffers[r][s];
      if (slots[s] != b) throw Error("all_to_all: the pairwise schedule's blocks do not match the given blocks");
      if (s / p == r) {
        slot.held = true;
        slot.values = blocks[r][s % p];
      } else {
        slot.values.assign(b, nan);
      }
    }
  }
  buffers = execute_on_buffers(schedule, std::move(buffers));
  std::vector<std::vector<Buffer>> received(blocks.size(), std::vector<Buffer>(blocks.size()));
  for (int j = 0; j < p; ++j)
    for (int i = 0; i < p; ++i) received[j][i] = buffers[j][i * p + j].values;  // rank j's block from rank i
  comm::log_call(schedule, "all-to-all", pairwise);
  return received;
}

}  // namespace dsml
