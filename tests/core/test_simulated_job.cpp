// The capstone job: with nothing going wrong it IS the step cost model times the steps; with failures its mean wall
// time over seeds is Daly's expected wall time within a confidence interval; stragglers cost what the slow-node
// model says; the wall time splits exactly; failures never change the loss curve; efficiency ≤ 1 and falls with P.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>

#include "dsml/checkpointing.h"
#include "dsml/compressed_training.h"
#include "dsml/error.h"
#include "dsml/ps_closed_forms.h"
#include "dsml/simulated_job.h"
#include "dsml/step_cost.h"
#include "test_support.h"

using namespace dsml;

namespace {

// A quiet job: no failures, no stragglers, no compression, checkpoints free.
JobConfig quiet() {
  JobConfig c;
  c.workers = 16;
  c.steps = 300;
  c.failures = false;
  c.checkpoint_seconds = 0;
  c.compressor.kind = CompressorKind::none;
  return c;
}

}  // namespace

TEST(SimulatedJob, WithNothingGoingWrongItIsTheStepCostModelTimesTheSteps) {
  const JobConfig c = quiet();
  StepCostConfig s;  // the dp-bucketed step with one bucket of every gradient, compute then communication
  s.model = c.model;
  s.batch = c.workers * c.rows_per_worker;
  s.grid = RankGrid{c.workers, 1, 1};
  s.strategy = Strategy::dp_bucketed;
  s.flops_per_s = c.flops_per_s;
  s.element_bytes = c.element_bytes;
  s.bucket_bytes = 1e30;
  const double step = step_cost(s, c.network).total_s;
  const JobTiming t = time_job(c);
  EXPECT_NEAR(t.wall, c.steps * step, 1e-12 * c.steps * step);
  EXPECT_NEAR(t.step_compute + t.step_comm, step, 1e-12 * step);
  EXPECT_EQ(t.failures, 0);
  EXPECT_EQ(t.slow_steps, 0);
  // By hand: 6·b·Ψ FLOPs of compute, Ψ = 2·32·4096·16384; a ring all-reduce of 2Ψ bytes over 16 ranks.
  const double psi = 2.0 * 32 * 4096 * 16384;
  EXPECT_NEAR(t.step_compute, 6 * 4096 * psi / 150e12, 1e-9);
  EXPECT_NEAR(t.step_comm, 2 * 15 * 10e-6 + 2 * (15.0 / 16) * 2 * psi / 25e9, 1e-9);
}

TEST(SimulatedJob, CheckpointsWithoutFailuresCostTheirWritingTime) {
  JobConfig c = quiet();
  c.checkpoint_seconds = 20;
  c.checkpoint_every = 70;  // ⌈300/70⌉ = 5 checkpoints, the last one at the end
  const JobTiming t = time_job(c);
  EXPECT_EQ(t.checkpoints, 5);
  EXPECT_DOUBLE_EQ(t.split.checkpoints, 100);
  EXPECT_NEAR(t.wall, t.work + 100, 1e-9);
}

TEST(SimulatedJob, MeanWallTimeOverSeedsIsDalysExpectedWallTime) {
  JobConfig c = quiet();
  c.failures = true;
  c.node_mtbf = 12 * 3600;   // 16 nodes: fleet MTBF 45 min
  c.steps = 2000;
  c.checkpoint_every = 100;  // divides the steps: the simulation's segments are Daly's
  c.checkpoint_seconds = 20;
  const int seeds = 400;
  double sum = 0, squares = 0, failures = 0;
  double expected = 0;
  for (int seed = 0; seed < seeds; ++seed) {
    c.seed = static_cast<std::uint64_t>(seed);
    const JobTiming t = time_job(c);
    sum += t.wall, squares += t.wall * t.wall, failures += t.failures;
    expected = t.expected_wall;
    EXPECT_NEAR(t.split.total(), t.wall, 1e-9 * t.wall);
    EXPECT_NEAR(t.split.checkpoints, t.checkpoints * c.checkpoint_seconds, 1e-6);
    EXPECT_EQ(t.checkpoints, 20);
  }
  const double mean = sum / seeds, sd = std::sqrt((squares - sum * sum / seeds) / (seeds - 1));
  const double ci99 = 2.576 * sd / std::sqrt(seeds);
  EXPECT_NEAR(mean, expected, ci99) << "mean " << mean << " vs Daly " << expected;
  EXPECT_GT(failures / seeds, 1.0);  // the test does exercise failures
  const JobTiming t = time_job(c);
  EXPECT_NEAR(expected, expected_wall_time(t.work, t.work / 20, 20, c.restart_seconds, 12 * 3600.0 / 16,
                                           c.detection_seconds), 1e-9 * expected);
}

