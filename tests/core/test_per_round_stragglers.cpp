// Stragglers drawn per round from a list (the seed notebook's {1, 1, 1, 1, 3, 5}) beside the same list as fixed
// per-worker speeds, and what SSP can and cannot absorb in each (ssp_clock_limits, ps_closed_forms.h), checked
// against the parameter-server simulator on a free network (compute alone). Monte Carlo tolerances as in
// test_ps_closed_forms.cpp: 4 standard errors of the sample's own σ/√n.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "dsml/param_server.h"
#include "dsml/ps_closed_forms.h"
#include "dsml/speed_model.h"
#include "ps_test_support.h"
#include "test_support.h"

using namespace dsml;

namespace {

SpeedModel per_round(std::uint64_t seed = 1) {
  SpeedModel m;
  m.distribution = SpeedDistribution::per_round;
  m.round_speeds = {1, 1, 1, 1, 3, 5};
  m.seed = seed;
  return m;
}

SpeedModel fixed_slow() {
  SpeedModel m;
  m.multipliers = {1, 1, 1, 1, 3, 5};  // worker w always takes list[w]
  return m;
}

ParamServerResult run(Consistency consistency, int staleness, int iterations, const SpeedModel& speed) {
  ParamServerConfig c;
  c.consistency = consistency;
  c.staleness = staleness;
  c.workers = 6;
  c.iterations = iterations;
  c.parameters = 8;
  c.speed = speed;
  return simulate_param_server(free_network(7), c);
}

// E[max of 6 draws from {1,1,1,1,3,5}] by hand: P(max ≥ 3) = 1 − (4/6)^6, P(max ≥ 5) = 1 − (5/6)^6.
const double kBarrier = 1 + 2 * (1 - std::pow(4.0 / 6, 6)) + 2 * (1 - std::pow(5.0 / 6, 6));

}  // namespace

// Every worker, every round, draws an entry of the list, each with probability 1/n (repeats count): over 60 000
// draws each value's share is within 4 standard errors of its count/n. Reproducible by seed, counter-based.
TEST(PerRoundStragglers, EachEntryIsDrawnWithProbabilityOneOverN) {
  SpeedModel m = per_round(7);
  m.base_seconds = 0.5;
  const auto times = sample_iteration_times(m, 6, 10000);
  double ones = 0, threes = 0, fives = 0;
  for (const auto& w : times)
    for (double t : w) (t == 0.5 ? ones : t == 1.5 ? threes : t == 2.5 ? fives : (ADD_FAILURE() << t, ones)) += 1;
  const double n = 60000, se = std::sqrt((1.0 / 6) * (5.0 / 6) / n);
  EXPECT_NEAR(ones / n, 4.0 / 6, 4 * std::sqrt((4.0 / 6) * (2.0 / 6) / n));
  EXPECT_NEAR(threes / n, 1.0 / 6, 4 * se);
  EXPECT_NEAR(fives / n, 1.0 / 6, 4 * se);
  EXPECT_EQ(sample_iteration_times(m, 6, 10000), times);
  EXPECT_EQ(iteration_seconds(m, 5, 9999), times[5][9999]);
  // Not the fixed model: worker 5 is fast in most rounds, worker 0 slow in some.
  EXPECT_GT(std::count(times[5].begin(), times[5].end(), 0.5), 6000);
  EXPECT_GT(std::count(times[0].begin(), times[0].end(), 2.5), 1000);
  // The law the closed forms integrate: a step CDF and the list's mean.
  EXPECT_DOUBLE_EQ(speed_factor_cdf(m, 0.99), 0.0);
  EXPECT_DOUBLE_EQ(speed_factor_cdf(m, 1.0), 4.0 / 6);
  EXPECT_DOUBLE_EQ(speed_factor_cdf(m, 4.0), 5.0 / 6);
  EXPECT_DOUBLE_EQ(speed_factor_cdf(m, 5.0), 1.0);
  EXPECT_DOUBLE_EQ(speed_factor_mean(m), 2.0);
}

// The barrier: E[max] exactly, and 3000 simulated BSP rounds land on it. The fixed list's barrier is its maximum.
TEST(PerRoundStragglers, BspRoundIsTheExpectedMaxOfTheDraws) {
  EXPECT_NEAR(expected_round_compute(per_round(), 6, 6), kBarrier, 1e-12);
  EXPECT_NEAR(kBarrier, 4.1546, 1e-4);
  const auto rounds = run(Consistency::bsp, 0, 3000, per_round(2)).round_seconds;
  double sum = 0, sq = 0;
  for (double t : rounds) sum += t, sq += t * t;
  const double mean = sum / 3000, se = std::sqrt((sq / 3000 - mean * mean) / 3000);
  EXPECT_NEAR(mean, kBarrier, 4 * se);
  EXPECT_EQ(expected_round_compute(fixed_slow(), 6, 6), 5.0);
}

