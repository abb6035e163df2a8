// Private to core/pipeline: the one engine that runs the devices (stages) of a pipeline schedule together, behind
// the plain schedules (check_pipeline_schedule, time_pipeline_schedule: explicit sends and receives) and the chunk
// schedules (check_chunk_schedule, time_chunk_schedule: messages implied by the chunk a result crosses to).
//
// Each device runs a program of TimedOps in order. An op waits for one event (a result, or a message's arrival) —
// if the event has not happened yet, its device stops until a later sweep — starts when both the event (plus a
// delay) and its device are ready, runs for its duration, and may set one event at its end (plus a delay: p2p for a
// message). A sweep advances every device as far as it can; since each device's ops run in order and each event
// is set once, the times do not depend on the order of the sweeps. When a sweep moves nobody and some device is
// unfinished, every unfinished device waits on an event that can never happen: a deadlock, which the front-ends
// describe in their own terms from the op each device stopped at.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "dsml/pipeline_schedule.h"

namespace dsml {
namespace pipeline_detail {

struct TimedOp {
  int needs = -1;              // the event this op waits for, -1: none
  double needs_delay = 0.0;    // s after that event (p2p when the result crosses devices)
  double duration = 0.0;       // s of compute; 0 for a send or a receive
  int sets = -1;               // the event set at this op's end, -1: none
  double sets_delay = 0.0;     // s after the end (p2p for a send)
  bool compute = false;        // counts as busy time
};

struct SweepRun {
  std::vector<double> finish;              // per device: s when its last op ended
  std::vector<double> busy;                // per device: s computing
  std::vector<std::vector<double>> start;  // per device, per op run: when it started (its end = start + duration)
  std::vector<std::size_t> stopped_at;     // per device: the op it waits at, or the program's size when done
};

// `events` distinct events, numbered 0 … events − 1. Durations and delays ≥ 0.
SweepRun run_programs(const std::vector<std::vector<TimedOp>>& programs, std::size_t events);

// ---- the plain schedules of pipeline_schedule.h ----

struct PipelineRun {
  std::string deadlock;             // empty when every stage ran to its end
  std::vector<double> finish;       // per stage: seconds when its last op ended
  std::vector<double> busy;         // per stage: seconds computing
  std::vector<PipelineSpan> spans;  // by stage, in execution order
};

// Precondition: the per-stage rules of check_pipeline_schedule hold (each message sent and received exactly
// once, every op's micro-batch in range). Times in seconds, ≥ 0.
PipelineRun run_pipeline(const PipelineSchedule& schedule, double forward_s, double backward_s, double p2p_s);

// The per-stage rules alone (everything but deadlock): empty if they hold, else the first broken one.
std::string check_stages(const PipelineSchedule& schedule);

// ---- what both front-ends report of a run ----

// Each device's idle time (makespan − busy) and the bubble Σ idle / (devices · makespan), from a run's per-device
// finish and busy times.
struct IdleTime {
  double makespan = 0.0;
  std::vector<double> idle;
  double bubble_fraction = 0.0;
};
IdleTime idle_time(const std::vector<double>& finish, const std::vector<double>& busy);

// Per device, the most micro-batches whose activations it holds at once, walking its ops in order: +1 at an op
// for which takes(op), −1 at one for which frees(op).
template <typename Op, typename Takes, typename Frees>
std::vector<int> peak_held(const std::vector<std::vector<Op>>& ops, Takes takes, Frees frees) {
  std::vector<int> peak;
  for (const std::vector<Op>& device : ops) {
    int held = 0, most = 0;
    for (const Op& op : device) {
      if (takes(op)) most = std::max(most, ++held);
      if (frees(op)) --held;
    }
    peak.push_back(most);
  }
  return peak;
}

}  // namespace pipeline_detail
}  // namespace dsml
