// parallel_test_support.h — what the strategy-equality tests share: the optimizer settings they train with and
// the distance between a parallel run's parameters and the single-device reference.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "dsml/mlp.h"
#include "dsml/optimizer.h"

// SGD-family at lr 0.05, Adam at lr 0.01: large enough that 20 steps move the parameters visibly.
inline dsml::OptimizerConfig test_optimizer(const std::string& kind) {
  dsml::OptimizerConfig c;
  c.kind = dsml::parse_optimizer(kind);
  c.lr = kind == "adam" ? 0.01 : 0.05;
  return c;
}

// max over tensors of ‖a − ref‖_F / ‖ref‖_F
inline double max_relative_difference(const dsml::MlpParams& a, const dsml::MlpParams& ref) {
  double worst = 0;
  const auto pa = dsml::parameter_tensors(a);
  const auto pr = dsml::parameter_tensors(ref);
  EXPECT_EQ(pa.size(), pr.size());
  for (std::size_t k = 0; k < pa.size() && k < pr.size(); ++k)
    worst = std::max(worst, (*pa[k] - *pr[k]).norm() / pr[k]->norm());
  return worst;
}
