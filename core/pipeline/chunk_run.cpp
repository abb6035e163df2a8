// Checking, timing and measuring a chunk schedule (dsml/chunk_schedule.h).
//
// First each device on its own (the mistakes a learner is most likely to make, named precisely); then all
// devices together, on the one sweep engine every pipeline schedule runs on (pipeline_run.h): an op may start once
// what it needs has ended — F(i, c − 1), or B(i, c + 1), plus p2p seconds when that ran on another device — and
// its own device is free. A device that waits for a result never produced is a deadlock, reported as who waits
// for what.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "dsml/chunk_schedule.h"
#include "dsml/error.h"
#include "pipeline_run.h"

namespace dsml {
namespace {

using Kind = ChunkOp::Kind;
using Table = std::vector<std::vector<double>>;  // [chunk][micro-batch] → 1 once the op was seen

std::string device_prefix(int d) { return "device " + std::to_string(d) + ": "; }

// The per-device rules; "" when they hold.
std::string check_devices(const ChunkSchedule& schedule) {
  const int P = schedule.devices, C = schedule.chunks(), m = schedule.micro_batches;
  if (P < 1 || schedule.chunks_per_device < 1 || m < 1)
    return "a pipeline needs P >= 1 devices, v >= 1 chunks each and m >= 1 micro-batches";
  if (static_cast<int>(schedule.ops.size()) != P)
    return "the schedule has " + std::to_string(P) + " devices but ops for " + std::to_string(schedule.ops.size());
  for (int d = 0; d < P; ++d) {
    // seen[kind][chunk][i]
    std::vector<Table> seen(4, Table(static_cast<std::size_t>(C), std::vector<double>(m, 0)));
    std::vector<int> next_forward(static_cast<std::size_t>(C), 0);
    auto ran = [&seen](Kind k, int c, int i) { return seen[static_cast<int>(k)][c][i] != 0; };
    for (const ChunkOp& op : schedule.ops[static_cast<std::size_t>(d)]) {
      const int i = op.micro_batch, c = op.chunk;
      if (i < 0 || i >= m)
        return device_prefix(d) + "micro-batch " + std::to_string(i) + " is out of range (0 to " +
               std::to_string(m - 1) + ")";
      if (c < 0 || c >= C)
        return device_prefix(d) + "chunk " + std::to_string(c) + " is out of range (0 to " + std::to_string(C - 1) + ")";
      const std::string text = describe(op);
      if (c % P != d)
        return device_prefix(d) + text + " belongs on device " + std::to_string(c % P) + " (chunk c is on device c mod P)";
      if (ran(op.kind, c, i)) return device_prefix(d) + text + " appears twice";
      const bool any_backward = ran(Kind::kBackward, c, i) || ran(Kind::kBackwardInput, c, i);
      switch (op.kind) {
        case Kind::kForward:
          if (i != next_forward[c])
            return device_prefix(d) + text + " comes before F(" + std::to_string(next_forward[c]) + ", chunk " +
                   std::to_string(c) + "): a chunk's forwards run in micro-batch order";
          ++next_forward[c];
          break;
        case Kind::kBackward:
        case Kind::kBackwardInput:
          if (any_backward) return device_prefix(d) + text + ": micro-batch " + std::to_string(i) + " is backwarded twice";
          if (!ran(Kind::kForward, c, i))
            return device_prefix(d) + text + " comes before F(" + std::to_string(i) + ", chunk " + std::to_string(c) + ")";
          break;
        case Kind::kBackwardWeight:
          if (!ran(Kind::kBackwardInput, c, i))
            return device_prefix(d) + text + " comes before B(" + std::to_string(i) + ", chunk " + std::to_string(c) +
                   ") (the weight gradient needs the input gradient's dH)";
          break;
      }
      seen[static_cast<int>(op.kind)][c][i] = 1;
    }
    for (int c = d; c < C; c += P) {
      for (int i = 0; i < m; ++i) {
        const std::string what = "(" + std::to_string(i) + ", chunk " + std::to_string(c) + ")";
        if (!ran(Kind::kForward, c, i)) return device_prefix(d) + "F" + what + " is missing";
        if (!ran(Kind::kBackward, c, i) && !ran(Kind::kBackwardInput, c, i))
          return device_prefix(d) + "the backward of " + what + " is missing (BW, or B then W)";
        if (ran(Kind::kBackwardInput, c, i) && !ran(Kind::kBackwardWeight, c, i))
          return device_prefix(d) + "W" + what + " is missing after B" + what;
      }
    }
  }
  return "";
}

struct Run {
  std::string deadlock;
  std::vector<double> finish, busy;
  std::vector<ChunkSpan> spans;
};

// Precondition: check_devices holds. On the sweep engine of pipeline_run.h: F(i, c) waits for F(i, c − 1), a
// backward for the input gradient of (i, c + 1) (the last chunk: for its own F), W(i, c) for B(i, c) — plus p2p
// when the result comes from another device; the result of F is the event "(i, c) forwarded", that of BW and B
// "(i, c)'s input gradient".
Run run_devices(const ChunkSchedule& schedule, double t_f, double t_b, double t_w, double p2p) {
  using pipeline_detail::TimedOp;
  const int P = schedule.devices, C = schedule.chunks(), m = schedule.micro_batches;
  const auto forwarded = [m](int c, int i) { return c * m + i; };
  const auto input_grad = [m, C](int c, int i) { return (C + c) * m + i; };
  const auto delay = [P, p2p](int from_chunk, int d) { return from_chunk % P != d ? p2p : 0.0; };
  std::vector<std::vector<TimedOp>> programs(static_cast<std::size_t>(P));
  for (int d = 0; d < P; ++d) {
    for (const ChunkOp& op : schedule.ops[static_cast<std::size_t>(d)]) {
      const int i = op.micro_batch, c = op.chunk;
      TimedOp t;
      t.compute = true;
      if (op.kind == Kind::kForward) {
        if (c > 0) t.needs = forwarded(c - 1, i), t.needs_delay = delay(c - 1, d);
        t.sets = forwarded(c, i);
        t.duration = t_f;
      } else if (op.kind == Kind::kBackwardWeight) {
        t.needs = input_grad(c, i);
        t.duration = t_w;
      } else {
        if (c == C - 1) t.needs = forwarded(c, i);
        else t.needs = input_grad(c + 1, i), t.needs_delay = delay(c + 1, d);
        t.sets = input_grad(c, i);
        t.duration = op.kind == Kind::kBackward ? t_b + t_w : t_b;
      }
      programs[static_cast<std::size_t>(d)].push_back(t);
    }
  }
  const pipeline_detail::SweepRun sweep =
      pipeline_detail::run_programs(programs, 2 * static_cast<std::size_t>(C) * static_cast<std::size_t>(m));

  Run run;
  run.finish = sweep.finish;
  run.busy = sweep.busy;
  for (int d = 0; d < P; ++d) {
    const auto& ops = schedule.ops[static_cast<std::size_t>(d)];
    const auto& starts = sweep.start[static_cast<std::size_t>(d)];
    for (std::size_t k = 0; k < starts.size(); ++k)
      run.spans.push_back({d, ops[k].kind, ops[k].micro_batch, ops[k].chunk, starts[k],
                           starts[k] + programs[static_cast<std::size_t>(d)][k].duration});
    const std::size_t stopped = sweep.stopped_at[static_cast<std::size_t>(d)];
    if (stopped == ops.size()) continue;
    const ChunkOp& op = ops[stopped];
    const bool forward = op.kind == Kind::kForward;
    const ChunkOp waits_for{forward ? Kind::kForward : Kind::kBackwardInput, op.micro_batch,
                            forward ? op.chunk - 1 : op.chunk + 1};
    run.deadlock += std::string(run.deadlock.empty() ? "deadlock: " : ", ") + "device " + std::to_string(d) + " " +
                    describe(op) + " waits for " + describe(waits_for) + " on device " +
                    std::to_string(waits_for.chunk % P);
  }
  return run;
}

void require_valid(const ChunkSchedule& schedule) {
  const PipelineCheck check = check_chunk_schedule(schedule);
  if (!check.valid) throw Error("invalid pipeline schedule \"" + schedule.name + "\": " + check.message);
}

}  // namespace

PipelineCheck check_chunk_schedule(const ChunkSchedule& schedule) {
  PipelineCheck check;
  check.message = check_devices(schedule);
  if (check.message.empty()) check.message = run_devices(schedule, 0, 0, 0, 0).deadlock;
  check.valid = check.message.empty();
  return check;
}

ChunkTiming time_chunk_schedule(const ChunkSchedule& schedule, double forward_s, double backward_input_s,
                                double backward_weight_s, double p2p_s) {
  require_positive("forward time", forward_s);
  require_positive("backward-input time", backward_input_s);
  require_non_negative("backward-weight time", backward_weight_s);
  require_non_negative("p2p time", p2p_s);
  require_valid(schedule);
  Run run = run_devices(schedule, forward_s, backward_input_s, backward_weight_s, p2p_s);
  pipeline_detail::IdleTime idle = pipeline_detail::idle_time(run.finish, run.busy);
  ChunkTiming timing;
  timing.makespan = idle.makespan;
  timing.ideal = schedule.chunks_per_device * schedule.micro_batches *
                 (forward_s + backward_input_s + backward_weight_s);
  timing.busy = run.busy;
  timing.idle = std::move(idle.idle);
  timing.bubble_fraction = idle.bubble_fraction;
  timing.bubble_over_ideal = (timing.makespan - timing.ideal) / timing.ideal;
  timing.spans = std::move(run.spans);
  return timing;
}

std::vector<int> peak_chunk_activations(const ChunkSchedule& schedule) {
  require_valid(schedule);
  return pipeline_detail::peak_held(
      schedule.ops, [](const ChunkOp& op) { return op.kind == Kind::kForward; },
      [](const ChunkOp& op) { return op.kind == Kind::kBackward || op.kind == Kind::kBackwardWeight; });
}

}  // namespace dsml
