// Interleaved 1F1B and ZB-H1 executed on the MLP (dsml/chunk_pipeline_parallel.h) against the single-device
// reference: parameters equal to 1e-12 relative after 1 and 20 steps; the split backward B + W equal to
// mlp_backward bit for bit; messages and bytes as the schedule counts them; peak chunks held as measured.
#include <gtest/gtest.h>

#include "parallel_test_support.h"

#include <algorithm>
#include <string>
#include <tuple>

#include "dsml/chunk_pipeline_parallel.h"
#include "dsml/error.h"
#include "dsml/mlp_split_backward.h"
#include "test_support.h"

namespace {

using dsml::MlpConfig;
using dsml::MlpParams;

MlpConfig model(bool residual) {
  MlpConfig c;
  c.layers = 8;
  c.width = 8;
  c.hidden = 16;
  c.activation = dsml::Activation::tanh;  // gelu with 8 residual blocks diverges at SGD's lr 0.05
  c.residual = residual;
  return c;
}

TEST(SplitBackward, InputThenWeightIsMlpBackwardBitForBit) {
  for (bool keep : {true, false}) {
    const MlpConfig m = model(true);
    const MlpParams p = dsml::init_mlp(m, 3);
    const dsml::TeacherTask task(m, 5);
    const dsml::Batch b = task.make_batch(0, 6);
    const dsml::MlpForward fwd = dsml::mlp_forward(m, p, b.inputs, keep);
    const Eigen::MatrixXd dy = dsml::mse_loss_gradient(fwd.output, b.targets);
    const dsml::MlpGradients full = dsml::mlp_backward(m, p, fwd, dy);
    const dsml::MlpInputGradients input = dsml::mlp_backward_input(m, p, fwd, dy);
    const MlpParams weight = dsml::mlp_backward_weight(m, p, fwd, input);
    EXPECT_EQ(input.d_input, full.d_input);
    for (int l = 0; l < m.layers; ++l) {
      EXPECT_EQ(weight.blocks[l].w_in, full.params.blocks[l].w_in) << l;
      EXPECT_EQ(weight.blocks[l].w_out, full.params.blocks[l].w_out) << l;
    }
  }
}

double run_side_by_side(const MlpConfig& m, const dsml::OptimizerConfig& opt, const std::string& schedule, int P,
                        int micro_batches, int v, int steps, int batch = 16) {
  SingleDeviceReference reference(m, opt);
  dsml::ChunkPipelineTrainer trainer(m, opt, reference.initial(), P, v);
  const dsml::ChunkSchedule plan = dsml::chunk_schedule_by_name(schedule, P, micro_batches, v);
  return difference_beside_single_device(trainer, reference, batch, steps, [&](auto& t, const dsml::Batch& b) {
    const dsml::ChunkPipelineStep result = t.step(b, plan);
    EXPECT_EQ(result.peak_in_flight, dsml::peak_chunk_activations(plan));
    return result.loss;
  });
}

class ChunkPipelineEquality
    : public ::testing::TestWithParam<std::tuple<std::tuple<std::string, int, int, int>, std::string, bool>> {};

TEST_P(ChunkPipelineEquality, MatchesSingleDeviceAfter1And20Steps) {
  const auto [plan, kind, residual] = GetParam();
  const auto [schedule, P, m, v] = plan;
  EXPECT_LT(run_side_by_side(model(residual), test_optimizer(kind), schedule, P, m, v, 20), kSameModel);
}

INSTANTIATE_TEST_SUITE_P(
    Schedules, ChunkPipelineEquality,
    ::testing::Combine(::testing::Values(std::make_tuple("interleaved", 2, 4, 2), std::make_tuple("interleaved", 4, 4, 2),
                                         std::make_tuple("interleaved", 2, 2, 4), std::make_tuple("interleaved", 1, 3, 8),
                                         std::make_tuple("zb-h1", 4, 8, 1), std::make_tuple("zb-h1", 2, 1, 1),
                                         std::make_tuple("zb-h1", 8, 8, 1), std::make_tuple("1f1b", 4, 6, 1),
                                         std::make_tuple("gpipe", 2, 3, 1)),
                       ::testing::Values("sgd", "adam"), ::testing::Bool()));

TEST(ChunkPipeline, MessagesAndBytesAreTheSchedulesCount) {
  // B = 16 rows in m = 4 micro-batches of 4: each message is 4·D·8 = 256 bytes.
  const MlpConfig m = model(true);
  for (const auto& [name, P, v] : {std::make_tuple("interleaved", 4, 2), std::make_tuple("zb-h1", 4, 1),
                                   std::make_tuple("interleaved", 2, 4), std::make_tuple("1f1b", 1, 1)}) {
    dsml::ChunkPipelineTrainer trainer(m, test_optimizer("sgd"), dsml::init_mlp(m, 1), P, v);
    const dsml::ChunkSchedule plan = dsml::chunk_schedule_by_name(name, P, 4, v);
    const dsml::ChunkPipelineStep step = trainer.step(dsml::TeacherTask(m, 2).make_batch(0, 16), plan);
    EXPECT_EQ(static_cast<int>(step.comm.records().size()), dsml::chunk_schedule_messages(plan)) << name;
    EXPECT_DOUBLE_EQ(step.comm.bytes("send"), 256.0 * dsml::chunk_schedule_messages(plan)) << name;
  }
}

TEST(ChunkPipeline, BytesHeldPerDevice) {
  // B = 16 rows in m = 8 micro-batches; a chunk of L/(P·v) blocks keeps x (2, D) and H (2, F) per block per
  // micro-batch from its F until its full backward or its W. m = 2P, so every device takes activations again after
  // it has freed some: a backward that freed too little would show in the peak.
  const MlpConfig m = model(true);
  for (const auto& [name, P, v] : {std::make_tuple("interleaved", 2, 2), std::make_tuple("zb-h1", 4, 1),
                                   std::make_tuple("1f1b", 4, 1)}) {
    dsml::ChunkPipelineTrainer trainer(m, test_optimizer("adam"), dsml::init_mlp(m, 1), P, v);
    const dsml::ChunkSchedule plan = dsml::chunk_schedule_by_name(name, P, 8, v);
    const dsml::ChunkPipelineStep step = trainer.step(dsml::TeacherTask(m, 2).make_batch(0, 16), plan);
    const int blocks_per_chunk = m.layers / (P * v);
    const double per_chunk_micro_batch = 8.0 * blocks_per_chunk * 2 * (m.width + m.hidden);
    const double params = 8.0 * (m.layers / P) * 2 * m.width * m.hidden;  // v chunks of the device's blocks
    ASSERT_EQ(step.memory.size(), static_cast<std::size_t>(P)) << name;
    for (int d = 0; d < P; ++d) {
      const dsml::MemoryBreakdown& mem = step.memory[d];
      EXPECT_DOUBLE_EQ(mem.activations, step.peak_in_flight[d] * per_chunk_micro_batch) << name << " device " << d;
      EXPECT_DOUBLE_EQ(mem.params, params) << name << " device " << d;
      EXPECT_DOUBLE_EQ(mem.grads, params) << name << " device " << d;
      EXPECT_DOUBLE_EQ(mem.optimizer, 2 * params) << name << " device " << d;  // Adam's two moments
      EXPECT_DOUBLE_EQ(mem.total, 4 * params + mem.activations) << name << " device " << d;
    }
    std::size_t ops = 0;
    for (const auto& device : plan.ops) ops += device.size();
    EXPECT_EQ(step.trace.size(), ops) << name;
  }
}

TEST(ChunkPipeline, BadSetupsAreNamed) {
  const MlpConfig m = model(true);
  const MlpParams p = dsml::init_mlp(m, 1);
  EXPECT_NE(error_of([&] { dsml::ChunkPipelineTrainer(m, test_optimizer("sgd"), p, 4, 3); }).find("P·v = 12"),
            std::string::npos);
  dsml::ChunkPipelineTrainer trainer(m, test_optimizer("sgd"), p, 2, 2);
  const dsml::Batch b = dsml::TeacherTask(m, 2).make_batch(0, 4);
  EXPECT_NE(error_of([&] { trainer.step(b, dsml::zero_bubble_h1(2, 2)); }).find("trainer has P = 2, v = 2"),
            std::string::npos);
  EXPECT_NE(error_of([&] { trainer.step(b, dsml::interleaved_one_f_one_b(2, 8, 2)); }).find("use m <= B"),
            std::string::npos);
}

}  // namespace

namespace {

TEST(ChunkPipeline, CompareReportsEqualityLossesAndMessages) {
  MlpConfig m = model(true);
  const dsml::ChunkSchedule plan = dsml::chunk_schedule_by_name("zb-h1", 4, 4);
  const dsml::ChunkPipelineComparison c = dsml::compare_chunk_pipeline(m, test_optimizer("adam"), plan, 8, 5, 3);
  ASSERT_EQ(c.losses.size(), 5u);
  for (int k = 0; k < 5; ++k) EXPECT_NEAR(c.losses[k], c.single_losses[k], 1e-12 * c.single_losses[k]);
  EXPECT_LT(c.max_relative_difference, kSameModel);
  EXPECT_EQ(c.messages, 2 * 4 * 3);
  EXPECT_DOUBLE_EQ(c.bytes_per_step, 24 * 2 * 8 * 8.0);  // 8 rows in 4 micro-batches of 2: 2·D·8 bytes each
  EXPECT_EQ(c.peak_in_flight, (std::vector<int>{4, 4, 4, 4}));
}

}  // namespace
