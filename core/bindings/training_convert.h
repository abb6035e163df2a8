// training_convert.h — JS ⇄ core conversions for training (Embind layer only): model, optimizer, grid and
// strategy requests in; losses (copied Float64Arrays), memory per rank, step-cost spans out. The field readers
// are fields.h's; nothing here decides anything about training.
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "dsml/cost_model.h"
#include "dsml/memory_accountant.h"
#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/rank_grid.h"
#include "dsml/step_cost.h"
#include "dsml/strategy.h"
#include "dsml/train_compare.h"
#include "fields.h"  // to_cost_model and the other field readers

namespace dsml::bindings {

using emscripten::val;

// {layers, width, hidden, activation?: "relu"|"gelu"|"tanh" (gelu), residual?: bool (true)}
MlpConfig to_mlp_config(const val& model, const std::string& context);
// {kind: "sgd"|"momentum"|"adam"|"lars"|"lamb", lr, warmupSteps?, momentum?, beta1?, beta2?, epsilon?, weightDecay?}
OptimizerConfig to_optimizer_config(const val& optimizer, const std::string& context);
// {dp?, tp?, pp?}, each a whole number >= 1, 1 when absent; at most 4096 ranks.
RankGrid to_grid(const val& grid, const std::string& context);
// request.strategy, one of strategy_name's names.
Strategy to_strategy(const val& request, const std::string& context);

// What a browser tab trains in a moment — the limit of every function that allocates the model (trainCompare,
// trainSingle, mlpInit, teacherBatch): layers·width·hidden ≤ 1e8, batch·width ≤ 1e7, steps ≤ 10000.
// stepCost allocates nothing per parameter and has no such limit.
// limits::check_run_size, its message after `context`.
void check_run_size(const MlpConfig& model, int batch, int steps, const std::string& context);

// {model, optimizer, batch, steps, seed?}: what every run on one model reads (trainSingle, pipelineTrain, the MoE
// runs), batch and steps within dsml/run_limits.h's kRows and kSteps, then checked by check_run_size.
struct TrainingRequest {
  MlpConfig model;
  OptimizerConfig optimizer;
  int batch = 0;
  int steps = 0;
  std::uint64_t seed = 0;
};
TrainingRequest to_training_request(const val& request, const std::string& context);

// The pricing fields stepCost and dpScaling share, into a StepCostConfig or a ScalingConfig (which name them alike):
// {microBatches? (1), flops, elementBytes?, bucketBytes?, overlap?, algorithm?}.
template <typename PricedConfig>
void read_pricing_fields(const val& r, const std::string& context, PricedConfig& c) {
  c.micro_batches = static_cast<int>(whole_field_or(r, "microBatches", 1, context, 1, 1 << 30));
  c.flops_per_s = number_field(r, "flops", context);
  c.element_bytes = number_field_or(r, "elementBytes", c.element_bytes, context);
  c.bucket_bytes = number_field_or(r, "bucketBytes", c.bucket_bytes, context);
  c.overlap = flag_field_or(r, "overlap", c.overlap, context);
  if (!r["algorithm"].isUndefined()) c.algorithm = text_field(r, "algorithm", context);
}

// trainCompare's request (training_adapters.h) → TrainConfig, checked by check_run_size.
TrainConfig to_train_config(const val& request);
// stepCost's request → the config (its closed-form network {alpha, beta, gamma?} by fields.h's to_cost_model).
StepCostConfig to_step_cost_config(const val& request);

// A new JS Float64Array holding a copy of `values` (no view into wasm memory survives the call).
val to_float64_array(const std::vector<double>& values);
// {kind: number, …}
val to_object(const std::map<std::string, double>& by_kind);
// [{params, grads, optimizer, activations, total}] in bytes.
val to_val(const std::vector<MemoryBreakdown>& memory);
// {losses, singleLosses, maxLossRelativeDifference, maxRelativeDifference, commBytes, memoryPerRank}
val to_val(const TrainComparison& comparison);
// {total, compute, bubble, comm: {kind: s}, spans: [{rank, kind, start, end, stream, label?}], memoryPerRank}
val to_val(const StepCost& cost);

}  // namespace dsml::bindings
