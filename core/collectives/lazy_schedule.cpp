// lazy_schedule.cpp — the LazySchedule type itself (dsml/lazy_schedule.h): a built schedule read step by step,
// and the way back to a built one. The formulas of the ring family live in lazy_ring.cpp, the simulator's side
// in to_programs.cpp.
#include "dsml/lazy_schedule.h"

#include <utility>

#include "collectives/generators.h"

namespace dsml {

LazySchedule::LazySchedule(Schedule header) : header_(std::move(header)) { header_.steps.clear(); }

namespace {

// A schedule make_schedule built: its steps kept, the header without them.
class BuiltSchedule : public LazySchedule {
 public:
  explicit BuiltSchedule(Schedule schedule) : LazySchedule(without_steps(schedule)), steps_(std::move(schedule.steps)) {}

  bool step(int rank, std::size_t index, ScheduleStep& out) const override {
    const auto& list = steps_[static_cast<std::size_t>(rank)];
    if (index >= list.size()) return false;
    out = list[index];
    return true;
  }

 private:
  static Schedule without_steps(const Schedule& s) {
    Schedule header;
    header.collective = s.collective;
    header.algorithm = s.algorithm;
    header.ranks = s.ranks;
    header.root = s.root;
    header.slot_bytes = s.slot_bytes;
    header.owner = s.owner;
    return header;
  }

  std::vector<std::vector<ScheduleStep>> steps_;
};

}  // namespace

std::unique_ptr<LazySchedule> read_lazily(Schedule schedule) {
  validate(schedule);
  return std::make_unique<BuiltSchedule>(std::move(schedule));
}

Schedule materialise(const LazySchedule& schedule) {
  Schedule s = schedule.header();
  s.steps.resize(static_cast<std::size_t>(s.ranks));
  for (int r = 0; r < s.ranks; ++r) {
    ScheduleStep step;
    for (std::size_t i = 0; schedule.step(r, i, step); ++i)
      collectives::add_step(s, r, step.kind, step.peer, step.slots.data(), step.slots.size());
  }
  return s;
}

}  // namespace dsml
