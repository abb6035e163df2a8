// design_command.cpp — `dsml micro-batches` and `dsml layouts` (dsml/parallel_design.h).
//
//   $ dsml micro-batches --stages 4 --compute 1 --overhead 0.003 --max 1000
//   {"closed_form": 31.62…, "best": 32, "best_step_s": 1.19875}
//   $ dsml layouts --model opt-30b --nodes 8 --gpus-per-node 8 [--fits-only]
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

int layouts(int argc, char** argv) {
  const Args args("layouts", argc, argv, 2,
                  {"model", "nodes", "gpus-per-node", "global-batch", "micro-batch", "flops", "memory"},
                  {"full-recomputation", "no-sequence-parallel", "fits-only"});
  LayoutConfig c;
  c.model = transformer_preset(args.text("model"));
  c.nodes = args.whole("nodes");
  c.gpus_per_node = args.whole("gpus-per-node");
  c.global_batch = args.whole_or("global-batch", c.global_batch);
  c.micro_batch = args.whole_or("micro-batch", c.micro_batch);
  c.flops_per_gpu = args.number_or("flops", c.flops_per_gpu);
  c.memory_bytes = args.number_or("memory", c.memory_bytes);
  c.full_recomputation = args.has("full-recomputation");
  c.sequence_parallel = !args.has("no-sequence-parallel");
  std::vector<JsonObject> rows;
  for (const LayoutRow& r : price_3d_layouts(c)) {
    if (args.has("fits-only") && !r.fits_zero1) continue;
    rows.push_back(JsonObject()
                       .add("t", r.t)
                       .add("p", r.p)
                       .add("d", r.d)
                       .add("micro_batches", r.micro_batches)
                       .add("memory_gb", r.memory_bytes / 1e9)
                       .add("memory_zero1_gb", r.memory_zero1_bytes / 1e9)
                       .add("activation_gb", r.activation_bytes / 1e9)
                       .add("compute_s", r.compute_s)
                       .add("bubble_s", r.bubble_s)
                       .add("tensor_s", r.tensor_s)
                       .add("pipeline_s", r.pipeline_s)
                       .add("data_s", r.data_s)
                       .add("step_s", r.step_s)
                       .add_bool("fits", r.fits)
                       .add_bool("fits_zero1", r.fits_zero1));
  }
  print(JsonObject().add_text("model", c.model.name).add("parameters", c.model.parameters).add_objects("layouts", rows));
  return 0;
}

}  // namespace dsml::cli
