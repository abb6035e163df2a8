// design_command.cpp — `dsml micro-batches` and `dsml layouts` (dsml/parallel_design.h).
//
//   $ dsml micro-batches --stages 4 --compute 1 --overhead 0.003 --max 1000
//   {"closed_form": 31.62…, "best": 32, "best_step_s": 1.19875}
//   $ dsml layouts --model opt-30b --nodes 8 --gpus-per-node 8 [--gpu a100-80gb] [--fits-only]
//   {"model": "opt-30b", "gpu": "a100-80gb", "parameters": 29974511616, "capacity": 80000000000,
//    "layouts": [{"t": 1, "p": 1, "d": 64, "micro_batches": 8, "replicated": {"time": {…}, "memory": {…},
//    "fits": false}, "zero1": {…}}, …]}
// Every row is plan_step's at ZeRO 0 and ZeRO-1, its time, memory and fits written from the planner's field table
// (dsml/plan_fields.h layout_plan_fields), as `dsml plan` prints them.
#include <string>
#include <vector>

#include "args.h"
#include "design_command.h"
#include "dsml/parallel_design.h"
#include "dsml/plan_fields.h"
#include "json_fields.h"
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
                       .add_object("replicated", write_fields<JsonFields>(layout_plan_fields(), &r.replicated).value)
                       .add_object("zero1", write_fields<JsonFields>(layout_plan_fields(), &r.zero1).value));
  }
  print(JsonObject()
            .add_text("model", c.model.name)
            .add_text("gpu", c.cluster.gpu.name)
            .add("parameters", planner_parameters(c.model))
            .add("capacity", c.cluster.gpu.hbm_bytes)
            .add_objects("layouts", rows));
  return 0;
}

}  // namespace dsml::cli
