// elastic_adapters.cpp — see elastic_adapters.h. Convert, call the core, convert back.
#include "elastic_adapters.h"

#include "dsml/elastic.h"
#include "dsml/error.h"
#include "dsml/run_limits.h"
#include "fields.h"
#include "training_convert.h"

namespace dsml::bindings {

val train_elastic(const val& r) {
  const std::string ctx = "trainElastic";
  require_object(r, ctx, "{model, batch, steps, workers, changes?, optimizer?, seed?, replicated?, checkpointInterval?}");
  ElasticConfig c;
  c.model = to_mlp_config(object_field(r, "model", ctx), ctx);
  if (!r["optimizer"].isUndefined()) c.optimizer = to_optimizer_config(object_field(r, "optimizer", ctx), ctx);
  c.batch = static_cast<int>(whole_field(r, "batch", ctx, 1, limits::kRows));
  c.steps = static_cast<int>(whole_field(r, "steps", ctx, 1, limits::kSteps));
  c.seed = static_cast<std::uint64_t>(whole_field_or(r, "seed", 0, ctx));
  c.initial_workers = static_cast<int>(whole_field(r, "workers", ctx, 1, limits::kTrainedWorkers));
  c.shard_optimizer = !flag_field_or(r, "replicated", false, ctx);
  c.checkpoint_interval =
      static_cast<int>(whole_field_or(r, "checkpointInterval", c.checkpoint_interval, ctx, 0, limits::kSteps));
  if (!r["algorithm"].isUndefined()) c.algorithm = text_field(r, "algorithm", ctx);
  if (!r["changes"].isUndefined()) {
    const val changes = r["changes"];
    if (!changes.isArray()) throw Error(ctx + ": changes must be an array of {step, workers}");
    const auto n = changes["length"].as<unsigned>();
    for (unsigned i = 0; i < n; ++i) {
      const std::string item = ctx + ": changes[" + std::to_string(i) + "]";
      require_object(changes[i], item, "{step, workers, crash?}");
      c.changes.push_back({static_cast<int>(whole_field(changes[i], "step", item, 0, 1 << 20)),
                           static_cast<int>(whole_field(changes[i], "workers", item, 1, limits::kTrainedWorkers)),
                           flag_field_or(changes[i], "crash", false, item)});
    }
  }
  check_run_size(c.model, c.batch, c.steps, ctx);
  const ElasticResult e = dsml::train_elastic(c);
  val resizes = val::array();
  for (const ResizeEvent& z : e.resizes) {
    val o = val::object();
    o.set("step", z.step);
    o.set("from", z.from);
    o.set("to", z.to);
    o.set("optimizerBytesMoved", z.optimizer_bytes_moved);
    o.set("parameterBytesToJoiners", z.parameter_bytes_to_joiners);
    o.set("crash", z.crash);
    o.set("restoredFrom", z.restored_from);
    o.set("lostSteps", z.lost_steps);
    o.set("bytesRestored", z.bytes_restored);
    resizes.call<void>("push", o);
  }
  val out = val::object();
  out.set("workers", to_float64_array(std::vector<double>(e.workers.begin(), e.workers.end())));
  out.set("resizes", resizes);
  out.set("losses", to_float64_array(e.losses));
  out.set("singleLosses", to_float64_array(e.single_losses));
  out.set("maxRelativeDifference", e.max_relative_difference);
  out.set("stepBytes", to_float64_array(e.step_bytes));
  return out;
}

}  // namespace dsml::bindings
