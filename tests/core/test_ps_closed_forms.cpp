// Closed forms of Week 4 against the parameter-server simulator. Monte Carlo tolerances are stated per test: the
// sample mean of n round times must fall within 4 standard errors (the sample's own σ/√n) of the formula.
#include <gtest/gtest.h>

#include <cmath>

#include "dsml/param_server.h"
#include "dsml/ps_closed_forms.h"
#include "ps_test_support.h"
#include "test_support.h"

using namespace dsml;

namespace {

ParamServerConfig rounds(Consistency consistency, int workers, int iterations, SpeedModel speed) {
  ParamServerConfig c;
  c.consistency = consistency;
  c.workers = workers;
  c.iterations = iterations;
  c.parameters = 8;
  c.speed = speed;
  return c;
}

struct Sample {
  double mean, standard_error;
};
Sample of(const std::vector<double>& x) {
  double sum = 0, sq = 0;
  for (double v : x) sum += v, sq += v * v;
  const double n = static_cast<double>(x.size()), mean = sum / n;
  return {mean, std::sqrt((sq / n - mean * mean) / n)};
}

SpeedModel exponential(std::uint64_t seed) {
  SpeedModel m;
  m.distribution = SpeedDistribution::exponential;
  m.base_seconds = 2.0;
  m.seed = seed;
  return m;
}

}  // namespace

TEST(PsClosedForms, HarmonicNumbersAndTheNumericIntegralAgree) {
  EXPECT_DOUBLE_EQ(harmonic_number(4), 25.0 / 12);
  EXPECT_DOUBLE_EQ(expected_max_exponential(4, 2.0), 2.0 * 25 / 12);
  EXPECT_DOUBLE_EQ(expected_order_statistic_exponential(6, 8, 1.0), harmonic_number(8) - harmonic_number(2));
  // The general integral reproduces the closed forms (Simpson, 20 000 intervals).
  EXPECT_NEAR(expected_round_compute(exponential(0), 8, 8), 2.0 * harmonic_number(8), 1e-8);
  EXPECT_NEAR(expected_round_compute(exponential(0), 8, 6), 2.0 * (harmonic_number(8) - harmonic_number(2)), 1e-8);
  SpeedModel slow;
  slow.distribution = SpeedDistribution::slow_node;
  slow.slow_probability = 0.1;
  slow.slowdown = 4;
  EXPECT_NEAR(expected_round_compute(slow, 10, 10), 1 + 3 * (1 - std::pow(0.9, 10)), 1e-12);
  slow.distribution = SpeedDistribution::fixed;
  slow.multipliers = {1, 1, 1, 1, 3, 5};
  EXPECT_EQ(expected_round_compute(slow, 6, 6), 5.0);
  EXPECT_EQ(expected_round_compute(slow, 6, 4), 1.0);
}

// The straggler barrier: bsp's round time is the slowest of W. 3000 rounds of 8 exponential workers.
TEST(PsClosedForms, BspRoundIsTheSlowestWorker) {
  const ParamServerConfig c = rounds(Consistency::bsp, 8, 3000, exponential(1));
  const Sample s = of(simulate_param_server(free_network(9), c).round_seconds);
  EXPECT_NEAR(s.mean, expected_max_exponential(8, 2.0), 4 * s.standard_error);
  // Log-normal (σ = 1) has no closed form: the order-statistic integral instead.
  SpeedModel ln;
  ln.distribution = SpeedDistribution::lognormal;
  ln.sigma = 1.0;
  ln.seed = 2;
  const Sample l = of(simulate_param_server(free_network(9), rounds(Consistency::bsp, 8, 3000, ln)).round_seconds);
  EXPECT_NEAR(l.mean, expected_round_compute(ln, 8, 8), 4 * l.standard_error);
  // Fixed speeds [1,1,1,1,3,5]: every round takes exactly the slowest.
  SpeedModel fixed;
  fixed.multipliers = {1, 1, 1, 1, 3, 5};
  for (double t : simulate_param_server(free_network(7), rounds(Consistency::bsp, 6, 20, fixed)).round_seconds)
    EXPECT_NEAR(t, 5.0, 1e-12);
}

// Backup workers: the P-th of N when stragglers abandon their work at the round's end (cancel_stragglers): every
// round is a fresh race. When they finish their useless gradient first (the default, as TensorFlow does), a
// straggler starts the next round late and rounds are measurably longer than the formula.
TEST(PsClosedForms, BackupRoundIsThePthOfN) {
  ParamServerConfig c = rounds(Consistency::backup, 8, 3000, exponential(3));
  c.backup = 2;
  c.cancel_stragglers = true;
  const Sample s = of(simulate_param_server(free_network(9), c).round_seconds);
  const double want = expected_order_statistic_exponential(6, 8, 2.0);
  EXPECT_NEAR(s.mean, want, 4 * s.standard_error);
  EXPECT_LT(s.mean, expected_max_exponential(8, 2.0) * 0.7);  // H_8 − H_2 = 1.22 vs H_8 = 2.72
  c.cancel_stragglers = false;
  const Sample late = of(simulate_param_server(free_network(9), c).round_seconds);
  EXPECT_GT(late.mean, want + 4 * late.standard_error);
  // Any law, with cancelling: the order-statistic integral (log-normal σ = 1).
  c.cancel_stragglers = true;
  c.speed.distribution = SpeedDistribution::lognormal;
  c.speed.sigma = 1.0;
  const Sample ln = of(simulate_param_server(free_network(9), c).round_seconds);
  EXPECT_NEAR(ln.mean, expected_round_compute(c.speed, 8, 6), 4 * ln.standard_error);
}

