// training_adapters.h — the training functions JavaScript calls: a strategy trained beside the single device
// (dsml/train_compare.h), and the price of one step (dsml/step_cost.h). Same rules as adapters.h: convert
// (training_convert.h), call the core, convert back. Their contract for JavaScript is core/bindings/dsml.d.ts.
#pragma once

#include <emscripten/val.h>

namespace dsml::bindings {

using emscripten::val;

// trainCompare({strategy, grid: {dp, tp, pp}, microBatches?, bucketBytes?, model: {layers, width, hidden,
//   activation?, residual?}, optimizer: {kind, lr, …}, batch, steps, seed})
// → {losses: Float64Array, singleLosses: Float64Array, maxLossRelativeDifference, maxRelativeDifference,
//    commBytes: {kind: bytes},
//    memoryPerRank: [{params, grads, optimizer, activations, total}]}           = dsml::train_compare
val train_compare(const val& request);

// stepCost({strategy, grid, microBatches?, model: {layers, width, hidden}, batch, flops, alpha, beta, gamma?,
//   recompute?, overlap?, elementBytes? (4), optimizerStates? (2), bucketBytes?, algorithm?})
// → {total, compute, bubble, comm: {kind: seconds}, spans: [{rank, kind, start, end, stream, label?}],
//    memoryPerRank}                                     = dsml::step_cost on the closed-form switch {alpha, beta, gamma}
val training_step_cost(const val& request);

}  // namespace dsml::bindings
