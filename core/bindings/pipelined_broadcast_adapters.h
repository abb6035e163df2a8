// pipelined_broadcast_adapters.h — Week 2's pipelined broadcasts for JavaScript (dsml/pipelined_broadcast.h,
// dsml/collective_cost.h). Same rules as adapters.h: plain values in, plain values out.
#pragma once

#include <emscripten/val.h>

#include <string>

namespace dsml::bindings {

using emscripten::val;

// pipelinedBroadcast({algorithm: "pipelined-chain" | "pipelined-tree", ranks, bytes, segments?, root?, alpha,
//   beta}) → {segments, perSegment, startup, closedForm: {latency, bandwidth, total}, simulated, messages,
//   verified, verifyMessage, best: {segments, optimum, seconds}}               = run_pipelined_broadcast
val pipelined_broadcast(const val& request);

// bestSegments(algorithm, {ranks, bytes, alpha, beta}) → {segments, optimum, seconds}   = best_segments
val best_segments(const std::string& algorithm, const val& options);

}  // namespace dsml::bindings
