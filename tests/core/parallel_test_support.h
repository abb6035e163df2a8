// parallel_test_support.h — what the strategy-equality tests share: the optimizer settings they train with and
// the distance between a parallel run's parameters and the single-device reference.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/train_compare.h"

// SGD-family at lr 0.05, Adam at lr 0.01: large enough that 20 steps move the parameters visibly.
inline dsml::OptimizerConfig test_optimizer(const std::string& kind) {
  dsml::OptimizerConfig c;
  c.kind = dsml::parse_optimizer(kind);
  c.lr = kind == "adam" ? 0.01 : 0.05;
  return c;
}

// The distance between a parallel run's parameters and the single device's is dsml::max_relative_difference
// (train_compare.h): max over tensors of ‖a − ref‖_F / ‖ref‖_F. Runs that do the same arithmetic in another order
// land within kSameModel of each other after 20 steps (measured: ≤ 1e-15 for every strategy, SGD and Adam,
// with `dsml train … --steps 20`).
constexpr double kSameModel = 1e-12;
