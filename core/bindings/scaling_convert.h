// scaling_convert.h — JS ⇄ core conversions for data-parallel scaling (Embind layer only): dpScaling's request in,
// its points out. The field readers are fields.h's; the formulas are dsml/dp_scaling.h's.
#pragma once

#include <emscripten/val.h>

#include <vector>

#include "dsml/dp_scaling.h"

namespace dsml::bindings {

using emscripten::val;

// {mode, model, batch, ranks: number[], strategy?, microBatches?, flops, elementBytes?, overlap?, bucketBytes?,
//  algorithm?}; the link ({alpha, beta, gamma?}) is read by to_cost_model.
ScalingConfig to_scaling_config(const val& request);
// [{ranks, globalBatch, step, compute, comm, speedup, ideal, efficiency}]
val to_val(const std::vector<ScalingPoint>& points);

}  // namespace dsml::bindings
