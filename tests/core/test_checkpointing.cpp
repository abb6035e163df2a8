// Checkpoint intervals: Young's and Daly's optima against their published numbers, Daly's expected wall time
// against a simulation of Poisson failures with rollback (mean within 3 standard errors over seeds), the fleet's
// MTBF m/N as N nodes' clocks produce it, heartbeat detection by hand, lost work per failure.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "dsml/checkpointing.h"
#include "test_support.h"

using namespace dsml;

namespace {
constexpr double kMinute = 60, kHour = 3600;

// `runs` runs of W = work in segments of τ = interval, checkpoints of δ, restarts of R, on one node of MTBF m.
CheckpointRunConfig study(double work, double interval, double checkpoint, double restart, double node_mtbf,
                          int runs) {
  const int nodes = 1;
  const double heartbeat_period = 0, heartbeat_timeout = 0;
  return {work, interval, checkpoint, restart, nodes, node_mtbf, heartbeat_period, heartbeat_timeout, runs};
}
}

TEST(Checkpointing, YoungsIntervalMinimisesTheFirstOrderOverhead) {
  // SYLLABUS W6: C = 60 s, MTBF = 6 h → √(2·60·21600) = 1609.97 s = 26.8 min.
  const double tau = young_interval(60, 6 * kHour);
  EXPECT_NEAR(tau, 1609.968943, 1e-6);
  // At τ*, δ/τ + τ/2M = √(2δ/M); any other τ costs more.
  EXPECT_NEAR(first_order_overhead(tau, 60, 6 * kHour), std::sqrt(2 * 60 / (6 * kHour)), 1e-15);
  EXPECT_GT(first_order_overhead(0.9 * tau, 60, 6 * kHour), first_order_overhead(tau, 60, 6 * kHour));
  EXPECT_GT(first_order_overhead(1.1 * tau, 60, 6 * kHour), first_order_overhead(tau, 60, 6 * kHour));
}

// Daly 2006, Figs. 3–5 (δ = 5 min): "The new model predicts τopt = 117 min" (M = 24 h), 57 min (6 h), 9.1 min (15 min).
TEST(Checkpointing, DalysIntervalMatchesHisPublishedExamples) {
  EXPECT_NEAR(daly_interval(5 * kMinute, 24 * kHour) / kMinute, 117, 0.5);
  EXPECT_NEAR(daly_interval(5 * kMinute, 6 * kHour) / kMinute, 57, 0.5);
  EXPECT_NEAR(daly_interval(5 * kMinute, 15 * kMinute) / kMinute, 9.1, 0.05);
  EXPECT_EQ(daly_interval(3 * kHour, kHour), kHour);  // δ ≥ 2M: τ* = M
  // Against the exact optimum of his complete model (R = 10 min): Daly's τ is within 1% of it and costs < 1e-4 more.
  const double work = 500 * kHour, d = 5 * kMinute, r = 10 * kMinute;
  for (const double m : {24 * kHour, 6 * kHour, 15 * kMinute}) {
    const double best = optimal_interval(work, d, r, m);
    const double daly = daly_interval(d, m), young = young_interval(d, m);
    EXPECT_NEAR(daly / best, 1, 0.01) << m;
    const double t_best = expected_wall_time(work, best, d, r, m);
    EXPECT_LT(expected_wall_time(work, daly, d, r, m) / t_best - 1, 1e-4) << m;
    EXPECT_LE(expected_wall_time(work, daly, d, r, m), expected_wall_time(work, young, d, r, m)) << m;
  }
}

TEST(Checkpointing, ExpectedWallTimeByHand) {
  // No failures to speak of: T → W·(1 + δ/τ). M = 1e12 s, W = 1000 s, τ = 100 s, δ = 10 s → 1100 s.
  EXPECT_NEAR(expected_wall_time(1000, 100, 10, 0, 1e12), 1100, 1e-6);
  // One segment, no checkpoint, no restart: M·(e^{W/M} − 1); W = M gives M·(e − 1).
  EXPECT_NEAR(expected_wall_time(3600, 3600, 0, 0, 3600), 3600 * (std::exp(1.0) - 1), 1e-9);
  EXPECT_NEAR(expected_lost_work(3600, 3600), 3600 - 3600 / (std::exp(1.0) - 1), 1e-9);
}

