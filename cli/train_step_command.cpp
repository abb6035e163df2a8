// train_step_command.cpp — `dsml train-step`: what one training step of the MLP costs under a parallel strategy —
// compute from FLOPs, the collectives the strategy issues (closed form on the --alpha/--beta switch, or
// simulated on a --topology), the pipeline bubble, and the bytes every rank holds (dsml/step_cost.h).
//
//   $ dsml train-step --layers 4 --width 1024 --hidden 4096 --batch 32 --strategy dp --dp 4 --flops 1e14 \
//                     --alpha 5e-6 --bandwidth 25e9
//   {"strategy": "dp", "grid": {"dp": 4, "tp": 1, "pp": 1, "micro_batches": 1}, "network": "closed form",
//    "overlap": false, "total_s": …, "compute_s": …, "bubble_s": 0,
//    "comm_s": {"all-reduce": …}, "memory_per_rank_bytes": [{"params": …, "grads": …, "optimizer": …,
//    "activations": …, "total": …}, …]}
#include "train_command.h"

#include <string>
#include <vector>

#include "args.h"
#include "dsml/step_cost.h"
#include "dsml/topology.h"
#include "json_output.h"
#include "network_flags.h"

namespace dsml::cli {

namespace {

StepCostConfig config_from(const Args& args) {
  StepCostConfig c;
  c.model = model_flags(args);
  c.batch = args.whole("batch");
  c.strategy = strategy_flag(args);
  c.grid = grid_flags(args);
  const StrategyOptions options = strategy_flags(args, c.strategy);
  c.micro_batches = options.micro_batches;
  c.bucket_bytes = options.bucket_bytes;
  c.algorithm = options.algorithm;
  c.flops_per_s = args.number("flops");
  c.element_bytes = args.number_or("element-bytes", 4);
  c.optimizer_states = args.whole_or("optimizer-states", c.optimizer_states);
  c.recompute = args.has("recompute");
  c.overlap = args.has("overlap");
  return c;
}

// The network over grid.size() ranks: fully-connected and ring take the grid's size (there is no --ranks);
// torus2d and hierarchical their own shape, which must match it.
StepCost cost_on_topology(const Args& args, const StepCostConfig& c) {
  const std::string name = args.text("topology");
  const double gamma = args.number_or("gamma", 0.0);
  if (name == "fully-connected" || name == "ring") {
    for (const std::string& flag : topology_flags(""))
      if (args.has(flag)) throw UsageError("--" + flag + " does not apply to --topology " + name);
    const CostModel model = model_from(args);
    const int ranks = c.grid.size();
    return step_cost(c, name == "ring" ? Topology::ring(ranks, model) : Topology::fully_connected(ranks, model),
                     gamma);
  }
  int ranks = 0;
  const Topology topology = topology_from(args, ranks);
  if (ranks != c.grid.size())
    throw UsageError("--topology " + name + " has " + std::to_string(ranks) + " ranks; the grid dp·tp·pp has " +
                     std::to_string(c.grid.size()));
  return step_cost(c, topology, gamma);
}

}  // namespace

int train_step(int argc, char** argv) {
  std::vector<std::string> valued = training_flags();
  for (const char* flag : {"flops", "alpha", "beta", "bandwidth", "gamma", "element-bytes", "optimizer-states",
                           "topology"})
    valued.push_back(flag);
  for (const std::string& flag : topology_flags("")) valued.push_back(flag);
  const Args args("train-step", argc, argv, 2, valued, {"recompute", "overlap"});
  if (!args.has("topology"))
    for (const std::string& flag : topology_flags(""))
      if (args.has(flag)) throw UsageError("--" + flag + " needs a --topology (see dsml --help)");

  const StepCostConfig c = config_from(args);
  const StepCost cost = args.has("topology") ? cost_on_topology(args, c) : step_cost(c, model_from(args));

  print(strategy_json(c.strategy, c.grid, c.micro_batches)
            .add_text("network", args.has("topology") ? "simulated " + args.text("topology") : "closed form")
            .add_bool("overlap", c.overlap)
            .add("total_s", cost.total_s)
            .add("compute_s", cost.compute_s)
            .add("bubble_s", cost.bubble_s)
            .add_object("comm_s", by_kind_json(cost.comm_s))
            .add_objects("memory_per_rank_bytes", memory_json(cost.memory)));
  return 0;
}

}  // namespace dsml::cli
