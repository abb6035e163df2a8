// The one strategy interface: every Strategy by name, what it needs of the grid, make_trainer's trainers equal to
// the single device through ParallelTrainer alone, and train_compare (what `dsml train` and trainCompare report)
// against numbers worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "dsml/error.h"
#include "dsml/single_device.h"
#include "dsml/strategy.h"
#include "dsml/train_compare.h"
#include "parallel_test_support.h"
#include "test_support.h"

namespace {

// L = 4 blocks of D = 8, F = 16: Ψ = 4·2·8·16 = 1024 values; divisible by every grid below.
dsml::MlpConfig model() { return dsml::MlpConfig{4, 8, 16}; }

dsml::RankGrid grid_for(dsml::Strategy s) {
  if (s == dsml::Strategy::single) return {};
  if (s == dsml::Strategy::tp) return {1, 4, 1};
  if (s == dsml::Strategy::fsdp_tp) return {2, 2, 1};
  if (dsml::is_pipeline(s)) return {1, 1, 4};
  return {4, 1, 1};
}

TEST(Strategy, NamesRoundTripAndUnknownNamesListTheChoices) {
  ASSERT_EQ(dsml::all_strategies().size(), 11u);
  for (dsml::Strategy s : dsml::all_strategies()) EXPECT_EQ(dsml::parse_strategy(dsml::strategy_name(s)), s);
  EXPECT_EQ(dsml::parse_strategy("fsdp-tp"), dsml::Strategy::fsdp_tp);
  EXPECT_EQ(error_of([] { dsml::parse_strategy("warp"); }),
            "unknown strategy \"warp\"; choose single, dp, dp-bucketed, dp-accumulate, zero1, zero2, zero3, tp, "
            "fsdp-tp, pp-gpipe, pp-1f1b");
  EXPECT_EQ(dsml::zero_stage(dsml::Strategy::zero2), 2);
  EXPECT_EQ(dsml::zero_stage(dsml::Strategy::dp), 0);
  EXPECT_TRUE(dsml::is_bucketed(dsml::Strategy::zero1));
  EXPECT_FALSE(dsml::is_bucketed(dsml::Strategy::dp));
  EXPECT_EQ(dsml::default_micro_batches(dsml::Strategy::dp_accumulate), 2);
}

TEST(Strategy, EachStrategyNamesTheGridItNeeds) {
  EXPECT_EQ(error_of([] { dsml::check_grid(dsml::Strategy::tp, {2, 2, 1}); }),
            "tp runs on a grid with dp = pp = 1 (it uses only tp), got dp = 2, tp = 2, pp = 1");
  EXPECT_EQ(error_of([] { dsml::check_grid(dsml::Strategy::fsdp_tp, {2, 2, 2}); }),
            "fsdp-tp runs on a grid with pp = 1 (it uses only dp and tp), got dp = 2, tp = 2, pp = 2");
  EXPECT_EQ(error_of([] { dsml::check_grid(dsml::Strategy::single, {2, 1, 1}); }),
            "single runs on a grid with dp = tp = pp = 1 (it uses one device), got dp = 2, tp = 1, pp = 1");
  EXPECT_NE(error_of([] { dsml::check_grid(dsml::Strategy::dp, {0, 1, 1}); }).find(">= 1"), std::string::npos);
  for (dsml::Strategy s : dsml::all_strategies()) EXPECT_NO_THROW(dsml::check_grid(s, grid_for(s)));
}

// Through the interface alone — make_trainer, step, full_params — every strategy trains the single-device model.
TEST(Strategy, EveryTrainerEqualsTheSingleDeviceThroughTheInterface) {
  const dsml::MlpConfig m = model();
  const dsml::MlpParams initial = dsml::init_mlp(m, 2);
  const std::vector<dsml::Batch> batches = dsml::teacher_batches(m, 1, 5, 16);
  const dsml::SingleDeviceRun single = dsml::single_device_run(m, test_optimizer("adam"), initial, batches);
  for (dsml::Strategy s : dsml::all_strategies()) {
    dsml::StrategyOptions options;
    options.micro_batches = dsml::is_pipeline(s) ? 4 : dsml::default_micro_batches(s);
    options.bucket_bytes = 8 * 300;  // several buckets for dp-bucketed, zero1, zero2
    const std::unique_ptr<dsml::ParallelTrainer> trainer =
        dsml::make_trainer(s, grid_for(s), m, test_optimizer("adam"), initial, options);
    EXPECT_EQ(trainer->grid().size(), grid_for(s).size());
    for (std::size_t i = 0; i < batches.size(); ++i) {
      const dsml::ParallelStep step = trainer->step(batches[i]);
      EXPECT_NEAR(step.loss, single.losses[i], 1e-13 * single.losses[i]) << dsml::strategy_name(s) << " step " << i;
      ASSERT_EQ(step.memory.size(), static_cast<std::size_t>(grid_for(s).size())) << dsml::strategy_name(s);
      for (const dsml::MemoryBreakdown& mem : step.memory) {
        EXPECT_GT(mem.params, 0) << dsml::strategy_name(s);
        EXPECT_GT(mem.activations, 0) << dsml::strategy_name(s);
        EXPECT_DOUBLE_EQ(mem.total, mem.params + mem.grads + mem.optimizer + mem.activations);
      }
    }
    EXPECT_LT(dsml::max_relative_difference(trainer->full_params(), single.params), kSameModel)
        << dsml::strategy_name(s);
  }
  EXPECT_NE(error_of([&] {
              dsml::StrategyOptions o;
              o.micro_batches = 2;
              dsml::make_trainer(dsml::Strategy::tp, {1, 2, 1}, m, test_optimizer("sgd"), initial, o);
            }).find("tp takes no micro-batches"),
            std::string::npos);
}

// Divergence is a result: plain SGD at γ = 50 blows up; train_compare reports the step, finite losses before it,
// nan after it — for dp (Optimizer's check) and zero2 (the shard update's) at the same step as the single device.
TEST(TrainCompare, DivergenceIsAResultWithItsStep) {
  dsml::TrainConfig c;
  c.model = model();
  c.optimizer = test_optimizer("sgd");
  c.optimizer.lr = 50;
  c.batch = 16;
  c.steps = 30;
  c.seed = 7;
  c.grid = {4, 1, 1};
  for (dsml::Strategy s : {dsml::Strategy::dp, dsml::Strategy::zero2}) {
    c.strategy = s;
    const dsml::TrainComparison r = dsml::train_compare(c);
    ASSERT_GE(r.diverged_at, 1) << dsml::strategy_name(s);
    EXPECT_EQ(r.diverged_at, r.single_diverged_at) << dsml::strategy_name(s);
    ASSERT_EQ(r.losses.size(), 30u);
    for (int i = 0; i < r.diverged_at; ++i) EXPECT_TRUE(std::isfinite(r.losses[static_cast<std::size_t>(i)]));
    for (int i = r.diverged_at; i < 30; ++i) EXPECT_FALSE(std::isfinite(r.losses[static_cast<std::size_t>(i)]));
    for (int i = r.diverged_at + 1; i < 30; ++i) EXPECT_TRUE(std::isnan(r.losses[static_cast<std::size_t>(i)]));
    EXPECT_TRUE(std::isnan(r.max_relative_difference));
    EXPECT_LT(r.max_loss_relative_difference, 1e-9);  // over the steps both ran
  }
  c.optimizer.lr = 0.01;  // a sane rate never diverges
  c.strategy = dsml::Strategy::dp;
  const dsml::TrainComparison calm = dsml::train_compare(c);
  EXPECT_EQ(calm.diverged_at, -1);
  EXPECT_EQ(calm.single_diverged_at, -1);
  EXPECT_TRUE(calm.trust_ratios.empty());
  // LARS reports each tensor's trust ratio at every step (8 tensors: 4 blocks × w_in, w_out).
  c.optimizer = test_optimizer("lars");
  c.steps = 3;
  const dsml::TrainComparison lars = dsml::train_compare(c);
  ASSERT_EQ(lars.trust_ratios.size(), 3u);
  EXPECT_EQ(lars.trust_ratios[0].size(), 8u);
}

// train_compare: Ψ = 1024 fp64 values on dp = 4; the busiest rank's bytes of one ring all-reduce are
// 2·(3/4)·1024·8 = 12288, of ZeRO-3's two gathers and one reduce-scatter 3·(3/4)·8192 = 18432; a middle pipeline
// stage sends each micro-batch's activation and gradient: 2·B·D·8 = 2·16·8·8 = 2048 bytes.
TEST(TrainCompare, ReportsBothCurvesTheDistanceAndTheBusiestRanksBytes) {
  dsml::TrainConfig c;
  c.model = model();
  c.optimizer = test_optimizer("adam");
  c.batch = 16;
  c.steps = 4;
  c.seed = 7;
  c.strategy = dsml::Strategy::dp;
  c.grid = {4, 1, 1};
  const dsml::TrainComparison dp = dsml::train_compare(c);
  ASSERT_EQ(dp.losses.size(), 4u);
  ASSERT_EQ(dp.single_losses.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(dp.losses[i], dp.single_losses[i], 1e-13 * dp.single_losses[i]);
  EXPECT_LT(dp.max_relative_difference, kSameModel);
  EXPECT_LT(dp.max_loss_relative_difference, 1e-13);
  EXPECT_GT(dp.max_relative_difference, 0);  // a different order of additions: not bitwise equal, as expected
  EXPECT_DOUBLE_EQ(dp.comm_bytes.at("all-reduce"), 12288);
  ASSERT_EQ(dp.memory.size(), 4u);

  c.strategy = dsml::Strategy::zero3;
  const dsml::TrainComparison z3 = dsml::train_compare(c);
  EXPECT_DOUBLE_EQ(z3.comm_bytes.at("all-gather") + z3.comm_bytes.at("reduce-scatter"), 18432);
  EXPECT_EQ(z3.single_losses, dp.single_losses);  // the same reference, whatever the strategy

  c.strategy = dsml::Strategy::pp_gpipe;
  c.grid = {1, 1, 4};
  c.options.micro_batches = 4;
  EXPECT_DOUBLE_EQ(dsml::train_compare(c).comm_bytes.at("send"), 2048);
}

// The sending stage is a field of the record, not something parsed from its label.
TEST(TrainCompare, BusiestRankBytesReadsTheSendingStageFromTheRecord) {
  dsml::CommLog log;
  log.add({"send", "anything at all", 2, 100, 0});
  log.add({"send", "no stage in this label", 2, 100, 1});
  log.add({"send", "", 2, 50, 1});
  log.add({"all-gather", "column 0", 2, 40});  // two groups of 2 side by side on a 4-rank grid: a rank is in one
  log.add({"all-gather", "column 1", 2, 40});
  const auto bytes = dsml::busiest_rank_bytes(log, {1, 1, 4});
  EXPECT_DOUBLE_EQ(bytes.at("send"), 150);
  EXPECT_DOUBLE_EQ(bytes.at("all-gather"), 40);
}

}  // namespace