// The simulation against the closed form: 4000 runs of 10 segments, M = 1 h. Within 3 standard errors.
TEST(Checkpointing, SimulationMatchesDalysExpectedWallTime) {
  CheckpointRunConfig c = study(6000, 600, 60, 120, kHour, 4000);
  c.seed = 1;
  const CheckpointStudy s = simulate_checkpointing(c);
  EXPECT_NEAR(s.expected_wall, expected_wall_time(6000, 600, 60, 120, kHour), 1e-9);
  EXPECT_LT(s.ci95 / s.expected_wall, 0.01);  // the test is sharp: the 95% interval is within ±1%
  EXPECT_NEAR(s.mean_wall, s.expected_wall, 3 * s.ci95 / 1.96);
  EXPECT_NEAR(s.lost_work_per_failure, expected_lost_work(660, kHour), 0.05 * expected_lost_work(660, kHour));
  // Same fleet MTBF from 16 nodes of 16 h: the same expected time, and failures every ≈ 1 h.
  c.nodes = 16;
  c.node_mtbf = 16 * kHour;
  const CheckpointStudy fleet = simulate_checkpointing(c);
  EXPECT_DOUBLE_EQ(fleet.expected_wall, s.expected_wall);
  EXPECT_NEAR(fleet.mean_wall, fleet.expected_wall, 3 * fleet.ci95 / 1.96);
  EXPECT_NEAR(fleet.mean_time_between_failures, kHour, 0.05 * kHour);
}

// Young's first-order overhead against the simulation when τ, δ ≪ M (τ = 600 s, δ = 60 s, M = 10 h, R = 0): δ/τ + τ/2M
// = 0.10833; the simulated (wall − W)/W lands within 3% of it (the second-order terms, (τ+δ)²/(2Mτ) − τ/2M ≈ δ/M,
// are 1.7% of it).
TEST(Checkpointing, FirstOrderOverheadAgreesWhenFailuresAreRare) {
  const CheckpointRunConfig c = study(60000, 600, 60, 0, 10 * kHour, 4000);
  const CheckpointStudy s = simulate_checkpointing(c);
  const double first = first_order_overhead(600, 60, 10 * kHour), simulated = s.mean_wall / c.work - 1;
  EXPECT_NEAR(first, 0.1 + 600 / (2 * 10 * kHour), 1e-15);
  EXPECT_NEAR(simulated, first, 0.03 * first);
  EXPECT_NEAR(s.mean_wall, s.expected_wall, 3 * s.ci95 / 1.96);
}

TEST(Checkpointing, HeartbeatDetectionByHand) {
  // Beats every 10 s, declared dead after 25 s of silence, checked every 10 s: a failure at 37 s last beat at 30 s,
  // is declared at 30 + 10·⌈25/10⌉ = 60 s. Mean delay 30 − 5 = 25 s.
  EXPECT_EQ(detection_time(37, 10, 25), 60);
  EXPECT_EQ(detection_time(37, 0, 25), 62);
  EXPECT_EQ(mean_detection_delay(10, 25), 25);
  CheckpointRunConfig c = study(6000, 600, 60, 120, kHour, 4000);
  c.heartbeat_period = 10;
  c.heartbeat_timeout = 25;
  const CheckpointStudy s = simulate_checkpointing(c);
  EXPECT_NEAR(s.expected_wall, expected_wall_time(6000, 600, 60, 120, kHour, 25), 1e-9);
  EXPECT_NEAR(s.mean_wall, s.expected_wall, 3 * s.ci95 / 1.96);
}

// The simulated wall time is lowest near Daly's interval: a third of it and three times it are both clearly worse.
TEST(Checkpointing, SimulatedOptimumIsNearDalys) {
  CheckpointRunConfig c;
  c.checkpoint = 60;
  c.restart = 60;
  c.node_mtbf = 2 * kHour;
  c.runs = 1500;
  const double tau = daly_interval(60, 2 * kHour);  // ≈ 1.16e3 s
  const auto wall = [&](double interval) {
    c.interval = interval;
    c.work = 30 * interval * std::round(3 * tau / interval);  // a whole number of segments of each length
    return simulate_checkpointing(c).mean_wall / c.work;       // wall seconds per second of work
  };
  const double at = wall(tau), low = wall(tau / 3), high = wall(3 * tau);
  EXPECT_LT(at, low - 0.02);
  EXPECT_LT(at, high - 0.02);
}

TEST(Checkpointing, FleetOfTenThousand) {
  // 10 000 GPUs whose MTBF is 50 000 h (≈ 5.7 years) each fail as a fleet every 5 h.
  EXPECT_DOUBLE_EQ(fleet_mtbf(5e4 * kHour, 10000), 5 * kHour);
  EXPECT_EQ(error_of([] { fleet_mtbf(kHour, 0); }), "nodes must be >= 1, got 0");
  CheckpointRunConfig c;
  c.nodes = 10000;
  c.node_mtbf = kHour;  // fleet MTBF 0.36 s: a 660 s segment would be retried ~e^{1833} times
  EXPECT_NE(error_of([&] { simulate_checkpointing(c); }).find("fail more than 1e+308 times"), std::string::npos);
}