// SSP at s = 0 is BSP: on the same draws the two runs end every clock at the same instant.
TEST(PerRoundStragglers, SspAtZeroIsBsp) {
  const ParamServerResult bsp = run(Consistency::bsp, 0, 200, per_round(3));
  const ParamServerResult ssp = run(Consistency::ssp, 0, 200, per_round(3));
  ASSERT_EQ(bsp.round_end.size(), ssp.round_end.size());
  for (std::size_t r = 0; r < bsp.round_end.size(); ++r) EXPECT_NEAR(ssp.round_end[r], bsp.round_end[r], 1e-9) << r;
  EXPECT_NEAR(ssp.stall_fraction, bsp.stall_fraction, 1e-12);
}

// A permanently slow worker cannot be absorbed: both limits are its 5 s, and every bound s finishes 40 clocks at
// 40·5 s exactly — SSP only moves the fast workers' waiting later.
TEST(PerRoundStragglers, FixedSlowWorkerCannotBeAbsorbed) {
  const SspClockLimits limits = ssp_clock_limits(fixed_slow(), 6);
  EXPECT_EQ(limits.barrier_seconds, 5.0);
  EXPECT_EQ(limits.unbounded_seconds, 5.0);
  EXPECT_EQ(limits.absorbable_seconds, 0.0);
  for (int s : {0, 1, 4, 16, 40}) EXPECT_NEAR(run(Consistency::ssp, s, 40, fixed_slow()).makespan, 200.0, 1e-9) << s;
}

// Slowness drawn per round can be absorbed: the clock time falls from E[max] = 4.15 s at s = 0 towards the list's
// mean, 2 s, as s grows. Over 4000 clocks: s = 0 within 4 standard errors of E[max]; s = I (no gate binds: ASP)
// finishes at the slowest worker's own sum of draws exactly, within 3% of I·2 s; the makespan never grows with s.
TEST(PerRoundStragglers, TransientSlownessIsAbsorbedWithEnoughStaleness) {
  const int clocks = 4000;
  const SpeedModel m = per_round(4);
  const SspClockLimits limits = ssp_clock_limits(m, 6);
  EXPECT_NEAR(limits.barrier_seconds, kBarrier, 1e-12);
  EXPECT_DOUBLE_EQ(limits.unbounded_seconds, 2.0);
  EXPECT_NEAR(limits.absorbable_fraction, 1 - 2.0 / kBarrier, 1e-12);
  double previous = 1e300;
  for (int s : {0, 1, 2, 4, 8, 16, 64, clocks}) {
    const double per_clock = run(Consistency::ssp, s, clocks, m).makespan / clocks;
    EXPECT_LE(per_clock, previous + 1e-12) << "s = " << s;
    previous = per_clock;
  }
  const auto times = sample_iteration_times(m, 6, clocks);
  double slowest_sum = 0;
  for (const auto& w : times) slowest_sum = std::max(slowest_sum, std::accumulate(w.begin(), w.end(), 0.0));
  EXPECT_NEAR(previous * clocks, slowest_sum, 1e-6);
  EXPECT_NEAR(previous, limits.unbounded_seconds, 0.03 * limits.unbounded_seconds);
  EXPECT_LT(previous, 0.55 * limits.barrier_seconds);
}

TEST(PerRoundStragglers, BadInputSaysWhat) {
  SpeedModel m;
  m.distribution = SpeedDistribution::per_round;
  EXPECT_EQ(error_of([&] { validate(m, 4); }),
            "the per-round model needs a list of speeds to draw from (1 to 1024 values, e.g. 1,1,1,1,3,5), got 0");
  m.round_speeds = {1, 0};
  EXPECT_NE(error_of([&] { validate(m, 4); }).find("every per-round speed must be a finite number > 0"),
            std::string::npos);
  m.distribution = SpeedDistribution::exponential;
  m.round_speeds = {1, 3};
  EXPECT_EQ(error_of([&] { validate(m, 4); }),
            "a list of per-round speeds is for the per-round model, but the model is exponential: choose per-round, or "
            "give fixed per-worker speeds as multipliers");
  EXPECT_EQ(parse_speed_distribution("per-round"), SpeedDistribution::per_round);
  EXPECT_STREQ(speed_distribution_name(SpeedDistribution::per_round), "per-round");
}
