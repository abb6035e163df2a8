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
// The 3-D pricer: every t·p·d = N factorisation (Megatron order: t innermost, inside a node; then p; then d),
// keeping t | heads, p | layers, d·b | global batch (m = global batch / (d·b) micro-batches). Per GPU:
//   model states    16Ψ/(tp) (mixed-precision Adam, memory_accountant.h), with ZeRO-1 4Ψ/(tp) + 12Ψ/(tpd)
//   activations     1F1B: the first stage holds min(p, m) micro-batches of L/p layers (Korthikanti's bytes per layer)
//   compute         6Ψ·tokens/(N·flops) (8Ψ with full recomputation); bubble (p − 1)/m of it (1F1B)
//   tensor          4 all-reduces of s·b·h·2 bytes per layer per micro-batch (2 forward, 2 backward; Megatron f/g),
//                   ring over t GPUs — on the node's link if t ≤ GPUs per node, else the network's
//   pipeline        2m messages of s·b·h·2/t bytes per stage (activation out, gradient back), α–β
//   data            one ring all-reduce of the 2Ψ/(tp) bytes of fp16 gradients over d (ZeRO-1's reduce-scatter +
//                   all-gather moves the same bytes); on the node's link if the group fits in a node
//   step = compute + bubble + tensor + pipeline + data (nothing overlapped: an upper bound);
//   fits = memory ≤ the device's memory (80 GB by default)
#pragma once

#include <string>
#include <vector>

#include "dsml/cost_model.h"
#include "dsml/memory_accountant.h"

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

struct TransformerPreset {
  std::string name;
  double parameters = 0;  // Ψ = 12·L·h² + V·h (V = 50257)
  int layers = 0;
  int hidden = 0;
  int heads = 0;
  int sequence = 2048;
};
// "gpt3-6.7b" (L 32, h 4096, a 32; Brown et al. 2020), "opt-30b" (L 48, h 7168, a 56; Zhang et al. 2022),
// "gpt3-175b" (L 96, h 12288, a 96). Throws dsml::Error naming them otherwise.
TransformerPreset transformer_preset(const std::string& name);

struct LayoutConfig {
  TransformerPreset model;
  int nodes = 8;
  int gpus_per_node = 8;
  int global_batch = 512;       // sequences per step
  int micro_batch = 1;          // b, sequences
  double flops_per_gpu = 312e12 * 0.5;  // sustained FLOP/s (A100 bf16 peak × 50%)
  CostModel intra{1e-6, 1.0 / 300e9};   // NVLink-class
  CostModel inter{5e-6, 1.0 / 25e9};    // one 200 Gb/s NIC per GPU
  double memory_bytes = 80e9;
  bool sequence_parallel = true;
  bool full_recomputation = false;
};

struct LayoutRow {
  int t = 1, p = 1, d = 1, micro_batches = 1;
  double model_state_bytes = 0, model_state_zero1_bytes = 0, activation_bytes = 0;
  double memory_bytes = 0, memory_zero1_bytes = 0;  // per GPU, totals
  double compute_s = 0, bubble_s = 0, tensor_s = 0, pipeline_s = 0, data_s = 0, step_s = 0;
  bool fits = false, fits_zero1 = false;
};
// Every admissible factorisation, by t then p. Throws dsml::Error on a bad config.
std::vector<LayoutRow> price_3d_layouts(const LayoutConfig& config);

}  // namespace dsml
