// Design helpers (dsml/parallel_design.h): the optimal number of micro-batches (closed form against the search) and
// full recomputation's memory and compute by Korthikanti's formulas. The 3-D layouts are test_layout_3d.cpp's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "dsml/parallel_design.h"
#include "test_support.h"

namespace {

TEST(MicroBatches, HandExample) {
  // P = 4, t = 1 s, o = 3 ms: m* = √(3/0.003) = √1000 ≈ 31.6; T(31) = 1 + 3/31 + 34·0.003 ≈ 1.198774,
  // T(32) = 1 + 3/32 + 35·0.003 = 1.19875 — so 32.
  const dsml::MicroBatchChoice c = dsml::optimal_micro_batches(4, 1.0, 0.003, 1000);
  EXPECT_NEAR(c.closed_form, std::sqrt(1000.0), 1e-12);
  EXPECT_EQ(c.best, 32);
  EXPECT_NEAR(c.best_step_s, 1.19875, 1e-12);
  // The curve the search ran over, T(m) for m = 1 … 1000 (a page plots it): its minimum is the best.
  ASSERT_EQ(c.step_s.size(), 1000u);
  EXPECT_EQ(c.step_s[0], dsml::pipeline_step_with_overhead(4, 1.0, 0.003, 1));
  EXPECT_EQ(c.step_s[31], c.best_step_s);
  EXPECT_EQ(*std::min_element(c.step_s.begin(), c.step_s.end()), c.best_step_s);
}

TEST(MicroBatches, SearchLandsNextToTheClosedForm) {
  for (int P : {2, 4, 8, 16}) {
    for (double o : {1e-4, 1e-3, 1e-2, 0.05}) {
      const dsml::MicroBatchChoice c = dsml::optimal_micro_batches(P, 1.0, o, 100000);
      EXPECT_TRUE(c.best == static_cast<int>(std::floor(c.closed_form)) ||
                  c.best == static_cast<int>(std::ceil(c.closed_form)))
          << "P=" << P << " o=" << o << " m*=" << c.closed_form << " best=" << c.best;
    }
  }
  EXPECT_EQ(dsml::optimal_micro_batches(4, 1.0, 0.0, 64).best, 64);  // free micro-batches: as many as allowed
  EXPECT_EQ(dsml::optimal_micro_batches(1, 1.0, 0.01, 64).best, 1);  // no pipeline, no bubble to shrink
  EXPECT_NE(error_of([] { dsml::optimal_micro_batches(4, 1.0, -1, 8); }).find("overhead"), std::string::npos);
}

TEST(Recomputation, KorthikantiNumbersForGpt3) {
  // s = 2048, h = 12288, a = 96, t = 8, no sequence parallelism: sbh(10 + 24/8 + 5·96·2048/(12288·8)) = 23 sbh kept;
  // full recomputation keeps 2 sbh.
  const dsml::RecomputationTradeoff r = dsml::full_recomputation_tradeoff(2048, 1, 12288, 96, 8, false);
  const double sbh = 2048.0 * 12288;
  EXPECT_DOUBLE_EQ(r.kept_bytes, 23 * sbh);
  EXPECT_DOUBLE_EQ(r.recomputed_bytes, 2 * sbh);
  EXPECT_DOUBLE_EQ(r.saved_fraction, 1 - 2.0 / 23);
  EXPECT_DOUBLE_EQ(r.compute_factor, 4.0 / 3);
}

}  // namespace
