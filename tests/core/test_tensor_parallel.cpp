// Tensor parallelism (Megatron f/g) against the single-device reference: same seed, same global batches,
// parameters equal to 1e-12 relative after 1 and 20 steps; exactly two (B, D) all-reduces per block per step.
#include <gtest/gtest.h>

#include "parallel_test_support.h"

#include <algorithm>
#include <functional>
#include <string>
#include <tuple>

#include "dsml/error.h"
#include "dsml/tensor_parallel.h"

namespace {

using dsml::MlpConfig;
using dsml::MlpParams;

constexpr int kBatch = 12;  // B; B·D = 96 splits evenly over 1, 2 and 4 ranks

MlpConfig model(bool residual) { return MlpConfig{3, 8, 16, dsml::Activation::gelu, residual}; }

class TensorParallelEquality : public ::testing::TestWithParam<std::tuple<int, std::string, bool>> {};

TEST_P(TensorParallelEquality, MatchesSingleDeviceAfter1And20Steps) {
  const auto [tp, kind, residual] = GetParam();
  const MlpConfig m = model(residual);
  SingleDeviceReference reference(m, test_optimizer(kind));
  dsml::TensorParallelTrainer trainer(dsml::RankGrid{1, tp, 1}, m, test_optimizer(kind), reference.initial());
  expect_matches_single_device(trainer, reference, kBatch);
}

INSTANTIATE_TEST_SUITE_P(GridsOptimizersResidual, TensorParallelEquality,
                         ::testing::Combine(::testing::Values(1, 2, 4), ::testing::Values("sgd", "adam", "lars", "lamb"),
                                            ::testing::Bool()));

TEST(TensorParallel, MomentumAlsoMatches) {
  const MlpConfig m = model(true);
  SingleDeviceReference reference(m, test_optimizer("momentum"));
  dsml::TensorParallelTrainer trainer(dsml::RankGrid{1, 4, 1}, m, test_optimizer("momentum"), reference.initial());
  expect_matches_single_device(trainer, reference, kBatch, 5);
}

TEST(TensorParallel, TwoAllReducesOfBxDPerBlockPerStep) {
  for (int tp : {2, 4}) {
    const MlpConfig m = model(true);
    const dsml::TeacherTask task(m, 7);
    dsml::TensorParallelTrainer trainer(dsml::RankGrid{1, tp, 1}, m, test_optimizer("sgd"), dsml::init_mlp(m, 42));
    const dsml::ParallelStep result = trainer.step(task.make_batch(0, kBatch));
    // Ring all-reduce of n = B·D doubles: the busiest rank sends 2·(p − 1)/p · n · 8 bytes.
    const double n = static_cast<double>(kBatch) * m.width;
    const double ring_bytes = 2.0 * (tp - 1) / tp * n * 8;
    ASSERT_EQ(result.comm.records().size(), 2u * static_cast<unsigned>(m.layers)) << "tp = " << tp;
    int forward = 0, backward = 0;
    for (const dsml::CommRecord& r : result.comm.records()) {
      EXPECT_EQ(r.kind, "all-reduce");
      EXPECT_EQ(r.ranks, tp);
      EXPECT_DOUBLE_EQ(r.bytes_per_rank, ring_bytes) << r.label;
      forward += r.label.find("g forward") != std::string::npos;
      backward += r.label.find("f backward") != std::string::npos;
    }
    EXPECT_EQ(forward, m.layers);
    EXPECT_EQ(backward, m.layers);
    EXPECT_DOUBLE_EQ(result.comm.bytes("all-reduce"), 2 * m.layers * ring_bytes);
    EXPECT_DOUBLE_EQ(result.comm.bytes("send"), 0.0);
  }
}

TEST(TensorParallel, OneRankMovesNothing) {
  const MlpConfig m = model(true);
  dsml::TensorParallelTrainer trainer(dsml::RankGrid{}, m, test_optimizer("sgd"), dsml::init_mlp(m, 42));
  const dsml::ParallelStep result = trainer.step(dsml::TeacherTask(m, 7).make_batch(0, kBatch));
  EXPECT_DOUBLE_EQ(result.comm.total_bytes(), 0.0);
}

TEST(TensorParallel, BytesHeldPerRankShrinkWithTp) {
  const MlpConfig m = model(true);
  const int tp = 4;
  dsml::TensorParallelTrainer trainer(dsml::RankGrid{1, tp, 1}, m, test_optimizer("adam"), dsml::init_mlp(m, 42));
  const dsml::ParallelStep result = trainer.step(dsml::TeacherTask(m, 7).make_batch(0, kBatch));
  ASSERT_EQ(result.memory.size(), static_cast<std::size_t>(tp));
  const double params = 8.0 * m.layers * 2 * m.width * m.hidden / tp;  // L·2·D·F/tp doubles
  const double activations = 8.0 * m.layers * kBatch * (m.width + m.hidden / tp);  // x (B, D) + H_t (B, F/tp)
  for (const dsml::MemoryBreakdown& mem : result.memory) {
    EXPECT_DOUBLE_EQ(mem.params, params);
    EXPECT_DOUBLE_EQ(mem.grads, params);
    EXPECT_DOUBLE_EQ(mem.optimizer, 2 * params);  // Adam: m and v
    EXPECT_DOUBLE_EQ(mem.activations, activations);
    EXPECT_DOUBLE_EQ(mem.total, 4 * params + activations);
  }
}

TEST(TensorParallel, SplitAndGatherAreInverse) {
  const MlpConfig m = model(false);
  const MlpParams full = dsml::init_mlp(m, 3);
  const auto slices = dsml::split_tensor_parallel(full, 4);
  ASSERT_EQ(slices.size(), 4u);
  EXPECT_EQ(slices[1].blocks[0].w_in.rows(), m.hidden / 4);
  EXPECT_EQ(slices[1].blocks[0].w_out.cols(), m.hidden / 4);
  EXPECT_EQ(slices[1].blocks[0].w_in, full.blocks[0].w_in.middleRows(4, 4));
  EXPECT_EQ(max_relative_difference(dsml::gather_tensor_parallel(slices), full), 0.0);
}

// LARS and LAMB need whole-tensor norms the tp ranks hold in slices: one all-reduce of 2 sums of squares per
// tensor over the tp ranks per step, and none for the elementwise optimizers. (Equality: TensorParallelEquality.)
TEST(TensorParallel, LayerwiseOptimizersAllReduceTheirSquaredNorms) {
  const MlpConfig m = model(true);  // 3 blocks: 6 tensors
  const dsml::TeacherTask task(m, 7);
  for (const char* kind : {"lars", "lamb", "adam"}) {
    dsml::TensorParallelTrainer trainer(dsml::RankGrid{1, 4, 1}, m, test_optimizer(kind), dsml::init_mlp(m, 42));
    const dsml::ParallelStep step = trainer.step(task.make_batch(0, kBatch));
    const std::vector<dsml::CommRecord> norms = records_labelled(step.comm, "trust-ratio norms");
    EXPECT_EQ(norms.size(), std::string(kind) == "adam" ? 0u : 1u) << kind;
    for (const dsml::CommRecord& r : norms) {
      EXPECT_EQ(r.kind, "all-reduce");
      EXPECT_EQ(r.ranks, 4);
      EXPECT_DOUBLE_EQ(r.bytes_per_rank, 2.0 * 3 / 4 * 12 * 8) << kind;  // ring all-reduce of 2 values × 6 tensors
    }
  }
}

TEST(TensorParallel, BadGridsThrowReadableErrors) {
  const MlpConfig m = model(true);  // F = 16
  const MlpParams p = dsml::init_mlp(m, 42);
  expect_error([&] { dsml::TensorParallelTrainer(dsml::RankGrid{1, 3, 1}, m, test_optimizer("sgd"), p); },
               "hidden width F = 16 is not divisible by tp = 3");
  expect_error([&] { dsml::TensorParallelTrainer(dsml::RankGrid{1, 0, 1}, m, test_optimizer("sgd"), p); }, "tp");
  expect_error([&] { dsml::TensorParallelTrainer(dsml::RankGrid{2, 2, 1}, m, test_optimizer("sgd"), p); },
               "tp runs on a grid with dp = pp = 1 (it uses only tp), got dp = 2, tp = 2, pp = 1");
  dsml::TensorParallelTrainer ok(dsml::RankGrid{1, 2, 1}, m, test_optimizer("sgd"), p);
  dsml::Batch wrong{Eigen::MatrixXd::Zero(4, 5), Eigen::MatrixXd::Zero(4, 5)};
  expect_error([&] { ok.step(wrong); }, "B x D = B x 8");
}

}  // namespace
