// The MoE layer (dsml/moe.h) and expert parallelism (dsml/expert_parallel.h): routing and dropping by hand,
// gradients against central finite differences, the R-rank run equal to the single-device layer (groups = R) in
// outputs and gradients, all-to-all bytes from the trace, and the all-to-all priced on topologies.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <tuple>

#include "dsml/error.h"
#include "dsml/expert_parallel.h"
#include "dsml/moe.h"
#include "dsml/teacher_task.h"
#include "moe_test_support.h"
#include "test_support.h"

namespace {

using dsml::MoeConfig;
using dsml::MoeParams;

MoeConfig config(int top_k, double capacity_factor, int groups = 1) { return small_moe(top_k, capacity_factor, groups); }

TEST(MoeRouter, CapacityDropsTheLateTokensWhichPassThrough) {
  // D = 1, E = 2, router rows (+1, −1): a positive x prefers expert 0. Four positive tokens, k = 1, factor 1:
  // C = ⌈1·1·4/2⌉ = 2, so tokens 0 and 1 go to expert 0, tokens 2 and 3 are dropped and come out unchanged.
  MoeConfig c;
  c.width = 1;
  c.hidden = 3;
  c.experts = 2;
  c.top_k = 1;
  c.capacity_factor = 1.0;
  MoeParams p = dsml::init_moe(c, 1);
  p.router.resize(2, 1);
  p.router << 1.0, -1.0;
  Eigen::MatrixXd x(4, 1);
  x << 0.5, 1.0, 1.5, 2.0;
  const dsml::MoeForward f = dsml::moe_forward(c, p, x);
  EXPECT_EQ(f.routing.capacity, 2);
  EXPECT_EQ(f.routing.load, (std::vector<int>{2, 0}));
  EXPECT_EQ(f.routing.wanted, (std::vector<int>{4, 0}));
  EXPECT_EQ(f.routing.dropped, 2);
  EXPECT_EQ(f.routing.unrouted_tokens, 2);
  EXPECT_DOUBLE_EQ(f.routing.gate[0][0], 1.0 / (1.0 + std::exp(-1.0)));  // softmax(0.5, −0.5)₀ = σ(1)
  EXPECT_EQ(f.output(2, 0), 1.5);
  EXPECT_EQ(f.output(3, 0), 2.0);
  EXPECT_NE(f.output(0, 0), 0.5);
}

TEST(MoeRouter, TopTwoGatesAreRenormalisedAndFirstChoicesGoFirst) {
  const MoeConfig c = config(2, 0.5);  // C = ⌈0.5·2·8/4⌉ = 2
  const MoeParams p = dsml::init_moe(c, 3);
  const dsml::MoeRouting r = dsml::moe_route(c, p, random_matrix(8, c.width, 9));
  EXPECT_EQ(r.capacity, 2);
  int kept = 0;
  for (int t = 0; t < 8; ++t) {
    EXPECT_NEAR(r.gate[t][0] + r.gate[t][1], 1.0, 1e-15);
    EXPECT_GE(r.gate[t][0], r.gate[t][1]);
    kept += (r.slot[t][0] >= 0) + (r.slot[t][1] >= 0);
  }
  EXPECT_EQ(kept + r.dropped, 16);
  for (int e = 0; e < 4; ++e) EXPECT_LE(r.load[e], 2);
  // A second choice is only kept if no first choice to the same expert was dropped.
  for (int e = 0; e < 4; ++e) {
    bool first_dropped = false, second_kept = false;
    for (int t = 0; t < 8; ++t) {
      if (r.expert[t][0] == e && r.slot[t][0] < 0) first_dropped = true;
      if (r.expert[t][1] == e && r.slot[t][1] >= 0) second_kept = true;
    }
    EXPECT_FALSE(first_dropped && second_kept) << "expert " << e;
  }
}

// loss = mse(y, T) of the single-device layer.
double moe_loss(const MoeConfig& c, const MoeParams& p, const Eigen::MatrixXd& x, const Eigen::MatrixXd& t) {
  return dsml::mse_loss(dsml::moe_forward(c, p, x).output, t);
}

class MoeGradient : public ::testing::TestWithParam<std::tuple<int, double>> {};

TEST_P(MoeGradient, MatchesCentralFiniteDifferences) {
  const auto [k, factor] = GetParam();
  const MoeConfig c = config(k, factor);
  MoeParams p = dsml::init_moe(c, 5);
  Eigen::MatrixXd x = random_matrix(8, c.width, 11);
  const Eigen::MatrixXd t = random_matrix(8, c.width, 12);
  const dsml::MoeForward f = dsml::moe_forward(c, p, x);
  const dsml::MoeGradients g = dsml::moe_backward(c, p, x, f, dsml::mse_loss_gradient(f.output, t));
  const double h = 1e-6;
  auto check = [&](Eigen::MatrixXd& value, const Eigen::MatrixXd& grad, const char* what) {
    for (Eigen::Index i = 0; i < value.size(); ++i) {
      const double keep = value(i);
      value(i) = keep + h;
      const double up = moe_loss(c, p, x, t);
      value(i) = keep - h;
      const double down = moe_loss(c, p, x, t);
      value(i) = keep;
      EXPECT_NEAR(grad(i), (up - down) / (2 * h), 1e-7) << what << " " << i;
    }
  };
  check(p.router, g.router, "router");
  check(x, g.d_input, "input");
  for (int e = 0; e < c.experts; ++e) {
    check(p.experts[e].blocks[0].w_in, g.experts[e].blocks[0].w_in, "w_in");
    check(p.experts[e].blocks[0].w_out, g.experts[e].blocks[0].w_out, "w_out");
  }
}

INSTANTIATE_TEST_SUITE_P(TopKCapacity, MoeGradient,
                         ::testing::Combine(::testing::Values(1, 2), ::testing::Values(0.5, 1.0, 4.0)));

class ExpertParallelEquality : public ::testing::TestWithParam<std::tuple<int, int, double>> {};

TEST_P(ExpertParallelEquality, EqualsTheSingleDeviceLayerWithOneGroupPerRank) {
  const auto [R, k, factor] = GetParam();
  const int B = 16;
  MoeConfig c = config(k, factor, R);
  const MoeParams p = dsml::init_moe(c, 21);
  const Eigen::MatrixXd x = random_matrix(B, c.width, 31), t = random_matrix(B, c.width, 32);
  const dsml::MoeForward f = dsml::moe_forward(c, p, x);
  const dsml::MoeGradients g = dsml::moe_backward(c, p, x, f, dsml::mse_loss_gradient(f.output, t));
  const dsml::ExpertParallelStep ep = dsml::expert_parallel_step(c, p, R, x, t);
  EXPECT_LT(relative(ep.output, f.output), 1e-14);
  EXPECT_NEAR(ep.loss, dsml::mse_loss(f.output, t), 1e-14);
  EXPECT_LT(relative(ep.grads.d_input, g.d_input), 1e-13);
  EXPECT_LT(relative(ep.grads.router, g.router), 1e-13);
  for (int e = 0; e < c.experts; ++e) {
    EXPECT_LT(relative(ep.grads.experts[e].blocks[0].w_in, g.experts[e].blocks[0].w_in), 1e-13) << e;
    EXPECT_LT(relative(ep.grads.experts[e].blocks[0].w_out, g.experts[e].blocks[0].w_out), 1e-13) << e;
  }
  EXPECT_EQ(ep.load, f.routing.load);
  EXPECT_EQ(ep.wanted, f.routing.wanted);
  EXPECT_EQ(ep.dropped, f.routing.dropped);
  EXPECT_EQ(ep.unrouted_tokens, f.routing.unrouted_tokens);
  // The trace: 4 all-to-alls of (R − 1)·(E/R)·C·D·8 bytes out of each rank, one all-reduce of the router.
  const double a2a = (R - 1) * (c.experts / R) * ep.capacity * c.width * 8.0;
  int all_to_alls = 0;
  for (const dsml::CommRecord& rec : ep.comm.records()) {
    if (rec.kind != "all-to-all") continue;
    ++all_to_alls;
    EXPECT_DOUBLE_EQ(rec.bytes_per_rank, a2a) << rec.label;
  }
  EXPECT_EQ(all_to_alls, 4);
  EXPECT_DOUBLE_EQ(ep.comm.bytes("all-to-all"), 4 * a2a);
  EXPECT_DOUBLE_EQ(ep.all_to_all_bytes_per_rank, a2a);  // the step reports what its executor logged
}

INSTANTIATE_TEST_SUITE_P(RanksTopKCapacity, ExpertParallelEquality,
                         ::testing::Combine(::testing::Values(1, 2, 4), ::testing::Values(1, 2),
                                            ::testing::Values(0.5, 1.25, 4.0)));

TEST(ExpertParallel, BadSetupsAreNamed) {
  const MoeConfig c = config(1, 1.0);
  const MoeParams p = dsml::init_moe(c, 1);
  const Eigen::MatrixXd x = random_matrix(8, c.width, 2);
  EXPECT_NE(error_of([&] { dsml::expert_parallel_step(c, p, 3, x, x); }).find("R to divide the experts: E = 4, R = 3"),
            std::string::npos);
  EXPECT_NE(error_of([&] { dsml::expert_parallel_step(c, p, 4, x.topRows(6), x.topRows(6)); }).find("divisible by R = 4"),
            std::string::npos);
  MoeConfig bad = c;
  bad.top_k = 3;
  EXPECT_NE(error_of([&] { dsml::validate(bad); }).find("top_k must be 1 or 2"), std::string::npos);
}

TEST(ExpertParallel, AllToAllPricedOnTopologies) {
  // E = 8, k = 2, factor 1.25, 512 tokens per rank, D = 6, fp16: C = ⌈1.25·2·512/8⌉ = 160, n = 8·160·6·2 = 15360 B.
  MoeConfig c = config(2, 1.25);
  c.experts = 8;
  const dsml::CostModel link{1e-6, 1.0 / 100e9};
  const dsml::AllToAllPrice flat =
      dsml::price_expert_all_to_all(c, 512, 2, link, dsml::Topology::fully_connected(8, link));
  EXPECT_EQ(flat.capacity, 160);
  EXPECT_DOUBLE_EQ(flat.bytes_per_rank, 15360);
  // One convention with the step's report: n includes the rank's own block; (R − 1)/R of it is sent.
  const dsml::ExpertAllToAllBytes bytes = dsml::expert_all_to_all_bytes(c, 8, flat.capacity, 2);
  EXPECT_DOUBLE_EQ(bytes.total, flat.bytes_per_rank);
  EXPECT_DOUBLE_EQ(bytes.sent, 7.0 / 8 * 15360);
  EXPECT_NEAR(flat.closed_form_s, 7e-6 + 7.0 / 8 * 15360 / 100e9, 1e-18);
  EXPECT_NEAR(flat.simulated_s, flat.closed_form_s, 1e-15);  // exact on one switch
  const dsml::AllToAllPrice nodes = dsml::price_expert_all_to_all(
      c, 512, 2, link, dsml::Topology::hierarchical(2, 4, link, dsml::CostModel{5e-6, 1.0 / 25e9}));
  EXPECT_GT(nodes.simulated_s, 2 * flat.simulated_s);  // the NIC carries every byte leaving the node
}

}  // namespace
