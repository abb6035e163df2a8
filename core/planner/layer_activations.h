// layer_activations.h (internal to core/planner) — the bytes one layer keeps for its backward, per GPU, derived
// from the architecture rather than one model's count (layer_activations.cpp).
#pragma once

#include "dsml/planner.h"
#include "transformer_shapes.h"

namespace dsml::planner_detail {

// What the attention core keeps beyond Q, K, V and its output: fused, the softmax statistics (4 bytes a query and
// head); unfused, the softmax output (2 bytes a score) and, with dropout, its mask and output (+3).
double attention_kept_bytes(const PlannerModel& model, AttentionKernel kernel, double micro_batch, int t, int c);

// One layer's activations kept for backward for one micro-batch, per GPU.
struct LayerActivationOptions {
  bool sequence_parallel = false;
  Recomputation recomputation = Recomputation::kNone;
  AttentionKernel attention = AttentionKernel::kFlash2;
  Precision precision = Precision::kBf16;
};
double layer_activation_bytes(const PlannerModel& model, const LayerPlace& place, const LayerActivationOptions& o);

}  // namespace dsml::planner_detail
