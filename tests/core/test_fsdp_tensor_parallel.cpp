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
using dsml::OptimizerConfig;

constexpr int kBatch = 16;  // B

MlpConfig model(bool residual) {
  MlpConfig c;
  c.layers = 3;
  c.width = 8;
  c.hidden = 16;
  c.activation = dsml::Activation::relu;
  c.residual = residual;
  return c;
}

class FsdpTensorParallelEquality
    : public ::testing::TestWithParam<std::tuple<std::tuple<int, int>, std::string, bool>> {};

TEST_P(FsdpTensorParallelEquality, MatchesSingleDeviceAfter1And20Steps) {
  const auto [grid_dims, kind, residual] = GetParam();
  const auto [dp, tp] = grid_dims;
  const MlpConfig m = model(residual);
  const dsml::TeacherTask task(m, 7);
  MlpParams reference = dsml::init_mlp(m, 42);
  dsml::Optimizer single(test_optimizer(kind));
  dsml::FsdpTensorParallelTrainer trainer(dsml::RankGrid{dp, tp, 1}, m, test_optimizer(kind), reference);
  EXPECT_EQ(max_relative_difference(trainer.full_params(), reference), 0.0);  // sharding loses nothing
  for (int step = 0; step < 20; ++step) {
    const dsml::Batch batch = task.make_batch(static_cast<std::uint64_t>(step), kBatch);
    const dsml::MlpForward fwd = dsml::mlp_forward(m, reference, batch.inputs);
    const double loss = dsml::mse_loss(fwd.output, batch.targets);
    single.step(reference,
                dsml::mlp_backward(m, reference, fwd, dsml::mse_loss_gradient(fwd.output, batch.targets)).params);
    const dsml::ParallelStep result = trainer.step(batch);
    EXPECT_NEAR(result.loss, loss, 1e-12 * loss) << "step " << step;
    if (step == 0 || step == 19)
      EXPECT_LT(max_relative_difference(trainer.full_params(), reference), kSameModel) << "after step " << step + 1;
  }
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

void expect_error(const std::function<void()>& f, const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "expected dsml::Error containing \"" << fragment << "\"";
  } catch (const dsml::Error& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

// LARS/LAMB: one all-reduce of 2 sums of squares per tensor (2L tensors) over all dp·tp ranks per step.
TEST(FsdpTensorParallel, LayerwiseOptimizersAllReduceTheirSquaredNorms) {
  const MlpConfig m = model(true);
  for (const char* kind : {"lars", "lamb", "momentum"}) {
    dsml::FsdpTensorParallelTrainer trainer(dsml::RankGrid{2, 2, 1}, m, test_optimizer(kind), dsml::init_mlp(m, 42));
    const dsml::ParallelStep result = trainer.step(dsml::TeacherTask(m, 7).make_batch(0, kBatch));
    int found = 0;
    for (const dsml::CommRecord& r : result.comm.records())
      if (r.label == "trust-ratio norms") {
        ++found;
        EXPECT_EQ(r.kind, "all-reduce");
        EXPECT_EQ(r.ranks, 4);
      }
    EXPECT_EQ(found, std::string(kind) == "momentum" ? 0 : 1) << kind;
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
