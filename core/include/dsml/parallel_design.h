// dsml/parallel_design.h — choosing a model-parallel layout on paper: how many micro-batches, whether to recompute
// activations, and which (t, p, d) factorisation of the GPUs a transformer trains on.
//
// Micro-batches with a per-micro-batch overhead o (kernel launches, p2p latency, optimizer bookkeeping) per stage.
// A stage computes t seconds per step in total (forward + backward over the whole mini-batch); cut into m
// micro-batches each takes t/m + o, and a flushed pipeline of P stages runs m + P − 1 such slots:
//   T(m) = (m + P − 1)(t/m + o) = t + (P − 1)t/m + (m + P − 1)o
//   dT/dm = −(P − 1)t/m² + o = 0   →   m* = √((P − 1)t/o)
// More micro-batches shrink the bubble (P − 1)t/m but pay o each; the best whole m is ⌊m*⌋ or ⌈m*⌉ (T is convex).
//
// Full activation recomputation (Chen et al. 2016; Korthikanti et al. 2022 §5): keep only each layer's input
// (2sbh bytes, /t with sequence parallelism) and rerun its forward during backward: one extra forward on top of
// forward + backward (≈ 2× forward), so ≈ 4/3 of the compute — 8Ψ instead of 6Ψ FLOPs per token.
//
// The 3-D layouts: every t·p·d = N factorisation of a cluster's GPUs for a transformer, each priced by the planner's
// plan_step (dsml/planner.h: one model of a step for the whole course) twice — optimizer state replicated (ZeRO 0)
// and sharded over d (ZeRO-1). layout_3d.cpp only enumerates; the rules a layout must meet (t | heads, t ≤ GPUs per node,
// p | layers, d·b | global batch) are plan_step's own (layout_error), so a layout the planner refuses is not listed.
// The placement is Megatron's (t innermost in a node, then d, then p). What each axis adds to a step:
//   t  the tensor term: Megatron's f/g collectives on NVLink, every layer of every micro-batch
//   p  the bubble, (p − 1) micro-batch slots of a stage (1F1B), and the pipeline term: activations and gradients
//      between stages
//   d  the data term: one reduction of the stage's gradients per step (ZeRO-1: reduce-scatter + all-gather, the same
//      ring bytes); ZeRO-1 cuts the model states from 16Ψ_stage/t to 4Ψ_stage/t + 12Ψ_stage/(t·d) bytes per GPU
// Week 5 fixes v = 1 (no interleaving), c = e = 1 and nothing overlapped.
#pragma once

#include <vector>

#include "dsml/memory_accountant.h"
#include "dsml/planner.h"

namespace dsml {

// T(m) above. P ≥ 1, m ≥ 1, t > 0, o ≥ 0.
double pipeline_step_with_overhead(int stages, double compute_s, double overhead_s, int micro_batches);

struct MicroBatchChoice {
  double closed_form = 0;  // m* = √((P − 1)t/o) (infinite when o = 0 — more is always better)
  int best = 1;            // the whole m in [1, max] with the smallest T(m), searched
  double best_step_s = 0;  // T(best)
  std::vector<double> step_s;  // T(m) for m = 1 … max, the curve the search ran over (step_s[m − 1])
};
// Throws dsml::Error on P < 1, t ≤ 0, o < 0 or max_micro_batches < 1.
MicroBatchChoice optimal_micro_batches(int stages, double compute_s, double overhead_s, int max_micro_batches);

struct RecomputationTradeoff {
  double kept_bytes = 0;        // per layer per micro-batch without recomputation
  double recomputed_bytes = 0;  // the same with full recomputation (the layer input only)
  double saved_fraction = 0;    // 1 − recomputed/kept
  double compute_factor = 0;    // (forward + backward + forward)/(forward + backward) = 4/3 with backward = 2·forward
};
// transformer_layer_activation_bytes's arguments (memory_accountant.h).
RecomputationTradeoff full_recomputation_tradeoff(double sequence, double micro_batch, double hidden, double heads,
                                                  int tensor_parallel = 1, bool sequence_parallel = false);

struct LayoutConfig {
  PlannerModel model;     // planner_model_preset(name)
  ClusterSpec cluster;    // its GPU (gpu_preset), nodes × GPUs per node
  int global_batch = 512;  // sequences per step
  int micro_batch = 1;     // b, sequences
  bool sequence_parallel = true;
  Recomputation recomputation = Recomputation::kNone;
  AttentionKernel attention = AttentionKernel::kFlash2;
};

struct LayoutRow {
  int t = 1, p = 1, d = 1;
  StepPlan replicated;  // plan_step of (t, p, d) with ZeRO 0
  StepPlan zero1;       // the same layout with ZeRO-1
};
// Every factorisation plan_step accepts, by t then p. Throws dsml::Error on a bad model or cluster, and (through
// plan_step) on a bad GPU when some layout is admissible.
std::vector<LayoutRow> price_3d_layouts(const LayoutConfig& config);

}  // namespace dsml
