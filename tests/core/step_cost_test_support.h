// step_cost_test_support.h — the small configuration the step-cost tests price, and the network they price it on.
#pragma once

#include <string>

#include "dsml/cost_model.h"
#include "dsml/step_cost.h"
#include "dsml/strategy.h"

constexpr double kStepCostSpeed = 1e12;  // FLOP/s

// α = 5 µs, β = 0.1 ns/byte (10 GB/s), γ = 0.
inline dsml::CostModel step_cost_network() { return dsml::CostModel{5e-6, 1e-10, 0}; }

// L = 4, D = 8, F = 32 (Ψ = 2048 values), B = 12 rows, at kStepCostSpeed.
inline dsml::StepCostConfig small_step_cost(const std::string& strategy, dsml::RankGrid grid, int micro_batches = 1) {
  dsml::StepCostConfig c;
  c.model = dsml::MlpConfig{4, 8, 32};
  c.batch = 12;
  c.grid = grid;
  c.strategy = dsml::parse_strategy(strategy);
  c.micro_batches = micro_batches;
  c.flops_per_s = kStepCostSpeed;
  return c;
}
