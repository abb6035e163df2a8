// planner_convert.h — the planner's values (dsml/planner.h) to and from JavaScript objects with dsml.d.ts's field
// names (types/planner.d.ts): what the planner's endpoints read and write, and what another domain's endpoint that
// returns plans (Week 5's layouts) writes with.
#pragma once

#include <emscripten/val.h>

#include <string>
#include <vector>

#include "dsml/planner.h"

namespace dsml::bindings {

using emscripten::val;

PlannerModel model_from(const val& o, const std::string& ctx);
val model_to(const PlannerModel& m);
// A GPU with its datasheet, kernels ({matmulFlops, …, attention: [{kernel, headDim, sequences, flops}]}) and
// matmulInStep: what plannerPresets() lists, so a preset reads back as itself.
GpuSpec gpu_from(const val& o, const std::string& ctx);
val gpu_to(const GpuSpec& g);
ClusterSpec cluster_from(const val& o, const std::string& ctx);
// d may be left out (the core derives it); attention, precision and stageLayers are optional.
PlannerLayout layout_from(const val& o, const std::string& ctx);
// A plan and its memory as their field tables write them (dsml/plan_fields.h).
val memory_to(const PlanMemory& m);
val plan_to(const StepPlan& p);
// A whole-number field (required, or `fallback` when absent) of at least `minimum`.
int whole(const val& o, const char* name, const std::string& ctx, int minimum = 1);
int whole_or(const val& o, const char* name, int fallback, const std::string& ctx, int minimum = 1);
// An optional array of whole numbers, `fallback` when absent.
std::vector<int> wholes_or(const val& o, const char* name, const std::vector<int>& fallback, const std::string& ctx);
Recomputation recomputation_from(const std::string& name, const std::string& ctx);

}  // namespace dsml::bindings
