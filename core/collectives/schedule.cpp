// schedule.cpp — the Schedule data type itself: checking one, describing a step, and the helpers generators
// append steps with. Every executor calls validate() first, so the buffer executor and the simulator never see
// a step that points outside the world; their own errors are then about behaviour (wrong data, deadlock).
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "collectives/generators.h"
#include "dsml/error.h"

namespace dsml {

namespace {

bool known_collective(const std::string& name) {
  for (const char* c : {"broadcast", "reduce", "all-reduce", "all-gather", "reduce-scatter", "all-to-all"})
    if (name == c) return true;
  return false;
}

std::string slot_list(const SlotList& slots) {
  std::string text = slots.size() == 1 ? "slot " : "slots {";
  for (std::size_t i = 0; i < slots.size(); ++i) text += (i ? ", " : "") + std::to_string(slots[i]);
  return slots.size() == 1 ? text : text + "}";
}

}  // namespace

std::string describe(const ScheduleStep& step) {
  switch (step.kind) {
    case ScheduleStep::Kind::kSend:
      return "send " + slot_list(step.slots) + " to rank " + std::to_string(step.peer);
    case ScheduleStep::Kind::kRecvCopy:
      return "recv-copy " + slot_list(step.slots) + " from rank " + std::to_string(step.peer);
    case ScheduleStep::Kind::kRecvReduce:
      return "recv-reduce " + slot_list(step.slots) + " from rank " + std::to_string(step.peer);
  }
  return "?";
}

double step_bytes(const Schedule& schedule, const ScheduleStep& step) {
  double bytes = 0.0;
  for (int slot : step.slots) bytes += schedule.slot_bytes[static_cast<std::size_t>(slot)];
  return bytes;
}

double busiest_rank_send_bytes(const Schedule& schedule) {
  double busiest = 0.0;
  for (const auto& steps : schedule.steps) {
    double sent = 0.0;
    for (const ScheduleStep& step : steps)
      if (step.kind == ScheduleStep::Kind::kSend) sent += step_bytes(schedule, step);
    busiest = std::max(busiest, sent);
  }
  return busiest;
}

namespace collectives {

void check_step(const Schedule& s, int r, std::size_t index, const ScheduleStep& step) {
  const int slots = static_cast<int>(s.slot_bytes.size());
  const auto where = [&] {  // built only on error: validate() runs before every execution
    return "schedule: rank " + std::to_string(r) + " step " + std::to_string(index) + " (" + describe(step) + ")";
  };
  if (step.peer < 0 || step.peer >= s.ranks)
    throw Error(where() + ": rank " + std::to_string(step.peer) + " does not exist (ranks are 0 to " +
                std::to_string(s.ranks - 1) + ")");
  if (step.peer == r) throw Error(where() + ": a rank cannot message itself");
  if (step.slots.empty()) throw Error(where() + ": lists no slots");
  for (int slot : step.slots)
    if (slot < 0 || slot >= slots)
      throw Error(where() + ": slot " + std::to_string(slot) + " does not exist (slots are 0 to " +
                  std::to_string(slots - 1) + ")");
}

}  // namespace collectives

// One rank's steps. A function of its own, called once per rank, so that in the browser V8 swaps in its optimised
// code after the first few ranks (a wasm function never changes tier in the middle of a call).
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void validate_steps(const Schedule& s, int r) {
  const auto& list = s.steps[static_cast<std::size_t>(r)];
  for (std::size_t i = 0; i < list.size(); ++i) collectives::check_step(s, r, i, list[i]);
}

void validate(const Schedule& s) {
  if (!known_collective(s.collective))
    throw Error("schedule: unknown collective \"" + s.collective + "\"");
  if (s.ranks < 1) throw Error("schedule: ranks must be >= 1, got " + std::to_string(s.ranks));
  if (s.steps.size() != static_cast<std::size_t>(s.ranks))
    throw Error("schedule: steps lists " + std::to_string(s.steps.size()) + " ranks but ranks is " +
                std::to_string(s.ranks));
  if (s.root < 0 || s.root >= s.ranks)
    throw Error("schedule: root " + std::to_string(s.root) + " is not a rank (0 to " + std::to_string(s.ranks - 1) +
                ")");
  const int slots = static_cast<int>(s.slot_bytes.size());
  for (int i = 0; i < slots; ++i) {
    const double b = s.slot_bytes[static_cast<std::size_t>(i)];
    if (!(std::isfinite(b) && b >= 0.0))
      throw Error("schedule: slot " + std::to_string(i) + " has " + format_number(b) + " bytes; need a finite number >= 0");
  }
  const bool owned = s.collective == "all-gather" || s.collective == "reduce-scatter";
  if (owned && s.owner.size() != s.slot_bytes.size())
    throw Error("schedule: " + s.collective + " needs an owner for each of its " + std::to_string(slots) +
                " slots, got " + std::to_string(s.owner.size()));
  for (std::size_t i = 0; i < s.owner.size(); ++i)
    if (s.owner[i] < 0 || s.owner[i] >= s.ranks)
      throw Error("schedule: slot " + std::to_string(i) + " is owned by rank " + std::to_string(s.owner[i]) +
                  ", which does not exist");
  if (s.collective == "all-to-all" && slots != s.ranks * s.ranks)
    throw Error("schedule: all-to-all on " + std::to_string(s.ranks) + " ranks needs " +
                std::to_string(s.ranks * s.ranks) + " slots (one per sender and receiver), got " + std::to_string(slots));
  for (int r = 0; r < s.ranks; ++r) validate_steps(s, r);
}

namespace collectives {

void add_step(Schedule& s, int rank, ScheduleStep::Kind kind, int peer, const int* slots, std::size_t count) {
  ScheduleStep& step = s.steps[static_cast<std::size_t>(rank)].emplace_back();
  step.kind = kind;
  step.peer = peer;
  step.slots.assign(slots, slots + count);
}
void reserve_steps(Schedule& s, const std::vector<int>& ranks, std::size_t more) {
  for (int r : ranks) {
    auto& list = s.steps[static_cast<std::size_t>(r)];
    // Geometric like push_back, so a generator calling many small blocks on one rank stays linear.
    if (list.capacity() < list.size() + more) list.reserve(std::max(list.size() + more, 2 * list.capacity()));
  }
}
void add_transfer(Schedule& s, int from, int to, const std::vector<int>& slots, bool reduce) {
  add_send(s, from, to, slots);
  if (reduce) add_recv_reduce(s, to, from, slots);
  else add_recv_copy(s, to, from, slots);
}

}  // namespace collectives

}  // namespace dsml
