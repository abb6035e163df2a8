// design_adapters.h — Week 5's design helpers as JavaScript calls them (dsml/parallel_design.h). Same rules as
// adapters.h: read the request (fields.h), call the core, convert back. Contract: dsml.d.ts.
#pragma once

#include <emscripten/val.h>

namespace dsml::bindings {

using emscripten::val;

// optimalMicroBatches({stages, compute, overhead, max}) → {closedForm, best, bestStep, steps: T(1 … max)}
//                                                                                  = optimal_micro_batches
val optimal_micro_batches(const val& request);

// recomputationTradeoff({sequence, microBatch, hidden, heads, tensorParallel?, sequenceParallel?}) →
//   {keptBytes, recomputedBytes, savedFraction, computeFactor}                    = full_recomputation_tradeoff
val recomputation_tradeoff(const val& request);

// price3dLayouts({model: a planner model preset, gpu?: a GPU preset ("a100-80gb"), nodes, gpusPerNode, globalBatch?,
//   microBatch?, sequenceParallel?, recomputation?: "none"|"selective"|"full"}) → {model, gpu, parameters, capacity,
//   rows: [{t, p, d, microBatches, replicated, zero1}]}, replicated and zero1 each {time, memory, fits} of plan_step's
//   StepPlan (ZeRO 0 and ZeRO-1)                                                        = price_3d_layouts
val price_3d_layouts(const val& request);

}  // namespace dsml::bindings
