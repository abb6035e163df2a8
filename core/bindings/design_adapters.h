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

// price3dLayouts({model: "gpt3-6.7b"|"opt-30b"|"gpt3-175b", nodes, gpusPerNode, globalBatch?, microBatch?,
//   flopsPerGpu?, intra?: {alpha, beta}, inter?: {alpha, beta}, memoryBytes?, sequenceParallel?,
//   fullRecomputation?}) → {parameters, rows: [{t, p, d, microBatches, modelStateBytes, modelStateZero1Bytes,
//   activationBytes, memoryBytes, memoryZero1Bytes, compute, bubble, tensor, pipeline, data, step, fits,
//   fitsZero1}]}                                                                    = price_3d_layouts
val price_3d_layouts(const val& request);

}  // namespace dsml::bindings
