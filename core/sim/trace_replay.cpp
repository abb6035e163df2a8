// trace_replay.cpp — see dsml/trace_replay.h.
#include "dsml/trace_replay.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "dsml/error.h"

namespace dsml {

std::vector<Program> programs_from_trace(int ranks, const std::vector<TraceRecord>& records) {
  if (ranks < 1) throw Error("trace replay: ranks must be >= 1, got " + std::to_string(ranks));
  struct Event {
    double time;
    int order;  // receives before sends at equal times; then record order
    int index;
    bool is_recv;
  };
  std::vector<std::vector<Event>> per_rank(static_cast<std::size_t>(ranks));
  for (std::size_t i = 0; i < records.size(); ++i) {
    const TraceRecord& r = records[i];
    const std::string where = "trace replay: message " + std::to_string(i);
    if (r.src < 0 || r.src >= ranks || r.dst < 0 || r.dst >= ranks)
      throw Error(where + " goes from rank " + std::to_string(r.src) + " to rank " + std::to_string(r.dst) +
                  ", outside 0.." + std::to_string(ranks - 1));
    if (r.src == r.dst) throw Error(where + " is sent by rank " + std::to_string(r.src) + " to itself");
    require_non_negative("trace replay: bytes", r.bytes);
    if (!std::isfinite(r.send_time)) throw Error(where + " has no send time");
    const int idx = static_cast<int>(i);
    per_rank[static_cast<std::size_t>(r.src)].push_back({r.send_time, 1, idx, false});
    if (std::isfinite(r.recv_time)) per_rank[static_cast<std::size_t>(r.dst)].push_back({r.recv_time, 0, idx, true});
  }
  std::vector<Program> programs(static_cast<std::size_t>(ranks));
  for (int rank = 0; rank < ranks; ++rank) {
    auto& events = per_rank[static_cast<std::size_t>(rank)];
    std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
      return a.time < b.time || (a.time == b.time && a.order < b.order);
    });
    Program& program = programs[static_cast<std::size_t>(rank)];
    program.reserve(events.size());
    for (const Event& e : events) {
      const TraceRecord& r = records[static_cast<std::size_t>(e.index)];
      program.push_back(e.is_recv ? Step::recv(r.src) : Step::send(r.dst, r.bytes));
    }
  }
  return programs;
}

}  // namespace dsml
