// training_convert.h — JS ⇄ core conversions for the training lab (Embind layer only): model, optimizer and
// grid requests in; losses (copied Float64Arrays), memory per rank, step-cost spans out.
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "dsml/data_parallel.h"
#include "dsml/memory_accountant.h"
#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/rank_grid.h"
#include "dsml/step_cost.h"

namespace dsml::bindings {

using emscripten::val;

// A whole number in [minimum, 2^53] at obj[name] (or `fallback` when absent); throws dsml::Error otherwise.
std::int64_t whole_number_field(const val& obj, const char* name, std::int64_t fallback, std::int64_t minimum,
                                const std::string& context);
// A string at obj[name]; throws dsml::Error("<context>: <name> must be a string") otherwise.
std::string text_field(const val& obj, const char* name, const std::string& context);
// obj[name] must be a non-null object; returns it.
val object_field(const val& obj, const char* name, const std::string& context);

// {layers, width, hidden, activation?: "relu"|"gelu"|"tanh" (gelu), residual?: bool (true)}
MlpConfig to_mlp_config(const val& model, const std::string& context);
// {kind: "sgd"|"momentum"|"adam"|"lars"|"lamb", lr, warmupSteps?, momentum?, beta1?, beta2?, weightDecay?}
OptimizerConfig to_optimizer_config(const val& optimizer, const std::string& context);
// {dp?, tp?, pp?}, each a whole number >= 1, 1 when absent.
RankGrid to_grid(const val& grid, const std::string& context);

// A new JS Float64Array holding a copy of `values` (no view into wasm memory survives the call).
val to_float64_array(const std::vector<double>& values);
// {kind: number, …}
val to_object(const std::map<std::string, double>& by_kind);
// [{params, grads, optimizer, activations, total}] in bytes.
val to_val(const std::vector<MemoryBreakdown>& memory);
// [{rank, kind, start, end, label?}] in seconds; label only when non-empty.
val to_val(const std::vector<StepSpan>& spans);

}  // namespace dsml::bindings
