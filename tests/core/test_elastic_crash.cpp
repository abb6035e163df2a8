// Elastic training after a CRASH: a worker lost during a step without handing over its state. Under
// ZeRO-1 its optimizer shard is gone: the run rolls back to the last checkpoint, re-cuts the state for the survivors
// and recomputes the lost steps — and then equals the uninterrupted run from the checkpoint on (to rounding: the
// survivors sum the batch in another grouping). Under DP the survivors hold everything: only the step in flight is
// redone. Adam, so the moments (the lost state) matter.
#include <gtest/gtest.h>

#include <cmath>

#include "dsml/elastic.h"
#include "dsml/train_compare.h"
#include "test_support.h"

using namespace dsml;

namespace {

ElasticConfig base(bool shard_optimizer) {
  ElasticConfig c;
  c.model = MlpConfig{2, 4, 8, Activation::gelu, true};
  c.optimizer.kind = OptimizerKind::adam;
  c.optimizer.lr = 0.01;
  c.batch = 12;
  c.steps = 12;
  c.seed = 7;
  c.initial_workers = 4;
  c.checkpoint_interval = 5;  // checkpoints at the start of steps 0, 5, 10
  c.shard_optimizer = shard_optimizer;
  return c;
}

void expect_same_run(const ElasticResult& a, const ElasticResult& b, int from) {
  ASSERT_EQ(a.losses.size(), b.losses.size());
  for (std::size_t t = static_cast<std::size_t>(from); t < a.losses.size(); ++t)
    EXPECT_NEAR(a.losses[t], b.losses[t], 1e-12 * std::abs(b.losses[t])) << "step " << t;
  EXPECT_LT(max_relative_difference(a.params, b.params), 1e-12);
}

}  // namespace

// 4 workers; during step 7 one crashes (4 → 3). ZeRO-1 rolls back to the checkpoint of step 5 and recomputes 5 and 6
// on 3 workers; the run then matches the uninterrupted 4-worker run at every step from 5 on, and one device.
TEST(ElasticCrash, ZeroOneRollsBackToTheCheckpointAndEqualsTheUninterruptedRun) {
  const ElasticResult uninterrupted = train_elastic(base(true));
  ElasticConfig c = base(true);
  c.changes = {{7, 3, true}};
  const ElasticResult r = train_elastic(c);
  ASSERT_EQ(r.resizes.size(), 1u);
  const ResizeEvent& e = r.resizes[0];
  EXPECT_TRUE(e.crash);
  EXPECT_EQ(e.restored_from, 5);
  EXPECT_EQ(e.lost_steps, 2);
  const double psi = static_cast<double>(parameter_count(c.model));
  EXPECT_EQ(e.bytes_restored, 3 * psi * 8);  // parameters + Adam's two moment buffers, fp64
  for (int t = 5; t < 12; ++t) EXPECT_EQ(r.workers[t], 3) << t;  // the recomputed steps ran on the survivors
  expect_same_run(r, uninterrupted, 5);
  EXPECT_LT(r.max_relative_difference, 1e-12);
  // A crash right at a checkpoint loses nothing.
  c.changes = {{10, 2, true}};
  EXPECT_EQ(train_elastic(c).resizes[0].lost_steps, 0);
}

// DP: every survivor holds the replica and the whole optimizer state — no checkpoint needed, nothing recomputed.
TEST(ElasticCrash, DataParallelSurvivorsCarryOn) {
  const ElasticResult uninterrupted = train_elastic(base(false));
  ElasticConfig c = base(false);
  c.changes = {{7, 2, true}};
  const ElasticResult r = train_elastic(c);
  EXPECT_EQ(r.resizes[0].lost_steps, 0);
  EXPECT_EQ(r.resizes[0].restored_from, -1);
  EXPECT_EQ(r.resizes[0].bytes_restored, 0.0);
  EXPECT_EQ(r.workers[6], 4);
  EXPECT_EQ(r.workers[7], 2);
  expect_same_run(r, uninterrupted, 0);
}

TEST(ElasticCrash, ACrashMustShrinkTheWorld) {
  ElasticConfig c = base(true);
  c.changes = {{3, 2}, {7, 3, true}};
  EXPECT_EQ(error_of([&] { train_elastic(c); }), "a crash at step 7 must leave fewer workers than the 2 running, got 3");
  c.changes = {};
  c.checkpoint_interval = -1;
  EXPECT_EQ(error_of([&] { train_elastic(c); }), "checkpoint_interval must be >= 0 (0: only the start), got -1");
}
