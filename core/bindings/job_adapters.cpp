// job_adapters.cpp — see job_adapters.h. Convert, call the core, convert back.
#include "job_adapters.h"

#include "compression_adapters.h"
#include "convert.h"
#include "dsml/error.h"
#include "dsml/job_fields.h"
#include "dsml/simulated_job.h"
#include "dsml/run_limits.h"
#include "fields.h"
#include "js_object.h"
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
  c.error_feedback = flag_field_or(r, "errorFeedback", job_error_feedback_default(c.compressor.kind), ctx);
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

std::vector<int> worker_counts(const val& workers, const std::string& ctx) {
  std::vector<int> ps;
  for (double p : to_doubles(workers, (ctx + ": workers").c_str()))
    ps.push_back(static_cast<int>(whole_value(p, ctx + ": every worker count", 1, limits::kTrainedWorkers)));
  return ps;
}

}  // namespace

val simulate_job(const val& r) {
  const std::string ctx = "simulateJob";
  const JobConfig c = to_job(r, ctx);
  in_context(ctx, [&] { limits::check_job_size(c.workers, c.steps); });
  if (c.train) check_run_size(c.task, c.workers * c.task_rows_per_worker, c.steps, ctx);
  return fields_to_val(run_job(c));
}

val job_scaling(const val& r, const val& workers) {
  const std::string ctx = "jobScaling";
  JobConfig c = to_job(r, ctx);
  val out = val::array();
  for (const JobScalingPoint& p : dsml::job_scaling(c, worker_counts(workers, ctx)))
    out.call<void>("push", fields_to_val(p));
  return out;
}

// What a tab trains: the cap's steps of P workers' rows (asynchronous: the same rows, P gradients a clock).
val job_to_target(const val& r) {
  const std::string ctx = "jobToTarget";
  const JobConfig c = to_job(r, ctx);
  check_run_size(c.task, c.workers * c.task_rows_per_worker, c.steps, ctx);
  return fields_to_val(time_to_target(c));
}

val job_target_scaling(const val& r, const val& workers) {
  const std::string ctx = "jobTargetScaling";
  const JobConfig c = to_job(r, ctx);
  const std::vector<int> ps = worker_counts(workers, ctx);
  for (int p : ps) check_run_size(c.task, p * c.task_rows_per_worker, c.steps, ctx);
  return fields_to_val(target_scaling(c, ps));
}

val job_error_feedback_default(const val& r) {
  const std::string ctx = "jobErrorFeedbackDefault";
  require_object(r, ctx, "{compressor}");
  const CompressorKind kind = in_context(ctx, [&] { return parse_compressor(text_field(r, "compressor", ctx)); });
  return val(dsml::job_error_feedback_default(kind));
}

}  // namespace dsml::bindings
