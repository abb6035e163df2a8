// planner_adapters.h — the transformer step planner for JavaScript (dsml/planner.h). Same rules as adapters.h:
// read the fields, call one core function, write the fields. Their contract for JavaScript is dsml.d.ts
// ("planner").
#pragma once

#include <emscripten/val.h>

namespace dsml::bindings {

using emscripten::val;

// plannerPresets() → {models: [PlannerModel], gpus: [GpuSpec], table1: [PublishedRun]}      = planner_presets
val planner_presets();
// planStep({model, cluster: {gpu, nodes, gpusPerNode?}, layout}) → StepPlan                  = plan_step
val plan_step(const val& request);
// searchLayouts({model, cluster, globalBatch, microBatches?, zeroStages?, sequenceParallel?, recomputation?,
//   overlapDp?, maxInterleave?, keep?}) → [StepPlan]                                          = search_layouts
val search_layouts(const val& request);
// searchRefusal(same request) → "" when a layout fits, else why none does                    = search_refusal
val search_refusal(const val& request);
// attentionCost({model, gpu, kernel, microBatch?, t?, c?}) → {forwardSeconds, backwardSeconds, forwardFlops,
//   backwardFlops, countedFlops, hbmBytes, activationBytes}                                    = attention_cost
val attention_cost(const val& request);
// plannerValidation() → {constants: [...], tables: [{id, …, rows: [...]}]}                     = planner_validation
val planner_validation();

}  // namespace dsml::bindings
