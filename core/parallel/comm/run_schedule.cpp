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
constexpr double kScheduleElementBytes = 4.0;  // make_schedule counts float32 elements
constexpr double kDoubleBytes = 8.0;           // what we actually move
}  // namespace

Schedule build_schedule(const std::string& collective, const CommOptions& options, int p, std::size_t n) {
  return make_schedule(collective, options.algorithm, p, kScheduleElementBytes * static_cast<double>(n));
}

std::vector<std::size_t> slot_elements(const Schedule& schedule) {
  std::vector<std::size_t> sizes;
  sizes.reserve(schedule.slot_bytes.size());
  for (double bytes : schedule.slot_bytes)
    sizes.push_back(static_cast<std::size_t>(bytes / kScheduleElementBytes + 0.5));
  return sizes;
}

double busiest_rank_send_bytes(const Schedule& schedule) {
  double busiest = 0;
  for (const auto& steps : schedule.steps) {
    double sent = 0;
    for (const ScheduleStep& step : steps)
      if (step.kind == ScheduleStep::Kind::kSend) sent += step_bytes(schedule, step);
    busiest = std::max(busiest, sent);
  }
  return busiest * (kDoubleBytes / kScheduleElementBytes);
}

void log_call(const Schedule& schedule, const std::string& kind, const CommOptions& options) {
  if (options.log == nullptr) return;
  options.log->add(CommRecord{kind, options.label, schedule.ranks, busiest_rank_send_bytes(schedule)});
}

void require_ranks(std::size_t ranks, const char* what) {
  if (ranks == 0) throw Error(std::string(what) + " needs at least one rank buffer, got none");
}

}  // namespace dsml::comm
