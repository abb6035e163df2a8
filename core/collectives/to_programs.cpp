// to_programs.cpp — the simulator as an executor of schedules: each step becomes the simulator's step with the
// same peer, sized by the slots it carries, so dsml::simulate times exactly the messages the buffer executor
// checked.
//
//   send         → Step::send(peer, bytes)                 α + β·bytes on the wire (cost_model.h)
//   recv-copy    → Step::recv(peer)
//   recv-reduce  → Step::recv(peer), Step::compute(γ·bytes)  the rank adds the chunk in after it has arrived
// Every message uses tag 0: the simulator matches (source, tag) in FIFO order, the schedule (source,
// destination) in FIFO order — the same thing. A recv-reduce of an empty chunk adds a zero-length compute,
// which the simulator skips.
#include "dsml/error.h"
#include "dsml/schedule.h"

namespace dsml {

std::vector<Program> to_programs(const Schedule& schedule, double gamma) {
  require_non_negative("gamma (seconds per byte reduced)", gamma);
  validate(schedule);
  std::vector<Program> programs(static_cast<std::size_t>(schedule.ranks));
  for (std::size_t r = 0; r < programs.size(); ++r) {
    Program& program = programs[r];
    // Exactly one simulator step per schedule step, two for a recv-reduce: sized once, never regrown (a 1024-rank
    // ring all-reduce makes 5.2 M of them, and every over-reserved or regrown byte is paged in, or in wasm grown).
    std::size_t count = schedule.steps[r].size();
    for (const ScheduleStep& step : schedule.steps[r]) count += step.kind == ScheduleStep::Kind::kRecvReduce;
    program.reserve(count);
    for (const ScheduleStep& step : schedule.steps[r]) {
      const double bytes = step_bytes(schedule, step);
      switch (step.kind) {
        case ScheduleStep::Kind::kSend:
          program.push_back(Step::send(step.peer, bytes));
          break;
        case ScheduleStep::Kind::kRecvCopy:
          program.push_back(Step::recv(step.peer));
          break;
        case ScheduleStep::Kind::kRecvReduce:
          program.push_back(Step::recv(step.peer));
          program.push_back(Step::compute(gamma * bytes));
          break;
      }
    }
  }
  return programs;
}

}  // namespace dsml
