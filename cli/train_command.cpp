// train_command.cpp — `dsml train`: a parallel strategy trained for N steps beside the single-device reference
// (dsml/train_compare.h), printing both loss curves, how far apart the final parameters are, the bytes the busiest
// rank sent in the last step, and what each rank held. Also the flags `train` and `train-step` share.
//
//   $ dsml train --strategy zero2 --dp 4 --layers 2 --width 8 --hidden 32 --batch 16 --steps 3
//   {"strategy": "zero2", "grid": {"dp": 4, "tp": 1, "pp": 1, "micro_batches": 1}, "steps": 3,
//    "losses": [0.69…, …], "single_losses": [0.69…, …], "max_loss_relative_difference": 4e-16,
//    "max_relative_difference": 1.9e-16, "comm_bytes": {…}, …}
#include "train_command.h"

#include <string>
#include <vector>

#include "dsml/error.h"
#include "dsml/optimizer.h"
#include "dsml/train_compare.h"
#include "network_flags.h"

namespace dsml::cli {

std::vector<std::string> training_flags() {
  return {"layers", "width", "hidden", "batch", "strategy", "dp", "tp", "pp", "micro-batches", "bucket-bytes",
          "algorithm"};
}

MlpConfig model_flags(const Args& args) {
  MlpConfig c;
  c.layers = args.whole("layers");
  c.width = args.whole("width");
  c.hidden = args.whole("hidden");
  return c;
}

RankGrid grid_flags(const Args& args) {
  return RankGrid{args.whole_or("dp", 1), args.whole_or("tp", 1), args.whole_or("pp", 1)};
}

Strategy strategy_flag(const Args& args) {
  try {
    return parse_strategy(args.text("strategy"));
  } catch (const dsml::Error& e) {
    throw UsageError(std::string("--strategy: ") + e.what());
  }
}

StrategyOptions strategy_flags(const Args& args, Strategy strategy) {
  StrategyOptions o;
  o.micro_batches = args.whole_or("micro-batches", default_micro_batches(strategy));
  o.bucket_bytes = args.number_or("bucket-bytes", o.bucket_bytes);
  if (args.has("algorithm")) o.algorithm = args.text("algorithm");
  return o;
}

JsonObject grid_json(const RankGrid& grid, int micro_batches) {
  return JsonObject().add("dp", grid.dp).add("tp", grid.tp).add("pp", grid.pp).add("micro_batches", micro_batches);
}

JsonObject strategy_json(Strategy strategy, const RankGrid& grid, int micro_batches) {
  return JsonObject().add_text("strategy", strategy_name(strategy)).add_object("grid", grid_json(grid, micro_batches));
}

JsonObject by_kind_json(const std::map<std::string, double>& by_kind) {
  JsonObject out;
  for (const auto& [kind, value] : by_kind) out.add(kind, value);
  return out;
}

std::vector<JsonObject> memory_json(const std::vector<MemoryBreakdown>& memory) {
  std::vector<JsonObject> out;
  for (const MemoryBreakdown& m : memory)
    out.push_back(JsonObject()
                      .add("params", m.params)
                      .add("grads", m.grads)
                      .add("optimizer", m.optimizer)
                      .add("activations", m.activations)
                      .add("total", m.total));
  return out;
}

int train(int argc, char** argv) {
  std::vector<std::string> valued = training_flags();
  for (const char* flag : {"steps", "optimizer", "lr", "seed", "activation", "warmup", "weight-decay",
                           "trust-coefficient"})
    valued.push_back(flag);
  const Args args("train", argc, argv, 2, valued);

  TrainConfig c;
  c.strategy = strategy_flag(args);
  c.grid = grid_flags(args);
  c.model = model_flags(args);
  if (args.has("activation")) c.model.activation = parse_activation(args.text("activation"));
  c.optimizer.kind = parse_optimizer(args.has("optimizer") ? args.text("optimizer") : "adam");
  c.optimizer.lr = args.number_or("lr", 0.01);
  c.optimizer.warmup_steps = args.whole_or("warmup", 0);
  c.optimizer.weight_decay = args.number_or("weight-decay", c.optimizer.weight_decay);
  c.optimizer.trust_coefficient = args.number_or("trust-coefficient", c.optimizer.trust_coefficient);
  c.options = strategy_flags(args, c.strategy);
  c.batch = args.whole("batch");
  c.steps = args.whole("steps");
  c.seed = args.seed();
  const TrainComparison r = train_compare(c);

  print(strategy_json(c.strategy, c.grid, c.options.micro_batches)
            .add("steps", c.steps)
            .add("losses", r.losses)
            .add("single_losses", r.single_losses)
            .add("diverged_at", r.diverged_at)
            .add("single_diverged_at", r.single_diverged_at)
            .add("last_trust_ratios", r.trust_ratios.empty() ? std::vector<double>{} : r.trust_ratios.back())
            .add("max_loss_relative_difference", r.max_loss_relative_difference)
            .add("max_relative_difference", r.max_relative_difference)
            .add_object("comm_bytes", by_kind_json(r.comm_bytes))
            .add_objects("memory_per_rank_bytes", memory_json(r.memory)));
  return 0;
}

}  // namespace dsml::cli
