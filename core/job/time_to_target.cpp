// time_to_target.cpp — the capstone job trained until its loss reaches a target (dsml/simulated_job.h): the
// synchronous ring job, or SSP through a sharded parameter server (param_server.h + stale_training.h, replayed as
// Week 4 does), each priced on the job's hardware; and the sweep over P that marks the fastest P.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "dsml/checkpointing.h"
#include "dsml/compressed_training.h"
#include "dsml/error.h"
#include "dsml/param_server.h"
#include "dsml/simulated_job.h"
#include "dsml/stale_training.h"
#include "dsml/topology.h"
#include "job_pricing.h"

namespace dsml {
namespace {

constexpr int kFirstTry = 64;  // steps trained before the first look at the curve; then doubled up to the cap

// The synchronous job for `steps` steps: the held-out loss before step 1 and after each step.
std::vector<double> synchronous_losses(const JobConfig& c, int steps) {
  CompressedTrainingConfig train;
  train.model = c.task;
  train.workers = c.workers;
  train.batch_per_worker = c.task_rows_per_worker;
  train.steps = steps;
  train.lr = c.lr;
  train.compressor = c.compressor;
  train.error_feedback = c.error_feedback;
  train.seed = c.task_seed;
  train.eval_batch = c.eval_batch;
  return train_compressed(train).losses;
}

TargetRun synchronous(const JobConfig& c) {
  TargetRun out;
  std::vector<double> losses;
  int reached_at = -1;
  for (int n = std::min(kFirstTry, c.steps);; n = std::min(c.steps, 2 * n)) {
    losses = synchronous_losses(c, n);
    for (int t = 0; t <= n && reached_at < 0; ++t)
      if (losses[t] <= c.target_loss) reached_at = t;
    if (reached_at >= 0 || n == c.steps) break;
  }
  out.reached = reached_at >= 0;
  const int steps = out.reached ? reached_at : c.steps;
  out.steps = steps;
  out.updates = static_cast<double>(steps) * c.workers;
  out.loss = losses[steps];
  for (int t = 0; t <= steps; ++t) {
    out.curve_steps.push_back(t);
    out.curve_loss.push_back(losses[t]);
  }
  if (steps > 0) {  // the clock of those steps: compute, communication and this seed's stragglers
    JobConfig clock = c;
    clock.steps = steps;
    clock.failures = false;
    out.work = time_job(clock).work;
  }
  return out;
}

// SSP's run on the job's hardware: P workers and P shards of the priced model on one switch.
ParamServerConfig parameter_server(const JobConfig& c, int clocks) {
  ParamServerConfig ps;
  ps.workers = c.workers;
  ps.servers = c.workers;
  ps.consistency = Consistency::ssp;
  ps.staleness = c.staleness;
  ps.iterations = clocks;
  // Ψ = 2·L·D·F in double: the priced model's 2^32 parameters overflow a 32-bit size_t (wasm32's parameter_count).
  ps.parameters = 2.0 * c.model.layers * c.model.width * c.model.hidden;
  ps.bytes_per_parameter = c.element_bytes;
  ps.speed = job_detail::stragglers(c, job_detail::step_compute_seconds(c));
  return ps;
}

// The instant the first worker finished its last clock: up to there a run of more clocks did the same.
double first_finish(const ParamServerResult& run) {
  double first = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < run.spans.size(); ++i)
    if (i + 1 == run.spans.size() || run.spans[i + 1].worker != run.spans[i].worker) first = std::min(first, run.spans[i].end);
  return first;
}

TargetRun asynchronous(const JobConfig& c) {
  if (c.compressor.kind != CompressorKind::none)
    throw Error(std::string("the asynchronous (SSP) job sends whole gradients to its parameter server: choose "
                            "compressor none, got ") + compressor_name(c.compressor.kind));
  StaleTrainingConfig t;
  t.model = c.task;
  t.batch_per_worker = c.task_rows_per_worker;
  t.lr = c.lr / c.workers;  // P updates of (η/P)·g_w a clock: one synchronous step's η·mean
  t.seed = c.task_seed;
  t.eval_batch = c.eval_batch;
  TargetRun out;
  for (int n = std::min(kFirstTry, c.steps);; n = std::min(c.steps, 2 * n)) {
    const ParamServerConfig ps = parameter_server(c, n);
    const ParamServerResult run = simulate_param_server(Topology::fully_connected(2 * c.workers, c.network), ps);
    ParamServerConfig replay = ps;  // the same log on the teacher task's parameters, cut into the same P shards
    replay.parameters = static_cast<double>(parameter_count(c.task));
    // The server's model after every P·K shard applications: P gradients' worth, one step of data. With s = 0 these
    // are the clock boundaries (no reply of clock t + 1 leaves a shard before every shard has applied clock t).
    // Only those are read, so only those are measured: curve[i] is the model after step i.
    t.record_every = c.workers * ps.servers;
    const StaleTrainingResult training = train_on_param_server(run, replay, t);
    const auto& curve = training.curve;
    const auto whole_step = [&](std::size_t i) { return std::fabs(curve[i].updates - double(i) * c.workers) < 1e-6; };
    std::size_t at = 0;
    while (curve[at].loss > c.target_loss && at + 1 < curve.size() && whole_step(at + 1)) ++at;
    out.reached = curve[at].loss <= c.target_loss;
    if (n < c.steps && !(out.reached && curve[at].time <= first_finish(run))) continue;  // train longer
    out.steps = static_cast<double>(at);
    out.updates = out.steps * c.workers;
    out.loss = curve[at].loss;
    out.work = curve[at].time;
    out.max_staleness = 0;
    for (const PsUpdate& u : run.updates)
      if (u.time <= out.work) out.max_staleness = std::max(out.max_staleness, u.tau);
    out.curve_steps.clear();
    out.curve_loss.clear();
    for (std::size_t i = 0; i <= at; ++i) {
      out.curve_steps.push_back(static_cast<double>(i));
      out.curve_loss.push_back(curve[i].loss);
    }
    return out;
  }
}

// Daly's expected wall time of `work` checkpointed every Δ steps (failures on), or the work and its checkpoints.
double expected_wall(const JobConfig& c, double work, double steps) {
  if (work <= 0 || steps <= 0) return 0;
  const double checkpoints = std::ceil(steps / c.checkpoint_every - 1e-9);
  if (!c.failures) return work + checkpoints * c.checkpoint_seconds;
  const double interval = std::min<double>(c.checkpoint_every, steps) * work / steps;
  return expected_wall_time(work, interval, c.checkpoint_seconds, c.restart_seconds, fleet_mtbf(c.node_mtbf, c.workers),
                            c.detection_seconds);
}

}  // namespace

TargetRun time_to_target(const JobConfig& c) {
  validate(c);
  TargetRun out = c.asynchronous ? asynchronous(c) : synchronous(c);
  out.workers = c.workers;
  out.wall = expected_wall(c, out.work, out.steps);
  return out;
}

TargetSweep target_scaling(const JobConfig& config, const std::vector<int>& workers) {
  if (workers.empty() || workers.size() > 16)
    throw Error("the time-to-target sweep needs 1 to 16 worker counts, got " + std::to_string(workers.size()));
  TargetSweep sweep;
  for (int p : workers) {
    if (p < 1 || p > 256)
      throw Error("every worker count of the time-to-target sweep must be between 1 and 256, got " + std::to_string(p));
    JobConfig c = config;
    c.workers = p;
    TargetRun run = time_to_target(c);
    run.curve_steps.clear();
    run.curve_loss.clear();
    sweep.points.push_back(std::move(run));
  }
  for (std::size_t i = 0; i < sweep.points.size(); ++i)
    if (sweep.points[i].reached && (sweep.best < 0 || sweep.points[i].wall < sweep.points[sweep.best].wall))
      sweep.best = static_cast<int>(i);
  return sweep;
}

}  // namespace dsml
