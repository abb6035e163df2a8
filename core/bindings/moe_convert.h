// moe_convert.h — JS ⇄ core conversions for the MoE stack (Embind layer only): the request trainSingleMoe,
// moeMlpInit and trainMoeBalanced share in, a run's per-block load out. Field readers are fields.h's.
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dsml/moe_mlp.h"
#include "dsml/optimizer.h"
#include "training_convert.h"

namespace dsml::bindings {

using emscripten::val;

// {model, moe: {experts, topK, capacityFactor, every?, balance?}, groups?}: the MLP with MoE blocks (every every-th
// block, default 2), checked by validate(MoeMlpConfig). moe.balance (Switch's α) is read, and required, only when
// `with_balance`; otherwise it is 0 (no load-balancing loss).
MoeMlpConfig to_moe_mlp_config(const val& request, const std::string& context, bool with_balance);

// A training request on the MoE stack: the config above and the run's {optimizer, batch, steps, seed?}
// (run.model is config.mlp).
struct MoeTrainingRequest {
  MoeMlpConfig config;
  TrainingRequest run;
};
// Read and checked against what a tab trains in a moment (check_run_size, and E·L·D·F ≤ 1e8).
MoeTrainingRequest to_moe_training(const val& request, const std::string& context, bool with_balance);
// train_moe_mlp on it; a core error is rethrown with `context` in front.
MoeMlpRun train_moe(const MoeTrainingRequest& request, const std::string& context);

// [{block, wanted: [per expert], kept: [per expert], dropped}], one entry per MoE block.
val to_val(const std::vector<MoeBlockLoad>& load);

}  // namespace dsml::bindings
