// run_schedule.cpp — the glue between flat per-rank Buffers and the core's slot-based schedules.
//
// Why go through schedules at all: the course's collectives are data (dsml/schedule.h). Executing the very
// schedule the simulator times on the gradients themselves means "ring all-reduce equals a plain sum" is tested
// every time a DP step runs, and the bytes logged are the bytes that schedule actually moves.
#include "parallel/comm/run_schedule.h"

#include <algorithm>
#include <string>

#include "dsml/error.h"

namespace dsml::comm {

namespace {
constexpr double kDoubleBytes = 8.0;  // what we actually move; the schedule counts kScheduleElementBytes (schedule.h)
}  // namespace

Schedule build_schedule(const std::string& collective, const CommOptions& options, int p, std::size_t n) {
  return make_schedule(collective, options.algorithm, p, kScheduleElementBytes * static_cast<double>(n));
}

std::vector<std::size_t> slot_elements(const Schedule& schedule) {
  std::vector<std::size_t> sizes;
  sizes.reserve(schedule.slot_bytes.size());
  for (double bytes : schedule.slot_bytes)  // whole elements here (build_schedule), so the ceiling is exact
    sizes.push_back(static_cast<std::size_t>(dsml::slot_elements(bytes, kScheduleElementBytes)));
  return sizes;
}

double busiest_double_send_bytes(const Schedule& schedule) {
  return busiest_rank_send_bytes(schedule) * (kDoubleBytes / kScheduleElementBytes);
}

void log_call(const Schedule& schedule, const std::string& kind, const CommOptions& options) {
  if (options.log == nullptr) return;
  options.log->add(CommRecord{kind, options.label, schedule.ranks, busiest_double_send_bytes(schedule)});
}

void require_ranks(std::size_t ranks, const char* what) {
  if (ranks == 0) throw Error(std::string(what) + " needs at least one rank buffer, got none");
}

std::size_t require_same_sizes(const std::vector<Buffer>& per_rank, const char* what) {
  require_ranks(per_rank.size(), what);
  const std::size_t n = per_rank[0].size();
  for (std::size_t r = 1; r < per_rank.size(); ++r)
    if (per_rank[r].size() != n)
      throw Error(std::string(what) + ": rank " + std::to_string(r) + " has " + std::to_string(per_rank[r].size()) +
                  " elements but rank 0 has " + std::to_string(n) + "; every rank must bring the same size");
  return n;
}

Buffers holding_everything(const std::vector<Buffer>& per_rank, const std::vector<std::size_t>& slots) {
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
  return buffers;
}

}  // namespace dsml::comm