// E[failures] = T(τ)/M. One segment of L, no checkpoint cost, no restart: e^{L/M} − 1 (every attempt but the last fails).
TEST(Checkpointing, ExpectedFailuresGrowLikeEToTheSegmentOverTheMtbf) {
  EXPECT_DOUBLE_EQ(expected_failures(1000, 1000, 0, 0, 100), std::expm1(10.0));
  EXPECT_DOUBLE_EQ(expected_failures(6000, 600, 60, 120, kHour, 30),
                   expected_wall_time(6000, 600, 60, 120, kHour, 30) / kHour);
  // Simulated: 20 runs of one 1100 s segment on M = 100 s see e^11 − 1 = 59 873 failures each, on average.
  const CheckpointRunConfig c = study(1100, 1100, 0, 0, 100, 20);
  const CheckpointStudy s = simulate_checkpointing(c);
  double squares = 0;
  for (const CheckpointRun& r : s.runs) squares += (r.failures - s.mean_failures) * (r.failures - s.mean_failures);
  const double standard_error = std::sqrt(squares / (c.runs - 1) / c.runs);
  EXPECT_NEAR(s.mean_failures, std::expm1(11.0), 3 * standard_error);
}

// A run expected to fail more than kMaxExpectedFailures times is refused at once, with its numbers and the interval
// that would finish: 1200 s in one segment on a fleet MTBF of 100 s expects e^{12.1} − 1 ≈ 1.8e5 failures.
TEST(Checkpointing, ARunThatWouldPracticallyNeverFinishIsRefusedWithItsNumbers) {
  CheckpointRunConfig c = study(1200, 1200, 10, 0, 400, 1);
  c.nodes = 4;
  const double best = optimal_interval(1200, 10, 0, 100);
  char advice[160];
  std::snprintf(advice, sizeof advice, "checkpoint more often — every %.3g s of work, Daly's best interval, expects about %.2g "
                "failures — or use fewer nodes", best, expected_failures(1200, best, 10, 0, 100));
  EXPECT_EQ(error_of([&] { simulate_checkpointing(c); }),
            "with a checkpoint every 1200 s of work, 10 s to write one, a restart of 0 s and a fleet MTBF of 100 s "
            "(400 s / 4 nodes), the run would be expected to fail about 180000 times (Daly's expected wall time over "
            "the fleet MTBF): it would practically never finish, and is not simulated beyond 100000 expected failures; " +
                std::string(advice));
  // When no interval helps (a restart of 20 fleet MTBFs is retried e^20 times), the message says so.
  c.restart = 2000;
  EXPECT_NE(error_of([&] { simulate_checkpointing(c); }).find("even Daly's best interval (every "), std::string::npos);
  EXPECT_NE(error_of([&] { simulate_checkpointing(c); }).find(": use fewer nodes, more reliable ones or a shorter restart"),
            std::string::npos);
  // Following the advice, the run finishes.
  c.restart = 0;
  c.interval = best;
  EXPECT_GT(simulate_checkpointing(c).runs.front().wall, 1200);
}

TEST(Checkpointing, ATinyIntervalIsRefusedBeforeSimulatingItsCheckpoints) {
  CheckpointRunConfig c = study(86400, 0.001, 0, 0, 1e9, 1);
  EXPECT_EQ(error_of([&] { simulate_checkpointing(c); }),
            "a checkpoint every 0.001 s over 86400 s of work is 8.64e+07 checkpoints a run, × 1 run: more than the "
            "5e+07 this simulation takes; use a longer interval or fewer runs");
  c.interval = 0.01;  // 8.64e6 a run: simulated, unless 10 runs ask for 8.64e7
  EXPECT_NEAR(simulate_checkpointing(c).runs.front().checkpoints, 8640000, 1);   // (the sum of 0.01 s rounds)
  c.runs = 10;
  EXPECT_NE(error_of([&] { simulate_checkpointing(c); }).find("× 10 runs"), std::string::npos);
  // Each segment looks at every node's clock: 8.64e5 checkpoints a run × 1 run is fine on one node, not on 100.
  c.interval = 0.1;
  c.runs = 1;
  c.nodes = 100;
  c.node_mtbf = 1e12;
  EXPECT_EQ(error_of([&] { simulate_checkpointing(c); }),
            "864000 checkpoints a run × 1 run × 100 nodes (each segment looks at every node's clock) is more than the "
            "5e+07 this simulation takes; use a longer interval, fewer runs or fewer nodes");
}