TEST(SimulatedJob, StragglersCostWhatTheSlowNodeModelSays) {
  JobConfig c = quiet();
  c.straggler_probability = 1;  // every worker slow every step: the wait is one more compute per step
  c.slowdown = 2;
  JobTiming t = time_job(c);
  EXPECT_NEAR(t.split.straggler_wait, c.steps * t.step_compute, 1e-9);
  EXPECT_EQ(t.slow_steps, c.steps);
  // p = 0.02 on 16 workers: a step has a straggler with probability 1 − 0.98¹⁶ = 0.276, and waits one compute then.
  c.straggler_probability = 0.02;
  c.steps = 4000;
  t = time_job(c);
  const double q = 1 - std::pow(0.98, 16);
  EXPECT_NEAR(t.slow_steps / 4000.0, q, 4 * std::sqrt(q * (1 - q) / 4000));
  EXPECT_NEAR(t.split.straggler_wait, t.slow_steps * t.step_compute, 1e-6);
}

TEST(SimulatedJob, FailuresChangeTheWallTimeNeverTheLossCurve) {
  JobConfig c = quiet();
  c.workers = 4;
  c.steps = 40;
  c.compressor.kind = CompressorKind::top_k;
  c.compressor.ratio = 0.1;
  const JobRun calm = run_job(c);
  c.failures = true;
  c.node_mtbf = 3 * 600;  // a 40-step job of ~2 s steps: failures likely
  c.checkpoint_every = 10;
  c.checkpoint_seconds = 1;
  c.restart_seconds = 10;
  c.detection_seconds = 1;
  c.seed = 3;
  JobRun hit = run_job(c);
  for (std::uint64_t seed = 4; hit.timing.failures == 0 && seed < 40; ++seed) c.seed = seed, hit = run_job(c);
  ASSERT_GT(hit.timing.failures, 0);
  EXPECT_GT(hit.timing.wall, calm.timing.wall);
  ASSERT_EQ(hit.losses.size(), 41u);
  // The loss is the teacher task trained by the same workers with the same compressor (task_seed names the teacher).
  CompressedTrainingConfig train;
  train.model = c.task;
  train.workers = 4;
  train.batch_per_worker = c.task_rows_per_worker;
  train.steps = 40;
  train.lr = c.lr;
  train.compressor = c.compressor;
  train.error_feedback = true;
  train.seed = c.task_seed;
  train.eval_batch = c.eval_batch;
  EXPECT_EQ(hit.losses, train_compressed(train).losses);
  EXPECT_EQ(hit.losses, calm.losses);
  c.train = false;
  EXPECT_TRUE(run_job(c).losses.empty());
  EXPECT_LT(hit.losses.back(), 0.5 * hit.losses.front());
  // The bytes are the wire's for the priced model, bf16 values: top-k goes by all-gather.
  CompressorConfig wire = c.compressor;
  wire.element_bytes = 2;
  EXPECT_DOUBLE_EQ(hit.bytes_per_step, compressed_bytes_sent(wire, c.model, 4));
  EXPECT_DOUBLE_EQ(hit.bytes_per_worker, 40 * hit.bytes_per_step);
  EXPECT_FALSE(hit.composes_with_all_reduce);
  EXPECT_NEAR(hit.optimal_steps * hit.timing.work / c.steps,
              optimal_interval(hit.timing.work, 1, 10, hit.timing.fleet_mtbf, 1), 1e-6);
}

