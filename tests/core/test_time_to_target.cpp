// The capstone trained to a loss target: steps_to_target is the first step of the job's own loss curve at or below
// the target, priced by time_job; SSP with s = 0 through the parameter server IS the synchronous job; a larger bound
// allows staler updates (τ ≤ (s + 1)·P − 1) and never needs fewer clocks of waiting; stopping early changes nothing;
// the sweep marks the smallest wall time; the cap is said when it comes first.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "dsml/checkpointing.h"
#include "dsml/error.h"
#include "dsml/simulated_job.h"
#include "test_support.h"

using namespace dsml;

namespace {

// Four workers of the default hardware, no compression, no failures; the default teacher task.
JobConfig small(int workers = 4) {
  JobConfig c;
  c.workers = workers;
  c.steps = 1000;
  c.failures = false;
  c.compressor.kind = CompressorKind::none;
  c.target_loss = 0.2;
  return c;
}

}  // namespace

TEST(TimeToTarget, SynchronousStepsAreTheFirstStepOfTheJobsCurveAtTheTarget) {
  JobConfig c = small();
  c.straggler_probability = 0.02;
  c.seed = 5;
  const TargetRun r = time_to_target(c);
  ASSERT_TRUE(r.reached);
  JobConfig whole = c;
  whole.steps = 600;
  const std::vector<double> losses = run_job(whole).losses;
  int first = -1;
  for (int t = 0; t < static_cast<int>(losses.size()) && first < 0; ++t)
    if (losses[t] <= c.target_loss) first = t;
  ASSERT_GT(first, 64);  // past the first try: the doubling is exercised
  EXPECT_EQ(r.steps, first);
  EXPECT_EQ(r.updates, first * 4.0);
  EXPECT_EQ(r.loss, losses[first]);
  EXPECT_GT(losses[first - 1], c.target_loss);
  ASSERT_EQ(r.curve_loss.size(), static_cast<std::size_t>(first + 1));
  EXPECT_EQ(r.curve_loss.back(), losses[first]);
  // Its clock is time_job's for those steps (this seed's stragglers), and without failures the checkpoints add on.
  JobConfig clock = c;
  clock.steps = first;
  const JobTiming t = time_job(clock);
  EXPECT_DOUBLE_EQ(r.work, t.work);
  EXPECT_GT(t.split.straggler_wait, 0);
  EXPECT_DOUBLE_EQ(r.wall, t.work + std::ceil(first / 200.0) * c.checkpoint_seconds);
}

TEST(TimeToTarget, WithFailuresTheWallIsDalysExpectedTimeOfThatWork) {
  JobConfig c = small();
  c.failures = true;
  c.node_mtbf = 3600;
  c.checkpoint_every = 50;
  const TargetRun r = time_to_target(c);
  ASSERT_TRUE(r.reached);
  const double interval = 50 * r.work / r.steps;
  EXPECT_DOUBLE_EQ(r.wall, expected_wall_time(r.work, interval, c.checkpoint_seconds, c.restart_seconds,
                                              fleet_mtbf(c.node_mtbf, c.workers), c.detection_seconds));
  EXPECT_GT(r.wall, r.work);
}

TEST(TimeToTarget, SspWithBoundZeroIsTheSynchronousJob) {
  for (int p : {1, 3, 4}) {
    JobConfig c = small(p);
    const TargetRun sync = time_to_target(c);
    c.asynchronous = true;
    c.staleness = 0;
    const TargetRun ssp = time_to_target(c);
    ASSERT_TRUE(sync.reached && ssp.reached) << p;
    EXPECT_EQ(ssp.steps, sync.steps) << p;       // P updates of (η/P)·g_w per clock = one step of η·mean
    EXPECT_EQ(ssp.updates, sync.updates) << p;
    EXPECT_NEAR(ssp.loss, sync.loss, 1e-12 * sync.loss) << p;
    ASSERT_EQ(ssp.curve_loss.size(), sync.curve_loss.size()) << p;
    for (std::size_t i = 0; i < sync.curve_loss.size(); ++i)
      ASSERT_NEAR(ssp.curve_loss[i], sync.curve_loss[i], 1e-12 * sync.curve_loss[i]) << p << " step " << i;
    EXPECT_LE(ssp.max_staleness, p - 1) << p;   // within a clock, the others' updates of the same clock
  }
}

