// dsml/dp_scaling.h — how data parallelism scales: strong vs weak scaling from the step cost model, the per-device
// batch below which DP is communication-bound, and the three DDPs (naive, flat, bucketed with overlap) side by side.
//
// Speed-up is throughput (rows per second) relative to one device:  S(P) = (B_P / T_P) / (B_1 / T_1).
//   strong scaling  the global batch B is fixed, each of P devices gets B/P rows:  S = T_1 / T_P
//   weak scaling    each device keeps b rows, the global batch grows to P·b:        S = P·T_1 / T_P
// Ideal is S = P. Strong scaling runs into the communication wall — compute per device shrinks as 1/P while the
// all-reduce of the Ψ gradients does not shrink at all (2(P−1)/P·Ψ per rank on a ring); weak scaling keeps the
// compute per device and pays only the (nearly constant) all-reduce (Gustafson's view; week 1).
//
// The comm-bound threshold (as the JAX scaling book, "How to Parallelize a Transformer for Training", derives it
// for pure data parallelism): per row, forward is 2Ψ FLOPs and backward 4Ψ; the ring all-reduce of Ψ values of e
// bytes takes ≈ 2(P−1)/P·Ψ·e/W at bandwidth W (α ignored). With a device speed of C FLOP/s and b rows per device:
//   overlap     the all-reduce hides behind backward (4·b·Ψ/C) unless     b < b* = (P−1)/P · e/2 · C/W
//   no overlap  nothing hides it; it exceeds the compute (6·k·b·Ψ/C) when b < b* = (P−1)/P · e/3 · C/(k·W)
// Ψ cancels: the threshold is the device's FLOP/s ÷ bandwidth, a property of the hardware, not of the model. For
// bf16 (e = 2) and large P the overlapped form is the book's b* = C/W. Gradient accumulation over k micro-batches
// syncs once per k: without overlap it divides b* by k; with overlap the all-reduce still hides only behind the
// last micro-batch's backward, so b* (per micro-batch) stays, but the exposed part is paid once per k micro-batches.
#pragma once

#include <string>
#include <vector>

#include "dsml/cost_model.h"
#include "dsml/mlp.h"
#include "dsml/step_cost.h"
#include "dsml/strategy.h"

namespace dsml {

enum class ScalingMode { strong, weak };
ScalingMode parse_scaling_mode(const std::string& name);  // "strong", "weak"; Error otherwise

struct ScalingConfig {
  ScalingMode mode = ScalingMode::strong;
  MlpConfig model;
  int batch = 1024;              // strong: global batch B; weak: rows per device b. Whole, >= 1.
  std::vector<int> ranks = {1, 2, 4, 8};  // P values, each >= 1 (strong: B divisible by P·micro_batches)
  Strategy strategy = Strategy::dp_bucketed;  // the dp family or zero1/zero2
  int micro_batches = 1;         // gradient accumulation k
  double flops_per_s = 1e12;     // C, one device
  double element_bytes = 4;
  bool overlap = true;
  double bucket_bytes = 25.0 * 1024 * 1024;
  std::string algorithm = "ring";
};

struct ScalingPoint {
  int ranks = 1;
  int global_batch = 1;     // rows per step over all devices
  double step_s = 0;        // StepCost::total_s
  double compute_s = 0;     // per device
  double comm_s = 0;        // Σ collectives, hidden or not
  double speedup = 1;       // rows/s relative to P = 1 (see above)
  double ideal = 1;         // P
  double efficiency = 1;    // speedup / ideal
};

// One point per entry of config.ranks, priced by step_cost on the closed-form switch `link`. Throws Error on a
// strategy outside the dp family / zero1 / zero2, an empty rank list, or a batch the strategy cannot split.
std::vector<ScalingPoint> dp_scaling(const ScalingConfig& config, const CostModel& link);

// The per-device batch b* (rows) below which DP is communication-bound (above). bandwidth in bytes/s, ranks >= 2.
double dp_comm_bound_batch(double flops_per_s, double bandwidth_bytes_per_s, double element_bytes, int ranks,
                           bool overlap, int micro_batches = 1);

// The three DDPs of one step, priced alike (StepCostConfig's strategy, bucket_bytes and overlap are overridden):
//   naive     dp, overlap off: one all-reduce per tensor after backward (Li et al. 2020's "naive" DDP)
//   flat      dp-bucketed with one bucket of every gradient, overlap off: one all-reduce after backward
//   bucketed  dp-bucketed with `bucket_bytes` buckets and overlap on: each bucket's all-reduce launched during
//             backward as soon as it fills (PyTorch DDP's reducer)
struct DdpVariants {
  StepCost naive, flat, bucketed;
};
DdpVariants ddp_variants(const StepCostConfig& config, const CostModel& link);

}  // namespace dsml
