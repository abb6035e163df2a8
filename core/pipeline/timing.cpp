// Timing a pipeline schedule, and how many micro-batches of activations each stage holds at its peak.
//
// The bubble: with P stages and m micro-batches each stage computes for m(t_f + t_b) out of a makespan of
// (m + P − 1)(t_f + t_b) (GPipe and 1F1B alike, p2p free), so it idles for a fraction (P − 1)/(m + P − 1)
// (Huang et al. 2019 §2.3; Narayanan et al. 2021 §2.2). More micro-batches shrink it; 1F1B's gain is memory.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "dsml/error.h"
#include "dsml/pipeline_schedule.h"
#include "pipeline_run.h"

namespace dsml {
namespace {

void require_valid_stages(const PipelineSchedule& schedule) {
  const std::string message = pipeline_detail::check_stages(schedule);
  if (!message.empty()) throw Error("invalid pipeline schedule: " + message);
}

}  // namespace

PipelineTiming time_pipeline_schedule(const PipelineSchedule& schedule, double forward_s, double backward_s,
                                      double p2p_s) {
  require_positive("forward time", forward_s);
  require_positive("backward time", backward_s);
  require_non_negative("p2p time", p2p_s);
  require_valid_stages(schedule);
  pipeline_detail::PipelineRun run = pipeline_detail::run_pipeline(schedule, forward_s, backward_s, p2p_s);
  if (!run.deadlock.empty()) throw DeadlockError("invalid pipeline schedule: " + run.deadlock);

  pipeline_detail::IdleTime idle = pipeline_detail::idle_time(run.finish, run.busy);
  PipelineTiming timing;
  timing.makespan = idle.makespan;
  timing.busy = run.busy;
  timing.idle = std::move(idle.idle);
  timing.bubble_fraction = idle.bubble_fraction;
  timing.spans = std::move(run.spans);
  return timing;
}

std::vector<int> peak_in_flight_activations(const PipelineSchedule& schedule) {
  const PipelineCheck check = check_pipeline_schedule(schedule);
  if (!check.valid) throw Error("invalid pipeline schedule: " + check.message);
  return pipeline_detail::peak_held(
      schedule.ops, [](const PipelineOp& op) { return op.kind == PipelineOp::Kind::kForward; },
      [](const PipelineOp& op) { return op.kind == PipelineOp::Kind::kBackward; });
}

}  // namespace dsml
