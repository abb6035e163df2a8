// capstone_command.cpp — `dsml capstone` (usage in main.cpp): Week 6's capstone job simulated end to end, one line
// of JSON — the wall time split, the failures, the bytes, the loss at the end, and the efficiency against P.
//
//   $ dsml capstone --workers 64 --steps 2000 --compressor top-k --ratio 0.001 --straggler-probability 0.01
//       --node-mtbf 172800 --checkpoint-every 200 --seed 1
// With --target-loss it also trains the teacher task until that held-out loss (--steps is then the cap), on the
// synchronous ring or, with --staleness s, SSP through a sharded parameter server, and sweeps P (--sweep-workers):
//   $ dsml capstone --workers 4 --steps 2000 --target-loss 0.1 --sweep-workers 1,2,4,8 --staleness 2 --no-failures
#include <string>
#include <vector>

#include "args.h"
#include "dsml/job_fields.h"
#include "dsml/simulated_job.h"
#include "fault_tolerance_commands.h"
#include "json_fields.h"
#include "json_output.h"
#include "network_flags.h"

namespace dsml::cli {

int capstone(int argc, char** argv) {
  const Args args("capstone", argc, argv, 2,
                  {"workers", "steps", "compressor", "ratio", "levels", "rank", "lr", "straggler-probability",
                   "slowdown", "node-mtbf", "checkpoint-every", "checkpoint", "restart", "detection", "seed", "sweep",
                   "target-loss", "sweep-workers", "staleness", "task-layers", "task-width", "task-hidden", "task-rows",
                   "task-seed"},
                  {"no-failures", "error-feedback", "no-error-feedback"});
  JobConfig c;
  c.workers = args.whole_or("workers", c.workers);
  c.steps = args.whole_or("steps", c.steps);
  c.compressor.kind = parse_compressor(args.has("compressor") ? args.text("compressor") : "none");
  c.compressor.ratio = args.number_or("ratio", c.compressor.ratio);
  c.compressor.levels = args.whole_or("levels", c.compressor.levels);
  c.compressor.rank = args.whole_or("rank", c.compressor.rank);
  if (args.has("error-feedback") && args.has("no-error-feedback"))
    throw UsageError("--error-feedback and --no-error-feedback contradict each other: give one");
  c.error_feedback = c.compressor.kind != CompressorKind::none &&
                     (args.has("error-feedback") || (!args.has("no-error-feedback") &&
                                                     job_error_feedback_default(c.compressor.kind)));
  c.lr = args.number_or("lr", c.lr);
  c.straggler_probability = args.number_or("straggler-probability", c.straggler_probability);
  c.slowdown = args.number_or("slowdown", c.slowdown);
  c.failures = !args.has("no-failures");
  c.node_mtbf = args.number_or("node-mtbf", c.node_mtbf);
  c.checkpoint_every = args.whole_or("checkpoint-every", c.checkpoint_every);
  c.checkpoint_seconds = args.number_or("checkpoint", c.checkpoint_seconds);
  c.restart_seconds = args.number_or("restart", c.restart_seconds);
  c.detection_seconds = args.number_or("detection", c.detection_seconds);
  const int seed = args.whole_or("seed", 0);
  if (seed < 0) throw UsageError("--seed must be a whole number >= 0, got " + args.text("seed"));
  c.seed = static_cast<std::uint64_t>(seed);
  // The model and data the loss is measured on (the teacher task): small enough to train in a tab.
  c.task.layers = args.whole_or("task-layers", c.task.layers);
  c.task.width = args.whole_or("task-width", c.task.width);
  c.task.hidden = args.whole_or("task-hidden", c.task.hidden);
  c.task_rows_per_worker = args.whole_or("task-rows", c.task_rows_per_worker);
  const int task_seed = args.whole_or("task-seed", static_cast<int>(c.task_seed));
  if (task_seed < 0) throw UsageError("--task-seed must be a whole number >= 0, got " + args.text("task-seed"));
  c.task_seed = static_cast<std::uint64_t>(task_seed);
  c.target_loss = args.number_or("target-loss", c.target_loss);
  c.asynchronous = args.has("staleness");
  c.staleness = args.whole_or("staleness", 0);
  if (!args.has("target-loss") && (c.asynchronous || args.has("sweep-workers")))
    throw UsageError("--staleness and --sweep-workers belong to the time-to-target report: give --target-loss too");
  std::vector<int> sweep = {1, 2, 4, 8, 16, 32, 64, 128, 256};
  if (args.has("sweep")) {
    sweep.clear();
    for (double p : args.numbers("sweep")) sweep.push_back(static_cast<int>(p));
  }

  // simulateJob's fields (dsml/job_fields.h) but the loss curve, which loss_first and loss_last stand for; then
  // jobScaling's points.
  static const FieldTable summary = omit(job_run_fields(), {"losses"}, "JobRunResult");
  const JobRun run = run_job(c);
  std::vector<JsonObject> points;
  for (const JobScalingPoint& p : job_scaling(c, sweep)) points.push_back(fields_json(p));
  JsonObject json;
  json.add("workers", c.workers)
      .add("steps", c.steps)
      .add_text("compressor", compressor_name(c.compressor.kind))
      .add_bool("error_feedback", c.error_feedback)
      .add_fields(fields_json(summary, run))
      .add("loss_first", run.losses.front())
      .add("loss_last", run.losses.back())
      .add_objects("scaling", points);
  if (args.has("target-loss")) {  // jobToTarget's fields without the curve, and jobTargetScaling's
    static const FieldTable point = omit(target_run_fields(), {"curveSteps", "curveLoss"}, "TargetRun");
    std::vector<int> ps = {1, 2, 4, 8};
    if (args.has("sweep-workers")) {
      ps.clear();
      for (double p : args.numbers("sweep-workers")) ps.push_back(static_cast<int>(p));
    }
    const TargetSweep s = target_scaling(c, ps);
    json.add("target_loss", c.target_loss)
        .add_text("mode", c.asynchronous ? "ssp" : "synchronous")
        .add("staleness", c.staleness)
        .add_object("to_target", fields_json(point, time_to_target(c)))
        .add_object("time_to_target", fields_json(s))
        .add("best_workers", s.best < 0 ? 0 : s.points[s.best].workers);
  }
  print(json);
  return 0;
}

}  // namespace dsml::cli
