// design_command.cpp — `dsml micro-batches` and `dsml layouts` (dsml/parallel_design.h).
//
//   $ dsml micro-batches --stages 4 --compute 1 --overhead 0.003 --max 1000
//   {"closed_form": 31.62…, "best": 32, "best_step_s": 1.19875}
//   $ dsml layouts --model opt-30b --nodes 8 --gpus-per-node 8 [--gpu a100-80gb] [--fits-only]
//   {"model": "opt-30b", "gpu": "a100-80gb", "parameters": 29974511616, "capacity_bytes": 80000000000,
//    "layouts": [{"t": 1, "p": 1, "d": 64, "micro_batches": 8, "replicated": {"time_s": {…}, "memory_bytes": {…},
//    "fits": false}, "zero1": {…}}, …]}
// Every row is plan_step's (the planner's field names, as `dsml plan` prints them), at ZeRO 0 and ZeRO-1.
#include <string>
#include <vector>

#include "args.h"
#include "design_command.h"
#include "dsml/parallel_design.h"
#include "json_output.h"
#include "network_flags.h"

namespace dsml::cli {

int micro_batches(int argc, char** argv) {
  const Args args("micro-batches", argc, argv, 2, {"stages", "compute", "overhead", "max"});
  const MicroBatchChoice c =
      optimal_micro_batches(args.whole("stages"), args.number("compute"), args.number("overhead"), args.whole("max"));
  print(JsonObject().add("closed_form", c.closed_form).add("best", c.best).add("best_step_s", c.best_step_s));
  return 0;
}

namespace {

// What Week 5 shows of a plan: the step's terms, the first stage's memory, whether it fits.
JsonObject layout_plan_json(const StepPlan& p) {
  const StepSplit& t = p.time;
  const PlanMemory& m = p.memory;
  return JsonObject()
      .add_object("time_s", JsonObject()
                                .add("compute", t.compute).add("bubble", t.bubble).add("tensor", t.tensor)
                                .add("context", t.context).add("expert", t.expert)
                                .add("pipeline", t.pipeline).add("data", t.data).add("optimizer", t.optimizer)
                                .add("total", t.total))
      .add_object("memory_bytes", JsonObject()
                                      .add("params", m.params).add("grads", m.grads).add("optimizer", m.optimizer)
                                      .add("activations", m.activations).add("total", m.total))
      .add_bool("fits", p.fits);
}

}  // namespace

int layouts(int argc, char** argv) {
  const Args args("layouts", argc, argv, 2,
                  {"model", "gpu", "nodes", "gpus-per-node", "global-batch", "micro-batch", "recompute"},
                  {"no-sequence-parallel", "fits-only"});
  LayoutConfig c;
  c.model = planner_model_preset(args.text("model"));
  c.cluster.gpu = gpu_preset(args.has("gpu") ? args.text("gpu") : "a100-80gb");
  c.cluster.nodes = args.whole("nodes");
  c.cluster.gpus_per_node = args.whole("gpus-per-node");
  c.global_batch = args.whole_or("global-batch", c.global_batch);
  c.micro_batch = args.whole_or("micro-batch", c.micro_batch);
  if (args.has("recompute")) c.recomputation = parse_recomputation(args.text("recompute"));
  c.sequence_parallel = !args.has("no-sequence-parallel");
  std::vector<JsonObject> rows;
  for (const LayoutRow& r : price_3d_layouts(c)) {
    if (args.has("fits-only") && !r.zero1.fits) continue;
    rows.push_back(JsonObject()
                       .add("t", r.t)
                       .add("p", r.p)
                       .add("d", r.d)
                       .add("micro_batches", r.replicated.micro_batches)
                       .add_object("replicated", layout_plan_json(r.replicated))
                       .add_object("zero1", layout_plan_json(r.zero1)));
  }
  print(JsonObject()
            .add_text("model", c.model.name)
            .add_text("gpu", c.cluster.gpu.name)
            .add("parameters", planner_parameters(c.model))
            .add("capacity_bytes", c.cluster.gpu.hbm_bytes)
            .add_objects("layouts", rows));
  return 0;
}

}  // namespace dsml::cli
