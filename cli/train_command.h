// train_command.h — the training subcommands and the flags they share.
//   dsml train-step  the cost of one training step (train_step_command.cpp, dsml/step_cost.h)
//   dsml train       a strategy trained beside the single device (train_command.cpp, dsml/train_compare.h)
//   dsml scaling     strong or weak scaling of data parallelism (scaling_command.cpp, dsml/dp_scaling.h)
#pragma once

#include <map>
#include <string>
#include <vector>

#include "args.h"
#include "dsml/memory_accountant.h"
#include "dsml/mlp.h"
#include "dsml/rank_grid.h"
#include "dsml/strategy.h"
#include "json_output.h"

namespace dsml::cli {

int train_step(int argc, char** argv);
int train(int argc, char** argv);
int scaling(int argc, char** argv);  // dsml scaling (scaling_command.cpp, dsml/dp_scaling.h)

// The flags both read: --layers --width --hidden --batch --strategy --dp --tp --pp --micro-batches
// --bucket-bytes --algorithm.
std::vector<std::string> training_flags();
MlpConfig model_flags(const Args& args);            // --layers, --width, --hidden (required)
RankGrid grid_flags(const Args& args);              // --dp, --tp, --pp (default 1)
Strategy strategy_flag(const Args& args);           // --strategy NAME (a UsageError listing the names otherwise)
StrategyOptions strategy_flags(const Args& args, Strategy strategy);  // --micro-batches, --bucket-bytes, --algorithm

// {"dp", "tp", "pp", "micro_batches"} and [{"params", "grads", "optimizer", "activations", "total"}, …]
JsonObject grid_json(const RankGrid& grid, int micro_batches);
std::vector<JsonObject> memory_json(const std::vector<MemoryBreakdown>& memory);
// The head of a training command's line: {"strategy": NAME, "grid": grid_json(…)}, for the caller to continue.
JsonObject strategy_json(Strategy strategy, const RankGrid& grid, int micro_batches);
// {kind: value, …} of a by-kind map (bytes or seconds per collective kind).
JsonObject by_kind_json(const std::map<std::string, double>& by_kind);

}  // namespace dsml::cli
