// simulated_job_timing.cpp — the capstone job's clock (dsml/simulated_job.h): the priced step, the stragglers
// drawn step by step, then one run of the failure simulation over the job's failure-free time.
#include <algorithm>
#include <cmath>
#include <string>

#include "dsml/checkpointing.h"
#include "dsml/error.h"
#include "dsml/simulated_job.h"
#include "dsml/speed_model.h"
#include "dsml/step_cost.h"
#include "job_pricing.h"
#include "nn/gaussian.h"

namespace dsml {

void validate(const JobConfig& c) {
  if (c.workers < 1 || c.workers > 1024) throw Error("workers must be between 1 and 1024, got " + std::to_string(c.workers));
  if (c.steps < 1 || c.steps > 100000) throw Error("steps must be between 1 and 100000, got " + std::to_string(c.steps));
  validate(c.model);
  validate(c.task);
  if (c.rows_per_worker < 1) throw Error("rows_per_worker must be >= 1, got " + std::to_string(c.rows_per_worker));
  require_positive("flops_per_s (one device's FLOP/s)", c.flops_per_s);
  validate(c.network);
  if (c.element_bytes < 1 || c.element_bytes > 8)
    throw Error("element_bytes must be between 1 and 8, got " + std::to_string(c.element_bytes));
  validate(c.compressor);
  if (!(c.straggler_probability >= 0 && c.straggler_probability <= 1))
    throw Error("straggler_probability must be in [0, 1], got " + format_number(c.straggler_probability));
  if (!(c.slowdown >= 1 && std::isfinite(c.slowdown)))
    throw Error("slowdown (a straggler's factor) must be >= 1, got " + format_number(c.slowdown));
  require_positive("node_mtbf (s)", c.node_mtbf);
  if (c.checkpoint_every < 1)
    throw Error("checkpoint_every (steps between checkpoints) must be >= 1, got " + std::to_string(c.checkpoint_every));
  require_non_negative("checkpoint_seconds (s to write one)", c.checkpoint_seconds);
  require_non_negative("restart_seconds (s)", c.restart_seconds);
  require_non_negative("detection_seconds (s)", c.detection_seconds);
  if (c.task_rows_per_worker < 1)
    throw Error("task_rows_per_worker must be >= 1, got " + std::to_string(c.task_rows_per_worker));
  require_positive("lr (learning rate)", c.lr);
  if (c.eval_batch < 1) throw Error("eval_batch must be >= 1, got " + std::to_string(c.eval_batch));
  require_positive("target_loss (held-out loss to reach)", c.target_loss);
  if (c.staleness < 0) throw Error("staleness (SSP's bound s) must be >= 0, got " + std::to_string(c.staleness));
}

namespace job_detail {

double step_compute_seconds(const JobConfig& c) {
  // Every data-parallel rank computes the step of one device on its b rows: step_cost's compute_s of the dp step
  // on P ranks is the single device's on b rows (priced here, so a sweep to P = 4096 draws no 4096-rank timeline).
  StepCostConfig s;
  s.model = c.model;
  s.batch = c.rows_per_worker;
  s.strategy = Strategy::single;
  s.flops_per_s = c.flops_per_s;
  s.element_bytes = c.element_bytes;
  return step_cost(s, c.network).compute_s;
}

CompressorConfig wire_compressor(const JobConfig& c) {
  CompressorConfig w = c.compressor;
  w.element_bytes = c.element_bytes;
  return w;
}

double step_comm_seconds(const JobConfig& c) {
  return compressed_step_seconds(wire_compressor(c), c.model, c.workers, c.network);
}

SpeedModel stragglers(const JobConfig& c, double compute) {
  SpeedModel s;
  s.distribution = SpeedDistribution::slow_node;
  s.base_seconds = compute;
  s.slow_probability = c.straggler_probability;
  s.slowdown = c.slowdown;
  s.seed = nn_detail::mix_seed(c.seed, 1);
  return s;
}

int checkpoints_without_failures(const JobConfig& c) {
  return (c.steps + c.checkpoint_every - 1) / c.checkpoint_every;
}

}  // namespace job_detail

JobTiming time_job(const JobConfig& c) {
  validate(c);
  using namespace job_detail;
  JobTiming t;
  t.step_compute = step_compute_seconds(c);
  t.step_comm = step_comm_seconds(c);
  t.fleet_mtbf = fleet_mtbf(c.node_mtbf, c.workers);

  // The synchronous steps: every worker computes, the step waits for the slowest, then the exchange.
  double wait = 0;
  if (c.straggler_probability > 0 && c.slowdown > 1) {
    const SpeedModel speed = stragglers(c, t.step_compute);
    validate(speed, c.workers);
    for (int step = 0; step < c.steps; ++step) {
      double slowest = 0;
      for (int w = 0; w < c.workers; ++w) slowest = std::max(slowest, iteration_seconds(speed, w, step));
      wait += slowest - t.step_compute;
      if (slowest > t.step_compute) ++t.slow_steps;
    }
  }
  t.split.compute = c.steps * t.step_compute;
  t.split.communication = c.steps * t.step_comm;
  t.split.straggler_wait = wait;
  t.work = t.split.compute + t.split.communication + t.split.straggler_wait;
  t.interval = std::min(c.checkpoint_every, c.steps) * t.work / c.steps;

  if (!c.failures) {
    t.checkpoints = checkpoints_without_failures(c);
    t.split.checkpoints = t.checkpoints * c.checkpoint_seconds;
    t.expected_wall = t.work + t.split.checkpoints;
  } else {
    CheckpointRunConfig f;
    f.work = t.work;
    // A hair more than τ, so that ⌈steps/Δ⌉ segments cover W despite rounding (Σ of n τ's can fall a few ulps short
    // of W, and the simulation would write one more, empty, checkpoint).
    f.interval = t.interval * (1 + 1e-12);
    f.checkpoint = c.checkpoint_seconds;
    f.restart = c.restart_seconds;
    f.nodes = c.workers;
    f.node_mtbf = c.node_mtbf;
    f.heartbeat_timeout = c.detection_seconds;
    f.runs = 1;
    f.seed = nn_detail::mix_seed(c.seed, 2);
    // Refused in the learner's units before it is simulated: a segment of many fleet MTBFs would take ~e^{τ/M} tries.
    const double mean_step = t.work / c.steps;
    require_finishable(f, [&](double seconds) {
      const long steps = std::max(1L, std::lround(seconds / mean_step));
      return std::to_string(steps) + (steps == 1 ? " step" : " steps");
    }, "GPUs");
    const CheckpointStudy study = simulate_checkpointing(f);
    const CheckpointRun& run = study.runs.front();
    t.failures = run.failures;
    t.checkpoints = run.checkpoints;
    t.split.lost_work = run.lost_work;
    t.split.restarts = run.downtime;
    // What is left of the wall time after the work, the lost progress and the downtime is the kept checkpoints.
    t.split.checkpoints = std::max(0.0, run.wall - t.work - run.lost_work - run.downtime);
    t.expected_wall = expected_wall_time(t.work, t.interval, c.checkpoint_seconds, c.restart_seconds, t.fleet_mtbf,
                                         c.detection_seconds);
  }
  t.wall = t.split.total();
  t.efficiency = t.split.compute / t.wall;
  return t;
}

}  // namespace dsml
