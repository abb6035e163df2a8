// scaling_adapters.h — the Week 3 scaling functions JavaScript calls (dsml/dp_scaling.h). Same rules as
// adapters.h: convert (scaling_convert.h, training_convert.h), call the core, convert back. Contract: dsml.d.ts.
#pragma once

#include <emscripten/val.h>

namespace dsml::bindings {

using emscripten::val;

// dpScaling({mode: "strong"|"weak", model, batch, ranks, strategy?, microBatches?, flops, alpha, beta, gamma?,
//   elementBytes?, overlap?, bucketBytes?}) → [{ranks, globalBatch, step, compute, comm, speedup, ideal,
//   efficiency}]                                                                       = dsml::dp_scaling
val dp_scaling(const val& request);

// commBoundBatch({flops, bandwidth, elementBytes?, ranks, overlap?, microBatches?}) → rows per device
//                                                                                  = dsml::dp_comm_bound_batch
double comm_bound_batch(const val& request);

// ddpVariants(stepCost's request) → {naive, flat, bucketed}: three stepCost results       = dsml::ddp_variants
val ddp_variants(const val& request);

}  // namespace dsml::bindings