// SSP with fixed speeds and a free network: the stall closed form holds to rounding, for every s.
TEST(PsClosedForms, SspStallWithFixedSpeeds) {
  SpeedModel fixed;
  fixed.multipliers = {1, 1, 1, 1, 3, 5};
  for (int s : {0, 1, 2, 4, 8, 16}) {
    ParamServerConfig c = rounds(Consistency::ssp, 6, 40, fixed);
    c.staleness = s;
    const ParamServerResult r = simulate_param_server(free_network(7), c);
    const SspStall want = ssp_stall_fixed_speeds(fixed, 6, 40, s);
    EXPECT_NEAR(r.stall_fraction, want.stall_fraction, 1e-12) << "s = " << s;
    for (int w = 0; w < 6; ++w) EXPECT_NEAR(r.wait_seconds[w], want.wait_seconds[w], 1e-12);
  }
}

// Random speeds: no closed form. s = 0 is the barrier (long-run stall 1 − 1/H_W for exponentials; here within 0.01
// over 2000 clocks), and the stall never grows with s (same draws: a larger s only releases replies earlier).
TEST(PsClosedForms, SspStallWithRandomSpeedsIsBoundedAndFallsWithS) {
  double previous = 1.0, barrier = 0.0;
  for (int s : {0, 1, 2, 4, 8, 16}) {
    ParamServerConfig c = rounds(Consistency::ssp, 8, 2000, exponential(5));
    c.staleness = s;
    const double stall = simulate_param_server(free_network(9), c).stall_fraction;
    if (s == 0) EXPECT_NEAR(stall, 1 - 1 / harmonic_number(8), 0.01);
    if (s == 0) barrier = stall;
    EXPECT_LE(stall, previous + 1e-12) << "s = " << s;
    previous = stall;
  }
  EXPECT_LT(previous, 0.5 * barrier);
}

// The star bottleneck: per round a shard's downlink carries W pushes of S/K bytes, W·(α + β·S/K) seconds.
TEST(PsClosedForms, ServerDownlinkLoadIsWTimesAShard) {
  const CostModel net = CostModel::from_bandwidth(2e-6, 1e9);
  for (int servers : {1, 2, 4, 8}) {
    SpeedModel fixed;
    fixed.base_seconds = 1e-3;
    ParamServerConfig c = rounds(Consistency::bsp, 8, 5, fixed);
    c.servers = servers;
    c.parameters = 1 << 20;
    const ParamServerResult r = simulate_param_server(Topology::fully_connected(8 + servers, net), c);
    const PsBandwidth want = ps_bandwidth(net, 8, servers, 4.0 * (1 << 20));
    const int down = [&] {
      for (int l = 0; l < r.topology.links(); ++l)
        if (r.topology.link_name(l) == "down 8") return l;
      return -1;
    }();
    EXPECT_NEAR(r.link_busy[down], 5 * want.server_seconds, 1e-12 * want.server_seconds);
    EXPECT_EQ(r.bytes_into_busiest_server, 5 * want.server_bytes);
    EXPECT_EQ(want.servers_bottleneck, servers < 8);
  }
  EXPECT_EQ(ps_servers_to_balance(net, 8, 4e6), 8);
}

TEST(PsClosedForms, BadInputSaysWhat) {
  EXPECT_EQ(error_of([] { expected_order_statistic_exponential(9, 8, 1.0); }),
            "the quota P must be in [1, workers = 8], got 9");
  SpeedModel ln;
  ln.distribution = SpeedDistribution::lognormal;
  EXPECT_EQ(error_of([&] { ssp_stall_fixed_speeds(ln, 4, 10, 1); }),
            "the SSP stall closed form needs fixed speeds, got the lognormal model");
}

// The closed form printed beside a run (`dsml ps`) is given only where it describes the simulated round: a fresh race
// of all workers each round (bsp; backup with cancel_stragglers or b = 0). BackupRoundIsThePthOfN shows the late
// gradients of backup without cancelling make the round longer than the order statistic.
TEST(PsClosedForms, TheRoundClosedFormOnlyWhereItDescribesTheRun) {
  ParamServerConfig c = rounds(Consistency::backup, 8, 10, exponential(3));
  c.backup = 2;
  EXPECT_FALSE(closed_form_round_compute(c).has_value());
  c.cancel_stragglers = true;
  ASSERT_TRUE(closed_form_round_compute(c).has_value());
  EXPECT_EQ(*closed_form_round_compute(c), expected_round_compute(c.speed, 8, 6));
  c.cancel_stragglers = false;
  c.backup = 0;
  EXPECT_EQ(*closed_form_round_compute(c), expected_round_compute(c.speed, 8, 8));
  c.consistency = Consistency::bsp;
  EXPECT_EQ(*closed_form_round_compute(c), expected_round_compute(c.speed, 8, 8));
  c.consistency = Consistency::asp;
  EXPECT_FALSE(closed_form_round_compute(c).has_value());
  c.consistency = Consistency::ssp;
  EXPECT_FALSE(closed_form_round_compute(c).has_value());
}
