// training_adapters.h — the training lab's functions JavaScript calls: train a model with a real parallel
// strategy beside the single-device reference, and price one step of a strategy in closed form. Same rules as
// adapters.h: convert (training_convert.h), call the core, convert back.
#pragma once

#include <emscripten/val.h>

namespace dsml::bindings {

using emscripten::val;

// trainCompare({strategy, grid: {dp, tp, pp}, microBatches?, bucketBytes?, model: {layers, width, hidden,
//   activation?, residual?}, optimizer: {kind, lr, warmupSteps?, …}, batch, steps, seed})
// → {losses: Float64Array, singleLosses: Float64Array, maxRelativeDifference, commBytes: {kind: bytes},
//    memoryPerRank: [{params, grads, optimizer, activations, total}]}
//
// Deterministic, as the C++ strategy tests do it: the teacher is TeacherTask(model, seed) (weights
// init_mlp(model, seed)), the student starts from init_mlp(model, seed + 1), and step s trains on
// make_batch(s, batch) — the same batch for the parallel run and the single-device reference_step run.
// strategy: "dp" (DataParallel, one all-reduce per tensor), "dp-bucketed" (one per bucket of bucketBytes,
// default 25 MiB), "dp-accumulate" (microBatches, default 2, micro-batches per rank before the all-reduce),
// "zero1" | "zero2" | "zero3" (Zero), "tp" (TensorParallelTrainer), "pp-gpipe" | "pp-1f1b"
// (PipelineParallelTrainer, microBatches default 1), "fsdp-tp" (FsdpTensorParallelTrainer). Ring collectives.
// commBytes: bytes (8-byte doubles) the busiest rank sends in the LAST step, by kind. Collectives: the sum of
// each record's busiest-rank bytes over the records the rank takes part in (groups that run side by side, as
// fsdp-tp's per-column all-gathers, are counted once). Pipelines: the stage that sends the most.
// memoryPerRank (bytes, fp64): params, grads and optimizer state a rank holds between steps; activations it
// keeps for backward (TP, PP, FSDP+TP: as their step reports; DP and ZeRO: mlp_stack_activation_bytes of the
// rank's rows per micro-batch).
val train_compare(const val& request);

// stepCost({strategy, grid, microBatches?, model: {layers, width, hidden}, batch, flops, alpha, beta, gamma?,
//   recompute?, elementBytes? (4), optimizerStates? (2), bucketBytes?})
// → {total, compute, bubble, comm: {kind: seconds}, spans: [{rank, kind, start, end, label?}], memoryPerRank}
// step_cost.h on the closed-form switch CostModel{alpha, beta, gamma}.
val training_step_cost(const val& request);

}  // namespace dsml::bindings
