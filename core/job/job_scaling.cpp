// job_scaling.cpp — the capstone job's efficiency against P, in expectation (dsml/simulated_job.h): the expected
// slowest worker instead of the draws, Daly's expected wall time instead of one failure run.
#include <algorithm>
#include <cmath>
#include <string>

#include "dsml/checkpointing.h"
#include "dsml/error.h"
#include "dsml/simulated_job.h"
#include "job_pricing.h"

namespace dsml {

std::vector<JobScalingPoint> job_scaling(const JobConfig& config, const std::vector<int>& workers) {
  if (workers.empty() || workers.size() > 64)
    throw Error("the sweep needs 1 to 64 worker counts, got " + std::to_string(workers.size()));
  std::vector<JobScalingPoint> points;
  for (int p : workers) {
    if (p < 1 || p > 1024) throw Error("every worker count of the sweep must be between 1 and 1024, got " + std::to_string(p));
    JobConfig c = config;
    c.workers = p;
    validate(c);
    JobScalingPoint point;
    point.workers = p;
    point.step_compute = job_detail::step_compute_seconds(c);
    point.step_comm = job_detail::step_comm_seconds(c);
    // E[max_w X] of P identical slow-node workers: the step is slow unless none is, 1 − (1 − p)^P — what
    // expected_round_compute (ps_closed_forms.h) integrates for any speeds, in O(P³) (tested equal at P = 64).
    point.straggler_wait = point.step_compute * (c.slowdown - 1) * -std::expm1(p * std::log1p(-c.straggler_probability));
    const double work = c.steps * (point.step_compute + point.step_comm + point.straggler_wait);
    const double compute = c.steps * point.step_compute;
    const double interval = std::min(c.checkpoint_every, c.steps) * work / c.steps;
    const double failure_free = work + job_detail::checkpoints_without_failures(c) * c.checkpoint_seconds;
    point.expected_wall = c.failures ? expected_wall_time(work, interval, c.checkpoint_seconds, c.restart_seconds,
                                                          fleet_mtbf(c.node_mtbf, p), c.detection_seconds)
                                     : failure_free;
    point.efficiency = compute / point.expected_wall;
    point.failure_free_efficiency = compute / failure_free;
    points.push_back(point);
  }
  return points;
}

}  // namespace dsml
