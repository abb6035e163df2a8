// FSDP × tensor parallelism on a dp × tp grid against the single-device reference: parameters equal to 1e-12
// relative after 1 and 20 steps; per block, 2·tp all-gathers and tp reduce-scatters over dp ranks (FSDP) and
// 2·dp all-reduces over tp ranks (TP); every rank holds 1/(dp·tp) of the model state.
#include <gtest/gtest.h>

#include "parallel_test_support.h"

#include <algorithm>
#include <functional>
#include <string>
#include <tuple>

#include "dsml/error.h"
#include "dsml/fsdp_tensor_parallel.h"

namespace {

using dsml::MlpConfig;
using dsml::MlpParams;

constexpr int kBatch = 16;  // B

MlpConfig model(bool residual) { return MlpConfig{3, 8, 16, dsml::Activation::relu, residual}; }

class FsdpTensorParallelEquality
    : public ::testing::TestWithParam<std::tuple<std::tuple<int, int>, std::string, bool>> {};

TEST_P(FsdpTensorParallelEquality, MatchesSingleDeviceAfter1And20Steps) {
  const auto [grid_dims, kind, residual] = GetParam();
  const auto [dp, tp] = grid_dims;
  const MlpConfig m = model(residual);
  SingleDeviceReference reference(m, test_optimizer(kind));
  dsml::FsdpTensorParallelTrainer trainer(dsml::RankGrid{dp, tp, 1}, m, test_optimizer(kind), reference.initial());
  EXPECT_EQ(max_relative_difference(trainer.full_params(), reference.initial()), 0.0);  // sharding loses nothing
  expect_matches_single_device(trainer, reference, kBatch);
}

INSTANTIATE_TEST_SUITE_P(GridsOptimizersResidual, FsdpTensorParallelEquality,
                         ::testing::Combine(::testing::Values(std::make_tuple(1, 1), std::make_tuple(2, 1),
                                                              std::make_tuple(1, 4), std::make_tuple(2, 2),
                                                              std::make_tuple(4, 2), std::make_tuple(2, 4)),
                                            ::testing::Values("sgd", "adam", "lars", "lamb"), ::testing::Bool()));

TEST(FsdpTensorParallel, CollectivesPerStep) {
  const MlpConfig m = model(true);
  const int dp = 2, tp = 2, L = m.layers;
  dsml::FsdpTensorParallelTrainer trainer(dsml::RankGrid{dp, tp, 1}, m, test_optimizer("sgd"), dsml::init_mlp(m, 42));
  const dsml::ParallelStep result = trainer.step(dsml::TeacherTask(m, 7).make_batch(0, kBatch));
  int gathers = 0, scatters = 0, reduces = 0;
  for (const dsml::CommRecord& r : result.comm.records()) {
    gathers += r.kind == "all-gather";
    scatters += r.kind == "reduce-scatter";
    reduces += r.kind == "all-reduce";
    EXPECT_EQ(r.ranks, r.kind == "all-reduce" ? tp : dp) << r.kind << " " << r.label;
  }
  EXPECT_EQ(gathers, 2 * L * tp);  // before forward and before backward, one per tp column
  EXPECT_EQ(scatters, L * tp);
  EXPECT_EQ(reduces, 2 * L * dp);  // TP's f and g inside each replica
  // Ring volumes: a slice has n = 2·D·F/tp doubles; all-gather and reduce-scatter each send (dp−1)/dp·n·8 from
  // the busiest rank; TP's all-reduces move 2·(tp−1)/tp·(B/dp)·D·8.
  const double slice = 2.0 * m.width * m.hidden / tp;
  EXPECT_DOUBLE_EQ(result.comm.bytes("all-gather"), 2 * L * tp * (dp - 1.0) / dp * slice * 8);
  EXPECT_DOUBLE_EQ(result.comm.bytes("reduce-scatter"), L * tp * (dp - 1.0) / dp * slice * 8);
  EXPECT_DOUBLE_EQ(result.comm.bytes("all-reduce"),
                   2 * L * dp * 2.0 * (tp - 1) / tp * (kBatch / dp) * m.width * 8);
}

TEST(FsdpTensorParallel, EveryRankHoldsOneOverDpTimesTpOfTheState) {
  const MlpConfig m = model(true);
  const int dp = 2, tp = 4;
  dsml::FsdpTensorParallelTrainer trainer(dsml::RankGrid{dp, tp, 1}, m, test_optimizer("adam"), dsml::init_mlp(m, 42));
  const dsml::ParallelStep result = trainer.step(dsml::TeacherTask(m, 7).make_batch(0, kBatch));
  ASSERT_EQ(result.memory.size(), static_cast<std::size_t>(dp * tp));
  const double params = 8.0 * m.layers * 2 * m.width * m.hidden / (dp * tp);
  const double activations = 8.0 * m.layers * (kBatch / dp) * (m.width + m.hidden / tp);
  for (const dsml::MemoryBreakdown& mem : result.memory) {
    EXPECT_DOUBLE_EQ(mem.params, params);
    EXPECT_DOUBLE_EQ(mem.grads, params);
    EXPECT_DOUBLE_EQ(mem.optimizer, 2 * params);
    EXPECT_DOUBLE_EQ(mem.activations, activations);
  }
}

// LARS/LAMB: one all-reduce of 2 sums of squares per tensor (2L tensors) over all dp·tp ranks per step.
TEST(FsdpTensorParallel, LayerwiseOptimizersAllReduceTheirSquaredNorms) {
  const MlpConfig m = model(true);
  for (const char* kind : {"lars", "lamb", "momentum"}) {
    dsml::FsdpTensorParallelTrainer trainer(dsml::RankGrid{2, 2, 1}, m, test_optimizer(kind), dsml::init_mlp(m, 42));
    const dsml::ParallelStep result = trainer.step(dsml::TeacherTask(m, 7).make_batch(0, kBatch));
    const std::vector<dsml::CommRecord> norms = records_labelled(result.comm, "trust-ratio norms");
    EXPECT_EQ(norms.size(), std::string(kind) == "momentum" ? 0u : 1u) << kind;
    for (const dsml::CommRecord& r : norms) {
      EXPECT_EQ(r.kind, "all-reduce");
      EXPECT_EQ(r.ranks, 4);
    }
  }
}

TEST(FsdpTensorParallel, BadGridsThrowReadableErrors) {
  const MlpConfig m = model(true);
  const MlpParams p = dsml::init_mlp(m, 42);
  expect_error([&] { dsml::FsdpTensorParallelTrainer(dsml::RankGrid{2, 2, 2}, m, test_optimizer("sgd"), p); },
               "fsdp-tp runs on a grid with pp = 1 (it uses only dp and tp), got dp = 2, tp = 2, pp = 2");
  expect_error([&] { dsml::FsdpTensorParallelTrainer(dsml::RankGrid{2, 3, 1}, m, test_optimizer("sgd"), p); },
               "not divisible by tp = 3");
  dsml::FsdpTensorParallelTrainer trainer(dsml::RankGrid{3, 1, 1}, m, test_optimizer("sgd"), p);
  expect_error([&] { trainer.step(dsml::TeacherTask(m, 7).make_batch(0, kBatch)); },
               "B = 16 rows does not split evenly over dp = 3");
}

}  // namespace
