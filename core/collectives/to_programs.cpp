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

namespace {

// The simulator's Step::send / recv / compute, written out here so the inner loop makes no out-of-line calls
// (every one of them is a JS round trip in the wasm build while `programs` is alive; 5.2 M steps at 1024 ranks).
// Fields exactly as those factories set them (simulator.cpp); tag 0.
Step send_step(int to, double bytes) {
  Step step;
  step.kind = Step::Kind::kSend;
  step.peer = to;
  step.bytes = bytes;
  return step;
}
Step recv_step(int from) {
  Step step;
  step.kind = Step::Kind::kRecv;
  step.peer = from;
  return step;
}
Step compute_step(double seconds) {
  Step step;
  step.kind = Step::Kind::kCompute;
  step.seconds = seconds;
  return step;
}

// One rank's program. A function of its own, called once per rank, so that in the browser V8 swaps in its
// optimised code after the first few ranks (a wasm function never changes tier in the middle of a call).
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
void convert_rank(const std::vector<ScheduleStep>& steps, const double* slot_bytes, double gamma, Program& program) {
  // Exactly one simulator step per schedule step, two for a recv-reduce: sized once, never regrown (a 1024-rank
  // ring all-reduce makes 5.2 M of them, and every over-reserved or regrown byte is paged in, or in wasm grown).
  std::size_t count = steps.size();
  for (const ScheduleStep& step : steps) count += step.kind == ScheduleStep::Kind::kRecvReduce;
  program.resize(count);
  Step* out = program.data();
  for (const ScheduleStep& step : steps) {
    double bytes = 0.0;  // step_bytes(), inline
    for (int slot : step.slots) bytes += slot_bytes[slot];
    switch (step.kind) {
      case ScheduleStep::Kind::kSend:
        *out++ = send_step(step.peer, bytes);
        break;
      case ScheduleStep::Kind::kRecvCopy:
        *out++ = recv_step(step.peer);
        break;
      case ScheduleStep::Kind::kRecvReduce:
        *out++ = recv_step(step.peer);
        *out++ = compute_step(gamma * bytes);
        break;
    }
  }
}

}  // namespace

std::vector<Program> to_programs(const Schedule& schedule, double gamma) {
  require_non_negative("gamma (seconds per byte reduced)", gamma);
  validate(schedule);
  std::vector<Program> programs(static_cast<std::size_t>(schedule.ranks));
  for (std::size_t r = 0; r < programs.size(); ++r)
    convert_rank(schedule.steps[r], schedule.slot_bytes.data(), gamma, programs[r]);
  return programs;
}

}  // namespace dsml
