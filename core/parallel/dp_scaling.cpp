// dp_scaling.cpp — strong and weak scaling of data parallelism, its comm-bound threshold, and the three DDPs
// (see dsml/dp_scaling.h for the formulas and where they come from).
#include "dsml/dp_scaling.h"

#include <limits>
#include <string>

#include "dsml/error.h"

namespace dsml {

ScalingMode parse_scaling_mode(const std::string& name) {
  if (name == "strong") return ScalingMode::strong;
  if (name == "weak") return ScalingMode::weak;
  throw Error("scaling mode must be strong (fixed global batch) or weak (fixed batch per device), got \"" + name +
              "\"");
}

std::vector<ScalingPoint> dp_scaling(const ScalingConfig& config, const CostModel& link) {
  if (!is_data_parallel(config.strategy) && config.strategy != Strategy::zero1 && config.strategy != Strategy::zero2)
    throw Error(std::string("scaling prices data parallelism: use dp, dp-bucketed, dp-accumulate, zero1 or zero2, "
                            "got ") + strategy_name(config.strategy));
  if (config.ranks.empty()) throw Error("scaling needs at least one device count P");
  if (config.batch < 1) throw Error("batch must be a whole number >= 1, got " + std::to_string(config.batch));
  // The reference: one device, the same rows per step as P = 1 of this mode, the same accumulation.
  const auto price = [&](int P) {
    StepCostConfig c;
    c.model = config.model;
    c.grid = RankGrid{P, 1, 1};
    c.batch = config.mode == ScalingMode::strong ? config.batch : config.batch * P;
    c.strategy = P == 1 ? Strategy::single : config.strategy;
    c.micro_batches = P == 1 ? 1 : config.micro_batches;
    c.flops_per_s = config.flops_per_s;
    c.element_bytes = config.element_bytes;
    c.overlap = config.overlap;
    c.bucket_bytes = config.bucket_bytes;
    c.algorithm = config.algorithm;
    if (P == 1 && config.micro_batches > 1 && c.batch % config.micro_batches != 0)
      throw Error("batch " + std::to_string(c.batch) + " is not divisible by micro_batches = " +
                  std::to_string(config.micro_batches));
    return std::pair{c.batch, step_cost(c, link)};
  };
  const auto [b1, one] = price(1);
  std::vector<ScalingPoint> out;
  for (int P : config.ranks) {
    if (P < 1) throw Error("every device count P must be >= 1, got " + std::to_string(P));
    const auto [rows, cost] = price(P);
    ScalingPoint p;
    p.ranks = P;
    p.global_batch = rows;
    p.step_s = cost.total_s;
    p.compute_s = cost.compute_s;
    for (const auto& [kind, seconds] : cost.comm_s) p.comm_s += seconds;
    p.speedup = (rows / cost.total_s) / (b1 / one.total_s);
    p.ideal = P;
    p.efficiency = p.speedup / P;
    out.push_back(p);
  }
  return out;
}

double dp_comm_bound_batch(double flops_per_s, double bandwidth_bytes_per_s, double element_bytes, int ranks,
                           bool overlap, int micro_batches) {
  require_positive("FLOP/s", flops_per_s);
  require_positive("bandwidth", bandwidth_bytes_per_s);
  require_positive("element bytes", element_bytes);
  if (ranks < 2) throw Error("the comm-bound threshold needs P >= 2 devices (one device communicates nothing), got " +
                             std::to_string(ranks));
  if (micro_batches < 1) throw Error("micro_batches must be >= 1, got " + std::to_string(micro_batches));
  const double ring = 2.0 * (ranks - 1) / ranks;        // all-reduce bytes per rank per byte of gradient
  const double per_row = overlap ? 4.0 : 6.0 * micro_batches;  // FLOPs per row per parameter that can hide it
  return ring * element_bytes * flops_per_s / (per_row * bandwidth_bytes_per_s);
}

DdpVariants ddp_variants(const StepCostConfig& config, const CostModel& link) {
  StepCostConfig naive = config, flat = config, bucketed = config;
  naive.strategy = Strategy::dp;
  naive.overlap = false;
  flat.strategy = Strategy::dp_bucketed;
  flat.overlap = false;
  flat.bucket_bytes = std::numeric_limits<double>::max();  // one bucket holds every gradient
  bucketed.strategy = Strategy::dp_bucketed;
  bucketed.overlap = true;
  return DdpVariants{step_cost(naive, link), step_cost(flat, link), step_cost(bucketed, link)};
}

}  // namespace dsml