TEST(TimeToTarget, ALargerBoundLetsUpdatesGrowStalerAndTheFastWorkersWaitLess) {
  JobConfig c = small(4);
  c.asynchronous = true;
  c.straggler_probability = 0.3;
  c.slowdown = 3;
  c.seed = 2;
  double previous_work_per_step = 1e300;
  int widest = 0;
  for (int s : {0, 2, 8}) {
    c.staleness = s;
    const TargetRun r = time_to_target(c);
    ASSERT_TRUE(r.reached) << s;
    // SSP bounds an update's age by (2s + 1)(P − 1) updates (Week 6, #capstone); with this job's stragglers it stays
    // within (s + 1)·P − 1.
    EXPECT_LE(r.max_staleness, (s + 1) * c.workers - 1) << s;
    widest = std::max(widest, r.max_staleness);
    const double per_step = r.work / r.steps;   // seconds a step's worth of data takes: less waiting with s
    EXPECT_LT(per_step, previous_work_per_step) << s;
    previous_work_per_step = per_step;
  }
  EXPECT_GT(widest, c.workers - 1);   // some update was staler than a synchronous clock allows
}

TEST(TimeToTarget, StoppingAtTheTargetChangesNothing) {
  JobConfig c = small(3);
  c.asynchronous = true;
  c.staleness = 2;
  c.straggler_probability = 0.2;
  const TargetRun stopped = time_to_target(c);   // tries 64 clocks, then 128, …
  ASSERT_TRUE(stopped.reached);
  c.steps = static_cast<int>(std::ceil(stopped.steps)) + 40;   // one run, longer than needed
  JobConfig once = c;
  once.steps = 5000;
  const TargetRun longer = time_to_target(once);
  EXPECT_EQ(longer.updates, stopped.updates);
  EXPECT_EQ(longer.work, stopped.work);
  EXPECT_EQ(longer.loss, stopped.loss);
}

TEST(TimeToTarget, TheCapIsSaidWhenItComesFirst) {
  JobConfig c = small();
  c.steps = 30;
  const TargetRun r = time_to_target(c);
  EXPECT_FALSE(r.reached);
  EXPECT_EQ(r.steps, 30);
  EXPECT_GT(r.loss, c.target_loss);
  c.asynchronous = true;
  c.staleness = 1;
  const TargetRun a = time_to_target(c);
  EXPECT_FALSE(a.reached);
  EXPECT_EQ(a.steps, 30);   // every worker's 30 clocks applied
}

TEST(TimeToTarget, TheSweepMarksTheSmallestWallAmongThoseThatReachedIt) {
  JobConfig c = small();
  c.steps = 400;
  const TargetSweep sweep = target_scaling(c, {1, 2, 4, 8, 16});
  ASSERT_EQ(sweep.points.size(), 5u);
  ASSERT_GE(sweep.best, 0);
  for (const TargetRun& p : sweep.points) {
    EXPECT_TRUE(p.curve_loss.empty());
    if (p.reached) EXPECT_LE(sweep.points[sweep.best].wall, p.wall);
    JobConfig one = c;
    one.workers = p.workers;
    EXPECT_EQ(time_to_target(one).wall, p.wall) << p.workers;
  }
  // At a fixed per-worker batch the global batch grows with P: never more steps (to noise), each one dearer.
  EXPECT_LE(sweep.points.back().steps, sweep.points.front().steps * 1.05);
  EXPECT_GT(sweep.points.back().work / sweep.points.back().steps, sweep.points.front().work / sweep.points.front().steps);
  c.target_loss = 1e-9;
  EXPECT_EQ(target_scaling(c, {1, 2}).best, -1);
}

TEST(TimeToTarget, BadSettingsAreNamed) {
  JobConfig c = small();
  c.target_loss = 0;
  EXPECT_EQ(error_of([&] { time_to_target(c); }),
            "target_loss (held-out loss to reach) must be a finite number > 0, got 0");
  c = small();
  c.asynchronous = true;
  c.compressor.kind = CompressorKind::top_k;
  EXPECT_EQ(error_of([&] { time_to_target(c); }),
            "the asynchronous (SSP) job sends whole gradients to its parameter server: choose compressor none, got top-k");
  c = small();
  c.staleness = -1;
  EXPECT_EQ(error_of([&] { time_to_target(c); }), "staleness (SSP's bound s) must be >= 0, got -1");
  EXPECT_THROW(target_scaling(small(), {}), Error);
  EXPECT_THROW(target_scaling(small(), {512}), Error);
}
