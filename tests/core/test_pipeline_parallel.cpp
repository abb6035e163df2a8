// Pipeline parallelism (GPipe and 1F1B executed on real micro-batches) against the single-device reference:
// parameters equal to 1e-12 relative after 1 and 20 steps; 2·(pp − 1)·B·D·8 bytes of point-to-point sends per
// step; 1F1B holds no more activations than GPipe.
#include <gtest/gtest.h>

#include "parallel_test_support.h"

#include <algorithm>
#include <functional>
#include <string>
#include <tuple>

#include "dsml/error.h"
#include "dsml/pipeline_parallel.h"

namespace {

using dsml::MlpConfig;
using dsml::MlpParams;
using dsml::OptimizerConfig;

constexpr int kBatch = 16;  // B

MlpConfig model(bool residual) { return MlpConfig{4, 8, 16, dsml::Activation::tanh, residual}; }

// Train `steps` steps single-device and pipelined side by side; returns the worst relative difference seen
// after step 1 and after the last step.
double run_side_by_side(const MlpConfig& m, const OptimizerConfig& opt, int pp, int micro_batches,
                        const std::string& schedule, int steps, int batch = kBatch) {
  SingleDeviceReference reference(m, opt);
  dsml::PipelineParallelTrainer trainer(dsml::RankGrid{1, 1, pp}, m, opt, reference.initial());
  const dsml::PipelineSchedule plan = dsml::pipeline_schedule_by_name(schedule, pp, micro_batches);
  return difference_beside_single_device(trainer, reference, batch, steps, [&](auto& t, const dsml::Batch& b) {
    return t.step(b, plan).loss;
  });
}

class PipelineParallelEquality
    : public ::testing::TestWithParam<std::tuple<int, int, std::string, std::string, bool>> {};

TEST_P(PipelineParallelEquality, MatchesSingleDeviceAfter1And20Steps) {
  const auto [pp, m, schedule, kind, residual] = GetParam();
  EXPECT_LT(run_side_by_side(model(residual), test_optimizer(kind), pp, m, schedule, 20), kSameModel);
}

INSTANTIATE_TEST_SUITE_P(StagesMicroBatchesSchedules, PipelineParallelEquality,
                         ::testing::Combine(::testing::Values(1, 2, 4), ::testing::Values(1, 2, 4, 8),
                                            ::testing::Values("gpipe", "1f1b"), ::testing::Values("sgd", "adam"),
                                            ::testing::Bool()));

TEST(PipelineParallel, UnevenMicroBatchesAndOtherOptimizersMatch) {
  // B = 10 into m = 4 micro-batches: 3, 3, 2, 2 rows; each micro-batch's loss gradient is weighted B_i/B.
  EXPECT_LT(run_side_by_side(model(true), test_optimizer("adam"), 2, 4, "1f1b", 5, 10), kSameModel);
  EXPECT_LT(run_side_by_side(model(true), test_optimizer("lamb"), 4, 4, "gpipe", 5), kSameModel);  // whole tensors per stage
  EXPECT_LT(run_side_by_side(model(false), test_optimizer("momentum"), 2, 8, "gpipe", 5), kSameModel);
}

TEST(PipelineParallel, PointToPointBytesPerStep) {
  const MlpConfig m = model(true);
  for (int pp : {1, 2, 4}) {
    for (int mb : {1, 2, 4, 8}) {
      dsml::PipelineParallelTrainer trainer(dsml::RankGrid{1, 1, pp}, m, test_optimizer("sgd"), dsml::init_mlp(m, 42));
      const dsml::PipelineParallelStep result =
          trainer.step(dsml::TeacherTask(m, 7).make_batch(0, kBatch), dsml::one_f_one_b(pp, mb));
      // activations forward and gradients backward, (B, D) doubles each way over each of the pp − 1 links
      EXPECT_DOUBLE_EQ(result.comm.bytes("send"), 2.0 * (pp - 1) * kBatch * m.width * 8) << pp << " " << mb;
      EXPECT_EQ(result.comm.records().size(), static_cast<std::size_t>(2 * (pp - 1) * mb));
      EXPECT_DOUBLE_EQ(result.comm.total_bytes(), result.comm.bytes("send"));
    }
  }
}

TEST(PipelineParallel, PeakActivationsFollowTheSchedule) {
  const MlpConfig m = model(true);
  const int pp = 4;
  const dsml::Batch batch = dsml::TeacherTask(m, 7).make_batch(0, kBatch);
  for (int mb : {1, 2, 4, 8}) {
    double stage0[2] = {0, 0};
    int k = 0;
    for (const dsml::PipelineSchedule& plan : {dsml::gpipe(pp, mb), dsml::one_f_one_b(pp, mb)}) {
      dsml::PipelineParallelTrainer trainer(dsml::RankGrid{1, 1, pp}, m, test_optimizer("sgd"), dsml::init_mlp(m, 42));
      const dsml::PipelineParallelStep result = trainer.step(batch, plan);
      EXPECT_EQ(result.peak_in_flight, dsml::peak_in_flight_activations(plan)) << plan.name << " m = " << mb;
      // Each micro-batch keeps x (B/m, D) and H (B/m, F) for each of the stage's L/pp blocks.
      const double per_micro_batch = 8.0 * (m.layers / pp) * (kBatch / mb) * (m.width + m.hidden);
      for (int s = 0; s < pp; ++s)
        EXPECT_DOUBLE_EQ(result.memory[s].activations, result.peak_in_flight[s] * per_micro_batch);
      stage0[k++] = result.memory[0].activations;
    }
    EXPECT_LE(stage0[1], stage0[0]) << "1F1B must not hold more than GPipe, m = " << mb;
    if (mb > pp) EXPECT_LT(stage0[1], stage0[0]) << "m = " << mb;  // GPipe holds m, 1F1B at most pp
  }
}

TEST(PipelineParallel, BytesHeldAndTrace) {
  const MlpConfig m = model(true);
  dsml::PipelineParallelTrainer trainer(dsml::RankGrid{1, 1, 2}, m, test_optimizer("adam"), dsml::init_mlp(m, 42));
  const dsml::PipelineSchedule plan = dsml::gpipe(2, 2);
  const dsml::PipelineParallelStep result = trainer.step(dsml::TeacherTask(m, 7).make_batch(0, kBatch), plan);
  const double params = 8.0 * (m.layers / 2) * 2 * m.width * m.hidden;
  for (const dsml::MemoryBreakdown& mem : result.memory) {
    EXPECT_DOUBLE_EQ(mem.params, params);
    EXPECT_DOUBLE_EQ(mem.grads, params);
    EXPECT_DOUBLE_EQ(mem.optimizer, 2 * params);
    EXPECT_DOUBLE_EQ(mem.total, 4 * params + mem.activations);
  }
  // The engine runs the compute ops (the sends and receives are the results it hands between stages).
  std::size_t computes = 0;
  for (const auto& stage : plan.ops)
    computes += static_cast<std::size_t>(std::count_if(stage.begin(), stage.end(), [](const dsml::PipelineOp& op) {
      return op.kind == dsml::PipelineOp::Kind::kForward || op.kind == dsml::PipelineOp::Kind::kBackward;
    }));
  ASSERT_EQ(result.trace.size(), computes);
  EXPECT_EQ(dsml::describe(result.trace.front()), "round 0 device 0: F(0, chunk 0)");
  EXPECT_EQ(dsml::gather_pipeline_stages(trainer.stages()).blocks.size(), static_cast<std::size_t>(m.layers));
}

TEST(PipelineParallel, BadGridsAndSchedulesThrowReadableErrors) {
  const MlpConfig m = model(true);  // L = 4
  const MlpParams p = dsml::init_mlp(m, 42);
  const dsml::Batch batch = dsml::TeacherTask(m, 7).make_batch(0, kBatch);
  expect_error([&] { dsml::PipelineParallelTrainer(dsml::RankGrid{1, 1, 3}, m, test_optimizer("sgd"), p); },
               "L = 4 blocks cannot be split evenly into pp = 3 stages");
  expect_error([&] { dsml::PipelineParallelTrainer(dsml::RankGrid{1, 2, 2}, m, test_optimizer("sgd"), p); },
               "pp-1f1b runs on a grid with dp = tp = 1 (it uses only pp), got dp = 1, tp = 2, pp = 2");
  expect_error([&] { dsml::PipelineParallelTrainer(dsml::RankGrid{1, 1, 0}, m, test_optimizer("sgd"), p); }, "pp");
  expect_error([&] { dsml::pipeline_schedule_by_name("zigzag", 2, 2); }, "choose gpipe or 1f1b");

  dsml::PipelineParallelTrainer trainer(dsml::RankGrid{1, 1, 2}, m, test_optimizer("sgd"), p);
  expect_error([&] { trainer.step(batch, dsml::gpipe(4, 2)); }, "has 4 stages, the grid has pp = 2");
  expect_error([&] { trainer.step(batch, dsml::gpipe(2, kBatch + 1)); }, "cannot be cut into m = 17");
  dsml::PipelineSchedule broken = dsml::empty_pipeline_schedule("broken", 2, 1);
  dsml::add_backward(broken, 0, 0);
  dsml::add_forward(broken, 0, 0);
  dsml::add_forward(broken, 1, 0);
  dsml::add_backward(broken, 1, 0);
  expect_error([&] { trainer.step(batch, broken); }, "schedule \"broken\" is not valid: stage 0");
}

}  // namespace
