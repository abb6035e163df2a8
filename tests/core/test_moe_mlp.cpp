// The MLP stack with MoE blocks (dsml/moe_mlp.h): which blocks are MoE, gradients against central finite
// differences through dense and MoE blocks (tokens dropped included), one MoE block equal to the expert-parallel
// layer of dsml/expert_parallel.h with one group per rank, single-device training that learns, bad configs named.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "dsml/error.h"
#include "dsml/expert_parallel.h"
#include "dsml/moe_mlp.h"
#include "dsml/teacher_task.h"
#include "moe_test_support.h"
#include "test_support.h"

namespace {

using dsml::MoeMlpConfig;

MoeMlpConfig stack(int layers, int top_k, double capacity_factor, int groups = 1, int every = 2) {
  MoeMlpConfig c;
  c.mlp.layers = layers;
  c.mlp.width = 6;
  c.mlp.hidden = 8;
  c.experts = 4;
  c.top_k = top_k;
  c.capacity_factor = capacity_factor;
  c.groups = groups;
  c.moe_every = every;
  return c;
}

TEST(MoeMlp, EveryOtherBlockIsMoeAndTheDenseBlocksStartAsTheDenseModel) {
  const MoeMlpConfig c = stack(4, 1, 1.0);
  EXPECT_FALSE(dsml::is_moe_block(c, 0));
  EXPECT_TRUE(dsml::is_moe_block(c, 1));
  EXPECT_FALSE(dsml::is_moe_block(c, 2));
  EXPECT_TRUE(dsml::is_moe_block(c, 3));
  const dsml::MoeMlpParams p = dsml::init_moe_mlp(c, 3);
  const dsml::MlpParams dense = dsml::init_mlp(c.mlp, 3);
  EXPECT_EQ(p.blocks[0].dense.w_in, dense.blocks[0].w_in);
  EXPECT_EQ(p.blocks[2].dense.w_out, dense.blocks[2].w_out);
  EXPECT_EQ(p.blocks[1].moe.router.rows(), 4);
  EXPECT_EQ(p.blocks[1].moe.experts.size(), 4u);
  EXPECT_NE(p.blocks[1].moe.router, p.blocks[3].moe.router);
  // 2 dense blocks × 2 tensors + 2 MoE blocks × (router + 4 experts × 2).
  EXPECT_EQ(dsml::parameter_tensors(p).size(), 4u + 2u * 9u);
}

double stack_loss(const MoeMlpConfig& c, const dsml::MoeMlpParams& p, const Eigen::MatrixXd& x,
                  const Eigen::MatrixXd& t) {
  return dsml::mse_loss(dsml::moe_mlp_forward(c, p, x).output, t);
}

class MoeMlpGradient : public ::testing::TestWithParam<std::tuple<int, double>> {};

TEST_P(MoeMlpGradient, MatchesCentralFiniteDifferences) {
  const auto [k, factor] = GetParam();
  const MoeMlpConfig c = stack(3, k, factor, 2);
  dsml::MoeMlpParams p = dsml::init_moe_mlp(c, 5);
  const dsml::TeacherTask task(c.mlp, 9);
  dsml::Batch b = task.make_batch(0, 8);
  const dsml::MoeMlpForward f = dsml::moe_mlp_forward(c, p, b.inputs);
  if (factor < 1) {
    EXPECT_GT(f.moe[1].routing.dropped, 0) << "a small capacity must drop tokens";
  }
  const dsml::MoeMlpGradients g =
      dsml::moe_mlp_backward(c, p, f, dsml::mse_loss_gradient(f.output, b.targets));
  const double h = 1e-6;
  auto check = [&](Eigen::MatrixXd& value, const Eigen::MatrixXd& grad, int tensor) {
    for (Eigen::Index i = 0; i < value.size(); ++i) {
      const double keep = value(i);
      value(i) = keep + h;
      const double up = stack_loss(c, p, b.inputs, b.targets);
      value(i) = keep - h;
      const double down = stack_loss(c, p, b.inputs, b.targets);
      value(i) = keep;
      EXPECT_NEAR(grad(i), (up - down) / (2 * h), 1e-7) << "tensor " << tensor << " entry " << i;
    }
  };
  const auto values = dsml::parameter_tensors(p);
  const auto grads = dsml::parameter_tensors(g.params);
  ASSERT_EQ(values.size(), grads.size());
  for (std::size_t i = 0; i < values.size(); ++i) check(*values[i], *grads[i], static_cast<int>(i));
  check(b.inputs, g.d_input, -1);
}

INSTANTIATE_TEST_SUITE_P(TopKCapacity, MoeMlpGradient,
                         ::testing::Combine(::testing::Values(1, 2), ::testing::Values(0.5, 2.0)));

class OneMoeBlock : public ::testing::TestWithParam<std::tuple<int, int, double>> {};

TEST_P(OneMoeBlock, EqualsTheExpertParallelLayerWithOneGroupPerRank) {
  const auto [R, k, factor] = GetParam();
  const MoeMlpConfig c = stack(1, k, factor, R, 1);
  const dsml::MoeMlpParams p = dsml::init_moe_mlp(c, 21);
  const dsml::Batch b = dsml::TeacherTask(c.mlp, 4).make_batch(0, 16);
  const dsml::MoeMlpForward f = dsml::moe_mlp_forward(c, p, b.inputs);
  const dsml::MoeMlpGradients g = dsml::moe_mlp_backward(c, p, f, dsml::mse_loss_gradient(f.output, b.targets));
  const dsml::ExpertParallelStep ep =
      dsml::expert_parallel_step(dsml::moe_layer_config(c), p.blocks[0].moe, R, b.inputs, b.targets);
  EXPECT_LT(relative(ep.output, f.output), 1e-14);
  EXPECT_LT(relative(ep.grads.d_input, g.d_input), 1e-13);
  EXPECT_LT(relative(ep.grads.router, g.params.blocks[0].moe.router), 1e-13);
  for (int e = 0; e < c.experts; ++e) {
    EXPECT_LT(relative(ep.grads.experts[e].blocks[0].w_in, g.params.blocks[0].moe.experts[e].blocks[0].w_in), 1e-13);
    EXPECT_LT(relative(ep.grads.experts[e].blocks[0].w_out, g.params.blocks[0].moe.experts[e].blocks[0].w_out), 1e-13);
  }
  EXPECT_EQ(ep.load, f.moe[0].routing.load);
  EXPECT_EQ(ep.dropped, f.moe[0].routing.dropped);
}

INSTANTIATE_TEST_SUITE_P(RanksTopKCapacity, OneMoeBlock,
                         ::testing::Combine(::testing::Values(1, 2, 4), ::testing::Values(1, 2),
                                            ::testing::Values(0.5, 1.25)));

TEST(MoeMlp, SingleDeviceTrainingLearnsAndReportsTheLastStepsLoad) {
  for (const auto& optimizer : {dsml::OptimizerConfig{dsml::OptimizerKind::adam, 0.01},
                                dsml::OptimizerConfig{dsml::OptimizerKind::sgd, 0.1}}) {
    const MoeMlpConfig c = stack(4, 2, 1.0, 4);
    const dsml::MoeMlpRun run = dsml::train_moe_mlp(c, optimizer, 32, 60, 7);
    ASSERT_EQ(run.losses.size(), 60u);
    EXPECT_LT(run.losses.back(), 0.5 * run.losses.front()) << dsml::optimizer_name(optimizer.kind);
    ASSERT_EQ(run.last_load.size(), 2u);
    EXPECT_EQ(run.assignments, 32 * 2 * 2);  // B tokens × k choices × 2 MoE blocks, what `dropped` counts out of
    EXPECT_EQ(run.last_load[0].block, 1);
    EXPECT_EQ(run.last_load[1].block, 3);
    for (const dsml::MoeBlockLoad& load : run.last_load) {
      int wanted = 0, kept = 0;
      for (int e = 0; e < c.experts; ++e) {
        wanted += load.wanted[e];
        kept += load.kept[e];
        EXPECT_LE(load.kept[e], load.wanted[e]);
      }
      EXPECT_EQ(wanted, 32 * 2);  // B tokens × k choices
      EXPECT_EQ(kept + load.dropped, wanted);
    }
  }
}

TEST(MoeMlp, BadConfigsAreNamed) {
  MoeMlpConfig c = stack(4, 1, 1.0);
  c.moe_every = 5;
  EXPECT_NE(error_of([&] { dsml::validate(c); }).find("moe_every must be between 1 and"), std::string::npos);
  c = stack(4, 1, 1.0);
  c.mlp.residual = false;
  EXPECT_NE(error_of([&] { dsml::validate(c); }).find("must be residual"), std::string::npos);
  c = stack(4, 3, 1.0);
  EXPECT_NE(error_of([&] { dsml::validate(c); }).find("top_k must be 1 or 2"), std::string::npos);
  c = stack(4, 1, 1.0, 3);
  const dsml::OptimizerConfig sgd{dsml::OptimizerKind::sgd, 0.1};
  EXPECT_NE(error_of([&] { dsml::train_moe_mlp(c, sgd, 16, 1, 1); }).find("divisible by the 3 token groups"),
            std::string::npos);
  const dsml::MoeMlpParams p = dsml::init_moe_mlp(stack(2, 1, 1.0), 1);
  EXPECT_NE(error_of([&] { dsml::moe_mlp_forward(stack(4, 1, 1.0), p, Eigen::MatrixXd::Zero(4, 6)); })
                .find("must have L = 4 blocks, got 2"),
            std::string::npos);
}

}  // namespace
