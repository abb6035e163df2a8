// The α–β–γ model against its published forms (Hockney 1994) and the numbers Week 1 quotes.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "dsml/cost_model.h"
#include "dsml/error.h"
#include "test_support.h"

namespace {

using dsml::CostModel;

// Runs `call`, expects dsml::Error, and returns its message for substring checks.
TEST(CostModel, MessageTimeIsAlphaPlusBetaN) {
  const CostModel model{2e-6, 1e-9, 0.0};
  EXPECT_DOUBLE_EQ(dsml::message_time(model, 0), 2e-6);
  EXPECT_DOUBLE_EQ(dsml::message_time(model, 1000), 2e-6 + 1e-6);
  EXPECT_DOUBLE_EQ(dsml::message_time(model, 1e6), 2e-6 + 1e-3);
}

TEST(CostModel, CrossoverForPublishedLinks) {
  // α = 1 µs at 100 GB/s → n* = 100 KB; α = 5 µs at 12.5 GB/s (100 Gb/s Ethernet) → 62.5 KB.
  EXPECT_NEAR(dsml::crossover_size(CostModel{1e-6, 1.0 / 100e9, 0}), 100000.0, 1e-9);
  EXPECT_NEAR(dsml::crossover_size(CostModel::from_bandwidth(5e-6, 12.5e9)), 62500.0, 1e-9);
  EXPECT_NEAR(dsml::crossover_size(CostModel::from_bandwidth(1e-6, 100e9)), 100000.0, 1e-9);
}

TEST(CostModel, FromBandwidthInvertsBandwidth) {
  const CostModel model = CostModel::from_bandwidth(3e-6, 25e9, 1e-12);
  EXPECT_DOUBLE_EQ(model.alpha, 3e-6);
  EXPECT_DOUBLE_EQ(model.beta, 1.0 / 25e9);
  EXPECT_DOUBLE_EQ(model.gamma, 1e-12);
}

TEST(CostModel, EffectiveBandwidthIsHalfThePeakAtCrossover) {
  const CostModel model{1e-6, 1e-11, 0};
  const double n_star = dsml::crossover_size(model);
  EXPECT_NEAR(dsml::effective_bandwidth(model, n_star), 0.5 / model.beta, 1e-3);
  EXPECT_DOUBLE_EQ(dsml::effective_bandwidth(model, 1e5), 1e5 / 2e-6);
  // Far above n*, the achieved bandwidth approaches 1/β from below.
  const double big = dsml::effective_bandwidth(model, 1e12);
  EXPECT_LT(big, 1.0 / model.beta);
  EXPECT_GT(big, 0.999 / model.beta);
}

TEST(CostModel, ManySmallMessagesPayAlphaEachTime) {
  // Week 1's bucketing question: 200 × 50 KB versus one 10 MB message at 5 µs, 12.5 GB/s.
  const CostModel model = CostModel::from_bandwidth(5e-6, 12.5e9);
  const double many = dsml::messages_time(model, 200, 50e3);
  const double one = dsml::messages_time(model, 1, 10e6);
  EXPECT_NEAR(many, 200 * (5e-6 + 50e3 / 12.5e9), 1e-15);
  EXPECT_NEAR(many - one, 199 * 5e-6, 1e-12);
  EXPECT_DOUBLE_EQ(dsml::messages_time(model, 0, 1e3), 0.0);
}

TEST(CostModel, RejectsBadBandwidth) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_NE(error_of([] { CostModel::from_bandwidth(1e-6, 0); }).find("bandwidth (bytes/s) must be a finite number > 0, got 0"),
            std::string::npos);
  EXPECT_NE(error_of([] { CostModel::from_bandwidth(1e-6, -5e9); }).find("got -5e+09"), std::string::npos);
  EXPECT_NE(error_of([&] { CostModel::from_bandwidth(1e-6, nan); }).find("got nan"), std::string::npos);
  EXPECT_NE(error_of([&] { CostModel::from_bandwidth(1e-6, inf); }).find("got inf"), std::string::npos);
  EXPECT_NE(error_of([] { CostModel::from_bandwidth(-1e-6, 1e9); }).find("latency"), std::string::npos);
}

TEST(CostModel, RejectsBadModelAndBytes) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(error_of([] { dsml::crossover_size(CostModel{1e-6, 0, 0}); }).find("beta"), std::string::npos);
  EXPECT_NE(error_of([] { dsml::message_time(CostModel{1e-6, -1e-9, 0}, 10); }).find("beta"), std::string::npos);
  EXPECT_NE(error_of([&] { dsml::message_time(CostModel{nan, 1e-9, 0}, 10); }).find("alpha"), std::string::npos);
  EXPECT_NE(error_of([] { dsml::message_time(CostModel{1e-6, 1e-9, -1}, 10); }).find("gamma"), std::string::npos);
  EXPECT_NE(error_of([] { dsml::message_time(CostModel{1e-6, 1e-9, 0}, -5); })
                .find("bytes must be a finite number >= 0, got -5"),
            std::string::npos);
  EXPECT_NE(error_of([] { dsml::effective_bandwidth(CostModel{1e-6, 1e-9, 0}, 0); }).find("bytes must be"),
            std::string::npos);
  EXPECT_NE(error_of([] { dsml::messages_time(CostModel{1e-6, 1e-9, 0}, -1, 10); }).find("count"),
            std::string::npos);
}

TEST(Errors, RequireHelpersNameTheArgumentAndValue) {
  EXPECT_NO_THROW(dsml::require_positive("x", 1e-300));
  EXPECT_NO_THROW(dsml::require_non_negative("x", 0.0));
  EXPECT_EQ(error_of([] { dsml::require_positive("x", 0.0); }), "x must be a finite number > 0, got 0");
  EXPECT_EQ(error_of([] { dsml::require_non_negative("y", -0.1); }), "y must be a finite number >= 0, got -0.1");
  EXPECT_EQ(error_of([] { dsml::require_non_negative("z", -std::numeric_limits<double>::infinity()); }),
            "z must be a finite number >= 0, got -inf");
  EXPECT_EQ(dsml::format_number(1e-6), "1e-06");
  EXPECT_EQ(dsml::format_number(0.1), "0.1");
  EXPECT_EQ(dsml::format_number(1.0 / 3.0), "0.3333333333333333");
}

}  // namespace
