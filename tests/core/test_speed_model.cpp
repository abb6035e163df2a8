// Worker speed models: reproducible by seed, the means the header promises, and clear errors.
#include <gtest/gtest.h>

#include <cmath>

#include "dsml/speed_model.h"
#include "test_support.h"

using namespace dsml;

TEST(SpeedModel, FixedMultipliersAreTheTimes) {
  SpeedModel m;
  m.base_seconds = 0.5;
  m.multipliers = {1, 1, 1, 1, 3, 5};
  const auto times = sample_iteration_times(m, 6, 3);
  EXPECT_EQ(times[0][2], 0.5);
  EXPECT_EQ(times[4][0], 1.5);
  EXPECT_EQ(times[5][1], 2.5);
}

TEST(SpeedModel, SameSeedSameTimesOtherSeedOther) {
  SpeedModel m;
  m.distribution = SpeedDistribution::lognormal;
  m.seed = 11;
  const auto a = sample_iteration_times(m, 4, 50), b = sample_iteration_times(m, 4, 50);
  EXPECT_EQ(a, b);
  m.seed = 12;
  EXPECT_NE(a, sample_iteration_times(m, 4, 50));
  // Counter-based: a draw does not depend on which others were asked for.
  m.seed = 11;
  EXPECT_EQ(iteration_seconds(m, 3, 49), a[3][49]);
}

// Sample means over 40 000 draws against E[X] (standard error ≈ σ_X/200: 5 standard errors of slack).
TEST(SpeedModel, MeansMatchTheDistribution) {
  for (auto d : {SpeedDistribution::exponential, SpeedDistribution::lognormal, SpeedDistribution::slow_node}) {
    SpeedModel m;
    m.distribution = d;
    m.sigma = 0.5;
    m.slow_probability = 0.1;
    m.slowdown = 4;
    m.seed = 3;
    const auto t = sample_iteration_times(m, 4, 10000);
    double sum = 0, sq = 0;
    for (const auto& w : t)
      for (double x : w) sum += x, sq += x * x;
    const double n = 40000, mean = sum / n, sd = std::sqrt(sq / n - mean * mean);
    EXPECT_NEAR(mean, speed_factor_mean(m), 5 * sd / std::sqrt(n)) << speed_distribution_name(d);
  }
}

TEST(SpeedModel, CdfOfSlowNodeAndExponential) {
  SpeedModel m;
  m.distribution = SpeedDistribution::slow_node;
  m.slow_probability = 0.25;
  m.slowdown = 3;
  EXPECT_EQ(speed_factor_cdf(m, 0.5), 0.0);
  EXPECT_EQ(speed_factor_cdf(m, 1.0), 0.75);
  EXPECT_EQ(speed_factor_cdf(m, 3.0), 1.0);
  EXPECT_DOUBLE_EQ(speed_factor_mean(m), 1.5);
  m.distribution = SpeedDistribution::exponential;
  EXPECT_DOUBLE_EQ(speed_factor_cdf(m, std::log(2.0)), 0.5);
}

TEST(SpeedModel, BadInputSaysWhat) {
  SpeedModel m;
  m.multipliers = {1, 2};
  EXPECT_EQ(error_of([&] { validate(m, 3); }), "speeds must give one multiplier per worker: 3 workers, got 2 speeds");
  m.multipliers = {1, -2};
  EXPECT_NE(error_of([&] { validate(m, 2); }).find("speed multiplier must be a finite number > 0"), std::string::npos);
  EXPECT_EQ(error_of([] { parse_speed_distribution("gamma"); }),
            "unknown speed model \"gamma\"; choose fixed, exponential, lognormal, slow-node or per-round");
}
