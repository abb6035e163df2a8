// Design helpers (dsml/parallel_design.h): the optimal number of micro-batches (closed form against the search),
// full recomputation's memory and compute by Korthikanti's formulas, and the 3-D pricer for a 30B model on
// 8 nodes × 8 GPUs, one row checked by hand.
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

TEST(Layouts, Opt30bOnEightNodesOfEight) {
  dsml::LayoutConfig c;
  c.model = dsml::transformer_preset("opt-30b");
  EXPECT_DOUBLE_EQ(c.model.parameters, 12.0 * 48 * 7168 * 7168 + 50257.0 * 7168);  // 29.96 B
  const std::vector<dsml::LayoutRow> rows = dsml::price_3d_layouts(c);
  ASSERT_FALSE(rows.empty());
  const double psi = c.model.parameters, sbh = 2048.0 * 7168;
  bool saw_hand_row = false, saw_pure_dp = false;
  for (const dsml::LayoutRow& r : rows) {
    EXPECT_EQ(r.t * r.p * r.d, 64);
    EXPECT_EQ(56 % r.t, 0);
    EXPECT_EQ(48 % r.p, 0);
    EXPECT_EQ(r.fits, r.memory_bytes <= 80e9);
    if (r.t == 8 && r.p == 4) {  // d = 2, m = 512/2 = 256
      saw_hand_row = true;
      EXPECT_EQ(r.micro_batches, 256);
      EXPECT_DOUBLE_EQ(r.model_state_bytes, 16 * psi / 32);                 // 14.98 GB
      EXPECT_NEAR(r.model_state_zero1_bytes, 4 * psi / 32 + 12 * psi / 64, 1);  // 9.36 GB
      EXPECT_NEAR(r.activation_bytes, 4 * 12 * sbh * 2 * (34 + 5.0 * 56 * 2048 / 7168) / 8 / 2, 1);  // 10.0 GB
      EXPECT_TRUE(r.fits);
      EXPECT_TRUE(r.fits_zero1);
      EXPECT_NEAR(r.compute_s, 6 * psi * 512 * 2048 / (64 * 156e12), 1e-9);
      EXPECT_NEAR(r.bubble_s, r.compute_s * 3 / 256, 1e-12);
      // 4 all-reduces per layer per micro-batch, 12 layers, 256 micro-batches, ring over 8 on NVLink.
      const double ring = 2 * 7 * 1e-6 + 2 * 7.0 / 8 * sbh * 2 / 300e9;
      EXPECT_NEAR(r.tensor_s, 4 * 12 * 256 * ring, 1e-9);
      EXPECT_NEAR(r.data_s, 2 * 1 * 5e-6 + 2 * 0.5 * (2 * psi / 32) / 25e9, 1e-9);
    }
    if (r.t == 1 && r.p == 1) {
      saw_pure_dp = true;
      EXPECT_FALSE(r.fits);        // 16Ψ = 479 GB
      EXPECT_FALSE(r.fits_zero1);  // 4Ψ + 12Ψ/64 = 125 GB
    }
  }
  EXPECT_TRUE(saw_hand_row);
  EXPECT_TRUE(saw_pure_dp);
  EXPECT_NE(error_of([] { dsml::transformer_preset("gpt5"); }).find("choose gpt3-6.7b, opt-30b or gpt3-175b"),
            std::string::npos);
}

}  // namespace
