// Elastic data parallelism: dropping and adding workers mid-run (4 → 2 → 4 → 3) with the global batch kept ends
// where one device ends, with ZeRO-1's re-sharded optimizer state and with replicated DP; what it refuses.
#include <gtest/gtest.h>

#include "dsml/elastic.h"
#include "dsml/single_device.h"
#include "dsml/train_compare.h"
#include "test_support.h"

using namespace dsml;

namespace {

ElasticConfig resizing(bool shard_optimizer) {
  ElasticConfig c;
  c.model = MlpConfig{2, 4, 8, Activation::gelu, true};
  c.optimizer.kind = OptimizerKind::adam;
  c.optimizer.lr = 0.01;
  c.batch = 12;
  c.steps = 10;
  c.seed = 7;
  c.initial_workers = 4;
  c.changes = {{3, 2}, {6, 4}, {8, 3}};  // lose 2, get them back, lose 1
  c.shard_optimizer = shard_optimizer;
  return c;
}

}  // namespace

TEST(Elastic, ResizedRunEqualsOneDevice) {
  for (const bool zero : {true, false}) {
    const ElasticConfig c = resizing(zero);
    const ElasticResult r = train_elastic(c);
    const SingleDeviceRun one = single_device_run(c.model, c.optimizer, init_mlp(c.model, c.seed + 1),
                                                  teacher_batches(c.model, c.seed, c.steps, c.batch));
    EXPECT_LT(max_relative_difference(r.params, one.params), 1e-13) << (zero ? "zero-1" : "dp");
    for (int t = 0; t < c.steps; ++t) EXPECT_NEAR(r.losses[t], one.losses[t], 1e-13 * one.losses[t]);
    EXPECT_EQ(r.workers, (std::vector<int>{4, 4, 4, 2, 2, 2, 4, 4, 3, 3}));
    ASSERT_EQ(r.resizes.size(), 3u);
    // A joining rank receives the whole model: Ψ = 2·2·4·8 = 128 values, 1024 B each.
    EXPECT_EQ(r.resizes[1].parameter_bytes_to_joiners, 2 * 1024.0);
    EXPECT_EQ(r.resizes[0].parameter_bytes_to_joiners, 0.0);
  }
}

// ZeRO-1's re-sharding by hand. Ψ = 128 over 4 ranks: [0,32) [32,64) [64,96) [96,128); over 2: [0,64) [64,128).
// Owners change for [32,64) (1 → 0), [64,96) (2 → 1), [96,128) (3 → 1): 96 elements, 2 Adam buffers, 8 B each.
TEST(Elastic, ReshardingMovesWhatChangesOwner) {
  const ElasticResult r = train_elastic(resizing(true));
  EXPECT_EQ(r.resizes[0].optimizer_bytes_moved, 96 * 2 * 8.0);
  // 2 → 4: [0,32) stays with 0, [32,64) 0 → 1, [64,96) 1 → 2, [96,128) 1 → 3.
  EXPECT_EQ(r.resizes[1].optimizer_bytes_moved, 96 * 2 * 8.0);
  // Step bytes follow P: ZeRO-1 sends what a ring all-reduce sends, 2·(P − 1)/P · Ψ · 8.
  EXPECT_DOUBLE_EQ(r.step_bytes[0], 2 * 0.75 * 1024);
  EXPECT_DOUBLE_EQ(r.step_bytes[3], 2 * 0.5 * 1024);
}

TEST(Elastic, RefusesWhatCannotEqualOneDevice) {
  ElasticConfig c = resizing(true);
  c.changes = {{3, 5}};
  EXPECT_NE(error_of([&] { train_elastic(c); }).find("global batch of 12 rows is not divisible by 5 workers (from step 3)"),
            std::string::npos);
  c = resizing(true);
  c.optimizer.kind = OptimizerKind::lamb;
  EXPECT_NE(error_of([&] { train_elastic(c); }).find("supports the elementwise optimizers sgd, momentum and adam"),
            std::string::npos);
  c = resizing(true);
  c.changes = {{6, 2}, {3, 4}};
  EXPECT_NE(error_of([&] { train_elastic(c); }).find("increasing steps"), std::string::npos);
}
