// moe_adapters.h — Week 5's mixture of experts as JavaScript calls it (dsml/moe.h, dsml/expert_parallel.h).
// Same rules as adapters.h: read the request (fields.h), call the core, convert back. Contract: dsml.d.ts.
#pragma once

#include <emscripten/val.h>

namespace dsml::bindings {

using emscripten::val;

// expertParallel({moe: {width, hidden, experts, topK, capacityFactor, activation?}, ranks, batch, seed?}) →
//   {load[], wanted[], dropped, unroutedTokens, capacity, loss, outputRelativeDifference,
//    gradientRelativeDifference, commBytes: {kind: bytes of the busiest rank}, allToAllBytesPerRank}
//   = check_expert_parallel
val expert_parallel(const val& request);

// priceExpertAllToAll({moe: {…}, tokensPerRank, elementBytes?, alpha, beta, topology}) →
//   {capacity, bytesPerRank, closedForm, simulated}                                   = price_expert_all_to_all
val price_expert_all_to_all(const val& request);

}  // namespace dsml::bindings
