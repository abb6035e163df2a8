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
// simulate_schedule() makes the same steps on demand (ScheduleSteps below), one rank's next step at a time.
#include <cmath>
#include <string>

#include "collectives/generators.h"
#include "dsml/error.h"
#include "dsml/lazy_schedule.h"
#include "dsml/schedule.h"
#include "sim/engine.h"

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

// A lazy schedule as the simulator's StepSource: convert_rank's conversion, one step at a time. Per rank it keeps
// the index of the next schedule step and the compute step a recv-reduce still owes. Each schedule step is checked
// as validate() would (peer, slots), which is all the simulator's own check would find: so the engine takes these
// steps directly, without the per-step check simulate() adds for other sources.
class ScheduleSteps : public StepSource {
 public:
  ScheduleSteps(const LazySchedule& schedule, double gamma)
      : schedule_(schedule), gamma_(gamma), cursors_(static_cast<std::size_t>(schedule.header().ranks)) {}

  bool next(int rank, Step& out) override {
    Cursor& cursor = cursors_[static_cast<std::size_t>(rank)];
    if (cursor.owes_compute) {
      cursor.owes_compute = false;
      out = compute_step(cursor.compute_seconds);
      return true;
    }
    if (!schedule_.step(rank, cursor.index, scratch_)) return false;
    // validate()'s check, its common case inline: a good peer and slots in range (their bytes summed on the way).
    const Schedule& header = schedule_.header();
    bool good = scratch_.peer >= 0 && scratch_.peer < header.ranks && scratch_.peer != rank && !scratch_.slots.empty();
    double bytes = 0.0;
    const auto slots = static_cast<int>(header.slot_bytes.size());
    for (int slot : scratch_.slots) {
      good = good && slot >= 0 && slot < slots;
      bytes += good ? header.slot_bytes[static_cast<std::size_t>(slot)] : 0.0;
    }
    if (!good) collectives::check_step(header, rank, cursor.index, scratch_);  // throws, naming what is wrong
    ++cursor.index;
    switch (scratch_.kind) {
      case ScheduleStep::Kind::kSend:
        out = send_step(scratch_.peer, bytes);
        break;
      case ScheduleStep::Kind::kRecvCopy:
        out = recv_step(scratch_.peer);
        break;
      case ScheduleStep::Kind::kRecvReduce:
        out = recv_step(scratch_.peer);
        cursor.compute_seconds = gamma_ * bytes;
        // A zero-length compute is skipped by the engine (no time, no span, no event): not handing it out at all
        // changes nothing but the calls (γ = 0, the closed forms' usual case: a quarter of all steps of a ring).
        cursor.owes_compute = cursor.compute_seconds != 0.0;
        if (!std::isfinite(cursor.compute_seconds))
          throw Error("schedule: rank " + std::to_string(rank) + " step " + std::to_string(cursor.index - 1) + " (" +
                      describe(scratch_) + "): gamma × bytes = " + format_number(cursor.compute_seconds) +
                      " s is not a finite time");
        break;
    }
    return true;
  }

  Counts count(int rank) const override {  // walks the rank's steps once; O(1) memory
    Counts counts;
    ScheduleStep step;
    for (std::size_t i = 0; schedule_.step(rank, i, step); ++i) {
      counts.sends += step.kind == ScheduleStep::Kind::kSend;
      counts.span_bound += step.kind == ScheduleStep::Kind::kRecvCopy ? 1 : 2;  // send: wait + transmit;
    }                                                                             // recv-reduce: recv + compute
    return counts;
  }

 private:
  struct Cursor {
    std::size_t index = 0;        // the next schedule step
    bool owes_compute = false;    // a recv-reduce was handed out; its compute step comes next
    double compute_seconds = 0.0;
  };
  const LazySchedule& schedule_;
  double gamma_;
  std::vector<Cursor> cursors_;
  ScheduleStep scratch_;  // reused: no allocation per step
};

}  // namespace

SimResult simulate_schedule(const Topology& topology, const LazySchedule& schedule, double gamma,
                            const SimOptions& options) {
  require_non_negative("gamma (seconds per byte reduced)", gamma);
  if (topology.ranks() != schedule.header().ranks)
    throw Error("the topology has " + std::to_string(topology.ranks()) + " ranks but the schedule " +
                std::to_string(schedule.header().ranks));
  ScheduleSteps steps(schedule, gamma);
  return sim::Engine(topology, steps, options).run();
}

std::vector<Program> to_programs(const Schedule& schedule, double gamma) {
  require_non_negative("gamma (seconds per byte reduced)", gamma);
  validate(schedule);
  std::vector<Program> programs(static_cast<std::size_t>(schedule.ranks));
  for (std::size_t r = 0; r < programs.size(); ++r)
    convert_rank(schedule.steps[r], schedule.slot_bytes.data(), gamma, programs[r]);
  return programs;
}

}  // namespace dsml
