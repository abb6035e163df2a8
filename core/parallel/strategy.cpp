// strategy.cpp — the strategies' names, what each needs of the grid, and the one place that builds a trainer
// for a Strategy (see dsml/strategy.h).
#include "dsml/strategy.h"

#include <string>
#include <utility>

#include "dsml/data_parallel.h"
#include "dsml/error.h"
#include "dsml/fsdp_tensor_parallel.h"
#include "dsml/pipeline_parallel.h"
#include "dsml/single_device.h"
#include "dsml/tensor_parallel.h"
#include "dsml/zero.h"

namespace dsml {

namespace {

struct Entry {
  Strategy strategy;
  const char* name;
};

constexpr Entry kStrategies[] = {
    {Strategy::single, "single"}, {Strategy::dp, "dp"},           {Strategy::dp_bucketed, "dp-bucketed"},
    {Strategy::dp_accumulate, "dp-accumulate"},                    {Strategy::zero1, "zero1"},
    {Strategy::zero2, "zero2"},   {Strategy::zero3, "zero3"},     {Strategy::tp, "tp"},
    {Strategy::fsdp_tp, "fsdp-tp"}, {Strategy::pp_gpipe, "pp-gpipe"}, {Strategy::pp_1f1b, "pp-1f1b"},
};

std::string all_names() {
  std::string names;
  for (const Entry& e : kStrategies) names += std::string(names.empty() ? "" : ", ") + e.name;
  return names;
}

// Which axes of the grid a strategy spreads over; the others must be 1.
struct Axes {
  bool dp, tp, pp;
};

Axes axes_of(Strategy s) {
  if (s == Strategy::single) return {false, false, false};
  if (s == Strategy::tp) return {false, true, false};
  if (s == Strategy::fsdp_tp) return {true, true, false};
  if (is_pipeline(s)) return {false, false, true};
  return {true, false, false};  // the dp family and ZeRO
}

}  // namespace

const std::vector<Strategy>& all_strategies() {
  static const std::vector<Strategy> all = [] {
    std::vector<Strategy> out;
    for (const Entry& e : kStrategies) out.push_back(e.strategy);
    return out;
  }();
  return all;
}

const char* strategy_name(Strategy strategy) {
  for (const Entry& e : kStrategies)
    if (e.strategy == strategy) return e.name;
  return "unknown";
}

Strategy parse_strategy(const std::string& name) {
  for (const Entry& e : kStrategies)
    if (name == e.name) return e.strategy;
  throw Error("unknown strategy \"" + name + "\"; choose " + all_names());
}

bool is_pipeline(Strategy s) { return s == Strategy::pp_gpipe || s == Strategy::pp_1f1b; }

bool is_data_parallel(Strategy s) {
  return s == Strategy::dp || s == Strategy::dp_bucketed || s == Strategy::dp_accumulate;
}

int zero_stage(Strategy s) {
  return s == Strategy::zero1 ? 1 : s == Strategy::zero2 ? 2 : s == Strategy::zero3 ? 3 : 0;
}

bool is_bucketed(Strategy s) { return s == Strategy::dp_bucketed || s == Strategy::zero1 || s == Strategy::zero2; }

bool takes_micro_batches(Strategy s) { return is_data_parallel(s) || is_pipeline(s); }

int default_micro_batches(Strategy s) { return s == Strategy::dp_accumulate ? 2 : 1; }

void check_grid(Strategy strategy, const RankGrid& grid) {
  validate(grid);
  const Axes uses = axes_of(strategy);
  if ((uses.dp || grid.dp == 1) && (uses.tp || grid.tp == 1) && (uses.pp || grid.pp == 1)) return;
  std::string ones, used;  // "tp = pp = " and "dp"
  const std::pair<const char*, bool> axes[] = {{"dp", uses.dp}, {"tp", uses.tp}, {"pp", uses.pp}};
  for (const auto& [axis, in_use] : axes) {
    if (!in_use) ones += std::string(axis) + " = ";
    else used += std::string(used.empty() ? "" : " and ") + axis;
  }
  throw Error(std::string(strategy_name(strategy)) + " runs on a grid with " + ones + "1 (it uses " +
              (used.empty() ? std::string("one device") : "only " + used) + "), got dp = " + std::to_string(grid.dp) +
              ", tp = " + std::to_string(grid.tp) + ", pp = " + std::to_string(grid.pp));
}

std::unique_ptr<ParallelTrainer> make_trainer(Strategy strategy, const RankGrid& grid, const MlpConfig& model,
                                              const OptimizerConfig& optimizer, const MlpParams& initial,
                                              const StrategyOptions& options) {
  check_grid(strategy, grid);
  if (options.micro_batches != 1 && !takes_micro_batches(strategy))
    throw Error(std::string(strategy_name(strategy)) + " takes no micro-batches (only the dp family and the "
                "pipelines do); use 1, got " + std::to_string(options.micro_batches));
  if (strategy == Strategy::single) return std::make_unique<SingleDevice>(grid, model, optimizer, initial);
  if (is_data_parallel(strategy)) {
    DataParallelOptions o;
    o.sync = strategy == Strategy::dp_bucketed ? GradientSync::bucketed : GradientSync::naive;
    o.bucket_bytes = options.bucket_bytes;
    o.micro_batches = options.micro_batches;
    o.algorithm = options.algorithm;
    return std::make_unique<DataParallel>(grid, model, optimizer, initial, o);
  }
  if (zero_stage(strategy) > 0) {
    ZeroOptions o;
    o.stage = zero_stage(strategy);
    o.bucket_bytes = options.bucket_bytes;
    o.algorithm = options.algorithm;
    return std::make_unique<Zero>(grid, model, optimizer, initial, o);
  }
  if (strategy == Strategy::tp)
    return std::make_unique<TensorParallelTrainer>(grid, model, optimizer, initial,
                                                   TensorParallelOptions{options.algorithm});
  if (strategy == Strategy::fsdp_tp)
    return std::make_unique<FsdpTensorParallelTrainer>(grid, model, optimizer, initial,
                                                       TensorParallelOptions{options.algorithm});
  PipelineOptions o;
  o.schedule = strategy == Strategy::pp_gpipe ? "gpipe" : "1f1b";
  o.micro_batches = options.micro_batches;
  return std::make_unique<PipelineParallelTrainer>(grid, model, optimizer, initial, o);
}

}  // namespace dsml
