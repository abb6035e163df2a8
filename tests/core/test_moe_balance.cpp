// Switch Transformer's load-balancing loss (dsml/moe.h; Fedus et al. 2021 eq. 4–6): its value from f and P by hand,
// its gradient against central finite differences (the loss is smooth in the router while no first choice flips),
// expert parallelism equal to the single-device layer with the loss on, and trained, fewer dropped tokens.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "dsml/error.h"
#include "dsml/expert_parallel.h"
#include "dsml/moe.h"
#include "dsml/moe_mlp.h"
#include "dsml/optimizer.h"
#include "dsml/teacher_task.h"
#include "moe_test_support.h"

namespace {

using dsml::MoeConfig;

MoeConfig config(int top_k, int groups, double alpha) { return small_moe(top_k, 1.0, groups, alpha); }

TEST(MoeBalance, LossIsAlphaTimesETimesSumOfFP) {
  for (int groups : {1, 2, 4}) {
    const MoeConfig c = config(2, groups, 0.01);
    const dsml::MoeParams p = dsml::init_moe(c, 3);
    const Eigen::MatrixXd x = random_matrix(16, c.width, 4);
    const dsml::MoeRouting r = dsml::moe_route(c, p, x);
    double want = 0;
    const int n = 16 / groups;
    for (int g = 0; g < groups; ++g) {
      for (int i = 0; i < c.experts; ++i) {
        double f = 0, P = 0;
        for (int t = g * n; t < (g + 1) * n; ++t) {
          f += r.expert[t][0] == i ? 1.0 / n : 0.0;  // first choices only
          P += r.probs(t, i) / n;
        }
        want += 0.01 * c.experts * f * P / groups;
      }
    }
    EXPECT_NEAR(r.balance_loss, want, 1e-15) << groups;
    EXPECT_NEAR(std::accumulate(r.dispatch_fraction.begin(), r.dispatch_fraction.end(), 0.0), 1.0, 1e-12);
    EXPECT_NEAR(std::accumulate(r.mean_probability.begin(), r.mean_probability.end(), 0.0), 1.0, 1e-12);
  }
  // Uniform f and P give the minimum, α: E · E · (1/E)(1/E) = 1.
  const MoeConfig c = config(1, 1, 0.5);
  dsml::MoeParams p = dsml::init_moe(c, 3);
  p.router.setZero();  // every p = 1/E; every first choice is expert 0 (ties to the lower index): f = (1, 0, 0, 0)
  const dsml::MoeRouting r = dsml::moe_route(c, p, random_matrix(8, c.width, 5));
  EXPECT_NEAR(r.balance_loss, 0.5 * 4 * 1.0 * 0.25, 1e-15);  // α·E·f₀·P₀ = α: collapsed f, uniform P
  // α = 0: nothing computed, nothing added.
  const dsml::MoeRouting none = dsml::moe_route(config(1, 1, 0.0), p, random_matrix(8, c.width, 5));
  EXPECT_EQ(none.balance_loss, 0.0);
  EXPECT_EQ(none.balance_gradient.size(), 0);
}

TEST(MoeBalance, RouterGradientMatchesFiniteDifferences) {
  for (int k : {1, 2})
    for (int groups : {1, 2}) {
      const MoeConfig c = config(k, groups, 0.3);
      dsml::MoeParams p = dsml::init_moe(c, 7);
      const Eigen::MatrixXd x = random_matrix(8, c.width, 8), t = random_matrix(8, c.width, 9);
      const auto total = [&] {
        const dsml::MoeForward f = dsml::moe_forward(c, p, x);
        return dsml::mse_loss(f.output, t) + f.routing.balance_loss;
      };
      const dsml::MoeForward f = dsml::moe_forward(c, p, x);
      const dsml::MoeGradients g = dsml::moe_backward(c, p, x, f, dsml::mse_loss_gradient(f.output, t));
      const double h = 1e-6;
      for (Eigen::Index i = 0; i < p.router.size(); ++i) {
        const double keep = p.router(i);
        p.router(i) = keep + h;
        const double up = total();
        p.router(i) = keep - h;
        const double down = total();
        p.router(i) = keep;
        EXPECT_NEAR(g.router(i), (up - down) / (2 * h), 1e-8) << "k=" << k << " G=" << groups << " router " << i;
      }
      // The balance term moves the router only: without it the router gradient differs, the experts' do not.
      MoeConfig off = c;
      off.balance_coefficient = 0;
      const dsml::MoeGradients g0 = dsml::moe_backward(off, p, x, dsml::moe_forward(off, p, x),
                                                       dsml::mse_loss_gradient(f.output, t));
      EXPECT_GT(relative(g.router, g0.router), 1e-3);
      EXPECT_EQ(relative(g.experts[0].blocks[0].w_in, g0.experts[0].blocks[0].w_in), 0.0);
    }
}

TEST(MoeBalance, ExpertParallelEqualsTheSingleDeviceLayer) {
  for (int R : {1, 2, 4})
    for (int k : {1, 2}) {
      const MoeConfig c = config(k, R, 0.05);
      const dsml::MoeParams p = dsml::init_moe(c, 21);
      const Eigen::MatrixXd x = random_matrix(16, c.width, 31), t = random_matrix(16, c.width, 32);
      const dsml::MoeForward f = dsml::moe_forward(c, p, x);
      const dsml::MoeGradients g = dsml::moe_backward(c, p, x, f, dsml::mse_loss_gradient(f.output, t));
      const dsml::ExpertParallelStep ep = dsml::expert_parallel_step(c, p, R, x, t);
      EXPECT_NEAR(ep.balance_loss, f.routing.balance_loss, 1e-15) << "R=" << R;
      EXPECT_LT(relative(ep.grads.router, g.router), 1e-13) << "R=" << R << " k=" << k;
      EXPECT_LT(relative(ep.grads.d_input, g.d_input), 1e-13) << "R=" << R << " k=" << k;
    }
}

// Week 5's example (lessons/week5/moe_balance_setup.js): D 16, F 32, E 8, top-1, c = 1, B 64, Adam 0.01, 100 steps.
// Without the loss the router drifts onto a few experts and the capacity drops ~25% of the assignments by the end;
// Switch's α = 0.01 drops clearly fewer, and the fit is no worse.
TEST(MoeBalance, TrainingWithTheLossDropsFewerTokens) {
  dsml::MoeMlpConfig c;
  c.mlp.layers = 2;
  c.mlp.width = 16;
  c.mlp.hidden = 32;
  c.mlp.residual = true;
  c.experts = 8;
  c.top_k = 1;
  c.capacity_factor = 1.0;
  dsml::OptimizerConfig adam;
  adam.kind = dsml::OptimizerKind::adam;
  adam.lr = 0.01;
  const auto late_drops = [](const dsml::MoeMlpRun& run) {
    return std::accumulate(run.dropped.end() - 20, run.dropped.end(), 0);
  };
  const dsml::MoeMlpRun off = dsml::train_moe_mlp(c, adam, 64, 100, 1);
  c.balance_coefficient = 0.01;
  const dsml::MoeMlpRun on = dsml::train_moe_mlp(c, adam, 64, 100, 1);
  ASSERT_EQ(on.dropped.size(), 100u);
  EXPECT_EQ(off.balance_losses.back(), 0.0);
  EXPECT_NEAR(on.balance_losses.back(), 0.01, 0.002);  // near its minimum α: close to balanced
  EXPECT_GT(late_drops(off), 20 * 64 / 5);             // > 20% of the last 20 steps' assignments
  EXPECT_LT(late_drops(on), 0.8 * late_drops(off));
  EXPECT_LT(on.losses.back(), 1.1 * off.losses.back());
}

TEST(MoeBalance, BadCoefficientIsNamed) {
  EXPECT_THROW(dsml::validate(config(1, 1, -0.1)), dsml::Error);
}

}  // namespace
