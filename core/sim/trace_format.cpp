// trace_format.cpp — a SimResult as a readable, timestamped event log (SimGrid-.tesh-style golden traces).
//
// One line per event, "<time s, 9 decimals> rank <r> <event> …":
//   compute-start for <s> s | compute-end
//   send-blocked -> <dst> <n> B (downlink busy)    posted, but the receiver's downlink carries another message
//                                                  ("(link busy)" beyond fully_connected: some link of the route)
//   send-start -> <dst> <n> B | send-end -> <dst> <n> B
//   recv-wait <- <src> | recv <- <src> <n> B
//   finish
// (" tag <t>" follows the size when the tag is not 0.) Events at the same instant are listed as
// ends, then receives, then finishes, then starts — the order in which they follow from one another —
// and by rank within each group. Nanosecond resolution: golden traces use α, β that give whole nanoseconds.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "dsml/simulator.h"

namespace dsml {

namespace {

enum Group { kEnd = 0, kReceive = 1, kFinish = 2, kStart = 3 };

struct Line {
  double time;
  int group;
  int rank;
  std::size_t seq;  // creation order, the final tie-breaker
  std::string text;
};

std::string bytes_text(double bytes, int tag) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.15g B", bytes);
  std::string text = buffer;
  if (tag != 0) text += " tag " + std::to_string(tag);
  return text;
}

std::string seconds_text(double seconds) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.9f", seconds);
  return buffer;
}

class LineList {
 public:
  void add(double time, Group group, int rank, std::string event) {
    lines_.push_back(Line{time, group, rank, lines_.size(), std::move(event)});
  }

  std::string render() {
    std::sort(lines_.begin(), lines_.end(), [](const Line& a, const Line& b) {
      return std::tie(a.time, a.group, a.rank, a.seq) < std::tie(b.time, b.group, b.rank, b.seq);
    });
    std::string out;
    for (const Line& line : lines_)
      out += seconds_text(line.time) + " rank " + std::to_string(line.rank) + " " + line.text + "\n";
    return out;
  }

 private:
  std::vector<Line> lines_;
};

}  // namespace

std::string format_trace(const SimResult& result) {
  LineList lines;
  // A wait span that begins when its rank posted a message that had to queue is a send-blocked wait;
  // every other wait span is a recv waiting for its message.
  std::vector<std::pair<int, double>> link_waits;
  const std::string kind = result.topology.kind();
  const char* busy = kind.empty() || kind == "fully-connected" ? " (downlink busy)" : " (link busy)";
  for (const MessageRecord& m : result.messages) {
    const std::string to = "-> " + std::to_string(m.dst) + " " + bytes_text(m.bytes, m.tag);
    if (m.started > m.posted) {
      lines.add(m.posted, kStart, m.src, "send-blocked " + to + busy);
      link_waits.emplace_back(m.src, m.posted);
    }
    lines.add(m.started, kStart, m.src, "send-start " + to);
    lines.add(m.arrived, kEnd, m.src, "send-end " + to);
    if (!std::isnan(m.received))
      lines.add(m.received, kReceive, m.dst, "recv <- " + std::to_string(m.src) + " " + bytes_text(m.bytes, m.tag));
  }
  std::sort(link_waits.begin(), link_waits.end());

  for (const Span& s : result.spans) {
    if (s.kind == Span::Kind::kCompute) {
      lines.add(s.start, kStart, s.rank, "compute-start for " + seconds_text(s.end - s.start) + " s");
      lines.add(s.end, kEnd, s.rank, "compute-end");
    } else if (s.kind == Span::Kind::kWait &&
               !std::binary_search(link_waits.begin(), link_waits.end(), std::make_pair(s.rank, s.start))) {
      lines.add(s.start, kStart, s.rank, "recv-wait <- " + std::to_string(s.peer));
    }
  }
  for (std::size_t r = 0; r < result.finish_time.size(); ++r)
    lines.add(result.finish_time[r], kFinish, static_cast<int>(r), "finish");
  return lines.render();
}

}  // namespace dsml
