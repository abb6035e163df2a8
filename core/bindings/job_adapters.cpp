// job_adapters.cpp — see job_adapters.h. Convert, call the core, convert back.
#include "job_adapters.h"

#include <utility>

#include "compression_adapters.h"
#include "convert.h"
#include "dsml/error.h"
#include "dsml/simulated_job.h"
#include "dsml/run_limits.h"
#include "fields.h"
#include "training_convert.h"

namespace dsml::bindings {
namespace {

JobConfig to_job(const val& r, const std::string& ctx) {
  require_object(r, ctx, "{workers, steps, compressor, nodeMtbf?, checkpointEvery?, stragglerProbability?, …}");
  JobConfig c;
  c.workers = static_cast<int>(whole_field(r, "workers", ctx, 1, limits::kTrainedWorkers));
  c.steps = static_cast<int>(whole_field(r, "steps", ctx, 1, limits::kSteps));
  if (!r["model"].isUndefined()) c.model = to_mlp_config(object_field(r, "model", ctx), ctx);
  c.rows_per_worker = static_cast<int>(whole_field_or(r, "rowsPerWorker", c.rows_per_worker, ctx, 1, 1 << 30));
  c.flops_per_s = number_field_or(r, "flops", c.flops_per_s, ctx);
  if (!r["network"].isUndefined()) c.network = to_cost_model(object_field(r, "network", ctx), ctx + ": network");
  c.element_bytes = static_cast<int>(whole_field_or(r, "elementBytes", c.element_bytes, ctx, 1, 8));
  c.compressor = to_compressor(r, ctx);
  // Left out: the core's default for the compressor (job_error_feedback_default), as `dsml capstone`'s.
  c.error_feedback = flag_field_or(r, "errorFeedback",
                                   c.compressor.kind != CompressorKind::none &&
                                       job_error_feedback_default(c.compressor.kind), ctx);
  c.straggler_probability = number_field_or(r, "stragglerProbability", c.straggler_probability, ctx);
  c.slowdown = number_field_or(r, "slowdown", c.slowdown, ctx);
  c.failures = flag_field_or(r, "failures", c.failures, ctx);
  c.node_mtbf = number_field_or(r, "nodeMtbf", c.node_mtbf, ctx);
  c.checkpoint_every = static_cast<int>(whole_field_or(r, "checkpointEvery", c.checkpoint_every, ctx, 1, 1 << 30));
  c.checkpoint_seconds = number_field_or(r, "checkpointSeconds", c.checkpoint_seconds, ctx);
  c.restart_seconds = number_field_or(r, "restartSeconds", c.restart_seconds, ctx);
  c.detection_seconds = number_field_or(r, "detectionSeconds", c.detection_seconds, ctx);
  if (!r["task"].isUndefined()) c.task = to_mlp_config(object_field(r, "task", ctx), ctx + ": task");
  c.task_rows_per_worker =
      static_cast<int>(whole_field_or(r, "taskRows", c.task_rows_per_worker, ctx, 1, limits::kRows));
  c.lr = number_field_or(r, "lr", c.lr, ctx);
  c.eval_batch = static_cast<int>(whole_field_or(r, "evalBatch", c.eval_batch, ctx, 1, limits::kRows));
  c.task_seed = static_cast<std::uint64_t>(whole_field_or(r, "taskSeed", c.task_seed, ctx));
  c.train = flag_field_or(r, "train", c.train, ctx);
  c.seed = static_cast<std::uint64_t>(whole_field_or(r, "seed", 0, ctx));
  c.target_loss = number_field_or(r, "targetLoss", c.target_loss, ctx);
  c.asynchronous = flag_field_or(r, "asynchronous", c.asynchronous, ctx);
  c.staleness = static_cast<int>(whole_field_or(r, "staleness", c.staleness, ctx, 0, 1 << 20));
  return c;
}

val to_val(const TargetRun& t) {
  val out = val::object();
  const std::pair<const char*, double> numbers[] = {{"workers", t.workers}, {"steps", t.steps}, {"updates", t.updates},
      {"loss", t.loss}, {"work", t.work}, {"wall", t.wall}, {"maxStaleness", t.max_staleness}};
  for (const auto& [key, value] : numbers) out.set(key, value);
  out.set("reached", t.reached);
  return out;
}

std::vector<int> worker_counts(const val& workers, const std::string& ctx) {
  std::vector<int> ps;
  for (double p : to_doubles(workers, (ctx + ": workers").c_str()))
    ps.push_back(static_cast<int>(whole_value(p, ctx + ": every worker count", 1, limits::kTrainedWorkers)));
  return ps;
}

val to_val(const WallSplit& s) {
  val out = val::object();
  out.set("compute", s.compute);
  out.set("communication", s.communication);
  out.set("stragglerWait", s.straggler_wait);
  out.set("checkpoints", s.checkpoints);
  out.set("lostWork", s.lost_work);
  out.set("restarts", s.restarts);
  return out;
}

}  // namespace

val simulate_job(const val& r) {
  const std::string ctx = "simulateJob";
  const JobConfig c = to_job(r, ctx);
  in_context(ctx, [&] { limits::check_job_size(c.workers, c.steps); });
  if (c.train) check_run_size(c.task, c.workers * c.task_rows_per_worker, c.steps, ctx);
  const JobRun run = run_job(c);
  const JobTiming& t = run.timing;
  val out = val::object();
  out.set("losses", to_float64_array(run.losses));
  out.set("stepCompute", t.step_compute);
  out.set("stepComm", t.step_comm);
  out.set("work", t.work);
  out.set("wall", t.wall);
  out.set("split", to_val(t.split));
  out.set("failures", t.failures);
  out.set("checkpoints", t.checkpoints);
  out.set("slowSteps", t.slow_steps);
  out.set("interval", t.interval);
  out.set("fleetMtbf", t.fleet_mtbf);
  out.set("expectedWall", t.expected_wall);
  out.set("efficiency", t.efficiency);
  out.set("bytesPerStep", run.bytes_per_step);
  out.set("uncompressedBytesPerStep", run.uncompressed_bytes_per_step);
  out.set("bytesPerWorker", run.bytes_per_worker);
  out.set("composesWithAllReduce", run.composes_with_all_reduce);
  out.set("youngSteps", run.young_steps);
  out.set("dalySteps", run.daly_steps);
  out.set("optimalSteps", run.optimal_steps);
  out.set("expectedWallAtOptimal", run.expected_wall_at_optimal);
  return out;
}

val job_scaling(const val& r, const val& workers) {
  const std::string ctx = "jobScaling";
  JobConfig c = to_job(r, ctx);
  val out = val::array();
  for (const JobScalingPoint& p : dsml::job_scaling(c, worker_counts(workers, ctx))) {
    val o = val::object();
    o.set("workers", p.workers);
    o.set("stepCompute", p.step_compute);
    o.set("stepComm", p.step_comm);
    o.set("stragglerWait", p.straggler_wait);
    o.set("expectedWall", p.expected_wall);
    o.set("efficiency", p.efficiency);
    o.set("failureFreeEfficiency", p.failure_free_efficiency);
    out.call<void>("push", o);
  }
  return out;
}

// What a tab trains: the cap's steps of P workers' rows (asynchronous: the same rows, P gradients a clock).
val job_to_target(const val& r) {
  const std::string ctx = "jobToTarget";
  const JobConfig c = to_job(r, ctx);
  check_run_size(c.task, c.workers * c.task_rows_per_worker, c.steps, ctx);
  const TargetRun t = time_to_target(c);
  val out = to_val(t);
  out.set("curveSteps", to_float64_array(t.curve_steps));
  out.set("curveLoss", to_float64_array(t.curve_loss));
  return out;
}

val job_target_scaling(const val& r, const val& workers) {
  const std::string ctx = "jobTargetScaling";
  const JobConfig c = to_job(r, ctx);
  const std::vector<int> ps = worker_counts(workers, ctx);
  for (int p : ps) check_run_size(c.task, p * c.task_rows_per_worker, c.steps, ctx);
  const TargetSweep sweep = target_scaling(c, ps);
  val points = val::array();
  for (const TargetRun& t : sweep.points) points.call<void>("push", to_val(t));
  val out = val::object();
  out.set("points", points);
  out.set("best", sweep.best);
  return out;
}

val job_error_feedback_default(const val& r) {
  const std::string ctx = "jobErrorFeedbackDefault";
  require_object(r, ctx, "{compressor}");
  const CompressorKind kind = in_context(ctx, [&] { return parse_compressor(text_field(r, "compressor", ctx)); });
  return val(kind != CompressorKind::none && dsml::job_error_feedback_default(kind));
}

}  // namespace dsml::bindings