TEST(SimulatedJob, EfficiencyIsAtMostOneAndFallsWithP) {
  JobConfig c = quiet();
  c.checkpoint_seconds = 20;
  c.checkpoint_every = 100;
  c.straggler_probability = 0.01;
  const std::vector<int> ps = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
  for (CompressorKind kind : {CompressorKind::none, CompressorKind::top_k, CompressorKind::powersgd}) {
    c.compressor.kind = kind;
    c.failures = false;
    const auto calm = job_scaling(c, ps);
    c.failures = true;
    const auto hit = job_scaling(c, ps);
    for (std::size_t i = 0; i < ps.size(); ++i) {
      EXPECT_LE(calm[i].efficiency, 1.0);
      EXPECT_LE(hit[i].efficiency, calm[i].efficiency) << ps[i];
      EXPECT_DOUBLE_EQ(hit[i].failure_free_efficiency, calm[i].efficiency);
      if (i > 0) EXPECT_LE(calm[i].efficiency, calm[i - 1].efficiency) << compressor_name(kind) << " P " << ps[i];
    }
    // The expected slowest of P workers: 1 + (2 − 1)·(1 − 0.99^P) computes.
    EXPECT_NEAR(calm[6].straggler_wait, calm[6].step_compute * (1 - std::pow(0.99, 64)), 1e-12);
    SpeedModel slow;  // Week 4's order statistics of the same workers
    slow.distribution = SpeedDistribution::slow_node;
    slow.base_seconds = calm[6].step_compute;
    slow.slow_probability = 0.01;
    slow.slowdown = 2;
    EXPECT_NEAR(calm[6].step_compute + calm[6].straggler_wait, expected_round_compute(slow, 64, 64), 1e-12);
  }
  // One worker with nothing going wrong is the ideal device.
  EXPECT_DOUBLE_EQ(job_scaling(quiet(), {1})[0].efficiency, 1.0);
  EXPECT_DOUBLE_EQ(time_job([] { JobConfig q = quiet(); q.workers = 1; return q; }()).efficiency, 1.0);
}

// 256 GPUs of 6 h MTBF fail every 84.4 s; 1000 steps of ~1.4 s in one segment (17 fleet MTBFs) would be retried
// ~e^17 times, each failure then costing ~e^{R/M} = e^3.6 restarts. The
// job is refused at once, in steps, with the interval that would finish — and that interval does finish.
TEST(SimulatedJob, AJobThatWouldPracticallyNeverFinishIsRefusedInSteps) {
  JobConfig c;
  c.workers = 256;
  c.steps = 1000;
  c.node_mtbf = 6 * 3600;
  c.checkpoint_every = 1000;
  c.train = false;  // the clock is what is refused
  const std::string why = error_of([&] { run_job(c); });
  EXPECT_EQ(why.rfind("with a checkpoint every 1000 steps (", 0), 0u) << why;
  EXPECT_NE(why.find("a fleet MTBF of 84.4 s (21600 s / 256 GPUs), the run would be expected to fail about "),
            std::string::npos) << why;
  std::smatch advice;
  ASSERT_TRUE(std::regex_search(why, advice, std::regex("checkpoint more often — every (\\d+) steps \\([\\d.]+ s of work\\), "
                                                         "Daly's best interval, expects about [\\d.e+]+ failures — or use fewer GPUs$")))
      << why;
  c.checkpoint_every = std::stoi(advice[1]);
  const JobRun run = run_job(c);
  EXPECT_GT(run.timing.failures, 0);
  EXPECT_NEAR(run.optimal_steps, c.checkpoint_every, 0.5);
}

TEST(SimulatedJob, BadSettingsAreNamed) {
  JobConfig c;
  c.workers = 0;
  EXPECT_THROW({
    try { time_job(c); } catch (const Error& e) { EXPECT_STREQ(e.what(), "workers must be between 1 and 1024, got 0"); throw; }
  }, Error);
  c = JobConfig{};
  c.straggler_probability = 1.5;
  EXPECT_THROW(time_job(c), Error);
  c = JobConfig{};
  c.checkpoint_every = 0;
  EXPECT_THROW(time_job(c), Error);
  EXPECT_THROW(job_scaling(JobConfig{}, {}), Error);
  EXPECT_THROW(job_scaling(JobConfig{}, {0}), Error);
}
