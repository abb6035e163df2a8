// Each optimizer's first two steps on a 1 x 2 tensor against values worked out by hand from the papers'
// formulas, the learning-rate rules, the trust ratios, and loud errors on bad arguments.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dsml/error.h"
#include "test_support.h"
#include "dsml/optimizer.h"

namespace {

Eigen::MatrixXd row(double a, double b) {
  Eigen::MatrixXd m(1, 2);
  m << a, b;
  return m;
}

// Runs two steps of `config` from w0 with gradients g1 then g2 (fixed, not recomputed from w); returns w after
// each step.
std::vector<Eigen::MatrixXd> two_steps(const dsml::OptimizerConfig& config, Eigen::MatrixXd w,
                                       const Eigen::MatrixXd& g1, const Eigen::MatrixXd& g2) {
  dsml::Optimizer optimizer(config);
  std::vector<Eigen::MatrixXd> after;
  optimizer.step({&w}, {&g1});
  after.push_back(w);
  optimizer.step({&w}, {&g2});
  after.push_back(w);
  EXPECT_EQ(optimizer.state().step, 2);
  return after;
}

void expect_row(const Eigen::MatrixXd& m, double a, double b) {
  EXPECT_NEAR(m(0, 0), a, 1e-12);
  EXPECT_NEAR(m(0, 1), b, 1e-12);
}

dsml::OptimizerConfig config_for(dsml::OptimizerKind kind, double lr) {
  dsml::OptimizerConfig c;
  c.kind = kind;
  c.lr = lr;
  return c;
}

// The Sgd/Momentum/Adam cases: from w = [1, −2] with g₁ = [0.5, −1], g₂ = [0.25, 0.5] at lr 0.1, w after step 1 is
// [a1, b1] and after step 2 [a2, b2].
void expect_two_steps_from_the_common_start(dsml::OptimizerKind kind, double a1, double b1, double a2, double b2) {
  const dsml::OptimizerConfig c = config_for(kind, 0.1);
  const auto w = two_steps(c, row(1, -2), row(0.5, -1), row(0.25, 0.5));
  expect_row(w[0], a1, b1);
  expect_row(w[1], a2, b2);
}

TEST(Optim, SgdTwoSteps) {
  // w ← w − γ·g, γ = 0.1:  [1, −2] − 0.1·[0.5, −1] = [0.95, −1.9];  − 0.1·[0.25, 0.5] = [0.925, −1.95]
  expect_two_steps_from_the_common_start(dsml::OptimizerKind::sgd, 0.95, -1.9, 0.925, -1.95);
}

TEST(Optim, SgdWithWeightDecayAddsLambdaW) {
  // g' = g + λ·w = [0.5, −1] + 0.5·[1, −2] = [1, −2];  w ← [1, −2] − 0.1·[1, −2] = [0.9, −1.8]
  dsml::OptimizerConfig c = config_for(dsml::OptimizerKind::sgd, 0.1);
  c.weight_decay = 0.5;
  expect_row(two_steps(c, row(1, -2), row(0.5, -1), row(0, 0))[0], 0.9, -1.8);
}

TEST(Optim, MomentumTwoSteps) {
  // Polyak heavy ball, μ = 0.9, γ = 0.1, m₀ = 0:
  //   m₁ = g₁ = [0.5, −1]                          w₁ = [1, −2] − 0.1·m₁ = [0.95, −1.9]
  //   m₂ = 0.9·m₁ + g₂ = [0.45 + 0.25, −0.9 + 0.5] = [0.7, −0.4]
  //                                                w₂ = w₁ − 0.1·m₂ = [0.88, −1.86]
  expect_two_steps_from_the_common_start(dsml::OptimizerKind::momentum, 0.95, -1.9, 0.88, -1.86);
}

TEST(Optim, AdamTwoSteps) {
  // Kingma & Ba 2015, Alg. 1 with γ = 0.1, β₁ = 0.9, β₂ = 0.999, ε = 1e-8.
  // Step 1: m̂ = g, v̂ = g², so w₁ = w − γ·g/(|g| + ε) = [1 − 0.1·0.5/0.50000001, −2 + 0.1·1/1.00000001]
  //         = [0.900000002, −1.900000001]
  // Step 2, entry 0: m = 0.9·0.05 + 0.1·0.25 = 0.07,  m̂ = 0.07/(1 − 0.81) = 0.368421…
  //                  v = 0.999·0.00025 + 0.001·0.0625 = 0.00031225,  v̂ = v/(1 − 0.998001) = 0.156203…
  //                  w₂ = 0.900000002 − 0.1·0.368421…/(0.395225… + ε) = 0.806782040477…
  //         entry 1: m = 0.9·(−0.1) + 0.1·0.5 = −0.04, v = 0.999·0.001 + 0.001·0.25 = 0.001249
  //                  w₂ = −1.900000001 + 0.1·0.210526…/(0.790467… + ε) = −1.873366297370…
  expect_two_steps_from_the_common_start(dsml::OptimizerKind::adam, 0.900000002, -1.900000001, 0.8067820404774624, -1.873366297370903);
}

TEST(Optim, LarsTwoSteps) {
  // You, Gitman & Ginsburg 2017, Alg. 1 with γ = 0.1, η = 0.5, β (weight decay) = 0.1, μ = 0.9.
  // Step 1: ‖w‖ = ‖[3, 4]‖ = 5, ‖g‖ = ‖[0.6, 0.8]‖ = 1 → λ = 0.5·5/(1 + 0.1·5) = 5/3
  //         m₁ = 0.1·(5/3)·(g + 0.1·w) = (1/6)·[0.9, 1.2] = [0.15, 0.2],   w₁ = [2.85, 3.8]
  // Step 2: ‖w₁‖ = 4.75, ‖g₂‖ = ‖[0, 2]‖ = 2 → λ = 0.5·4.75/(2 + 0.475) = 0.959595…
  //         m₂ = 0.9·m₁ + 0.1·λ·([0, 2] + 0.1·w₁) = [0.162348…, 0.408383…],  w₂ = [2.687651…, 3.391616…]
  dsml::OptimizerConfig c = config_for(dsml::OptimizerKind::lars, 0.1);
  c.trust_coefficient = 0.5;
  c.weight_decay = 0.1;
  const auto w = two_steps(c, row(3, 4), row(0.6, 0.8), row(0, 2));
  expect_row(w[0], 2.85, 3.8);
  expect_row(w[1], 2.687651515151515, 3.3916161616161613);
}

// The per-layer trust ratio each step used, reported per tensor (what the Week 3 page plots), derived by hand.
TEST(Optim, TrustRatiosAreReportedPerTensor) {
  // LARS, η = 0.5, β = 0.1. Tensor A: ‖[3, 4]‖ = 5, ‖[0.6, 0.8]‖ = 1 → 0.5·5/(1 + 0.5) = 5/3.
  //                         Tensor B: ‖[1, 0]‖ = 1, ‖[0, 2]‖ = 2 → 0.5·1/(2 + 0.1) = 0.238095… = 5/21.
  dsml::OptimizerConfig lars = config_for(dsml::OptimizerKind::lars, 0.1);
  lars.trust_coefficient = 0.5;
  lars.weight_decay = 0.1;
  Eigen::MatrixXd a = row(3, 4), b = row(1, 0);
  const Eigen::MatrixXd ga = row(0.6, 0.8), gb = row(0, 2);
  dsml::Optimizer o(lars);
  EXPECT_TRUE(o.trust_ratios().empty());
  o.step({&a, &b}, {&ga, &gb});
  ASSERT_EQ(o.trust_ratios().size(), 2u);
  EXPECT_NEAR(o.trust_ratios()[0], 5.0 / 3.0, 1e-15);
  EXPECT_NEAR(o.trust_ratios()[1], 5.0 / 21.0, 1e-15);
  // Step 2, tensor A: w₁ = [2.85, 3.8] (LarsTwoSteps), ‖w₁‖ = 4.75, g = [0.6, 0.8] → 0.5·4.75/(1 + 0.475).
  o.step({&a, &b}, {&ga, &gb});
  EXPECT_NEAR(o.trust_ratios()[0], 0.5 * 4.75 / 1.475, 1e-12);
  // LAMB, λ = 0, step 1: m̂ = g, v̂ = g², u = g/(|g| + ε) = sign(g) (to 1e-8) → ‖u‖ = √2 for two entries:
  // ratio = ‖w‖/√2 = 5/√2 for [3, 4].
  dsml::Optimizer lamb(config_for(dsml::OptimizerKind::lamb, 0.1));
  Eigen::MatrixXd w = row(3, 4);
  const Eigen::MatrixXd g = row(0.6, -0.8);
  lamb.step({&w}, {&g});
  ASSERT_EQ(lamb.trust_ratios().size(), 1u);
  EXPECT_NEAR(lamb.trust_ratios()[0], 5.0 / std::sqrt(2.0), 1e-7);
  // SGD, momentum and Adam have no trust ratio.
  dsml::Optimizer adam(config_for(dsml::OptimizerKind::adam, 0.1));
  adam.step({&w}, {&g});
  EXPECT_TRUE(adam.trust_ratios().empty());
}

// A gradient with inf or nan is divergence: DivergedError, a dsml::Error that train_compare turns into a result.
TEST(Optim, NonFiniteGradientThrowsDivergedError) {
  dsml::Optimizer o(config_for(dsml::OptimizerKind::sgd, 0.1));
  Eigen::MatrixXd w = row(1, 2);
  const Eigen::MatrixXd g = row(std::numeric_limits<double>::infinity(), 0);
  EXPECT_THROW(o.step({&w}, {&g}), dsml::DivergedError);
}

TEST(Optim, LambTwoSteps) {
  // You et al. 2019, Alg. 2 with γ = 0.1, β₁ = 0.9, β₂ = 0.999, ε = 1e-8, λ = 0.01, φ = identity.
  // Step 1: Adam direction = g/(|g| + ε) ≈ [1, −1];  u = [1, −1] + 0.01·[3, 4] = [1.03, −0.96] (to ~1e-8)
  //         ratio = ‖w‖/‖u‖ = 5/1.408012… = 3.551104…;  w₁ = w − 0.1·ratio·u = [2.634236…, 4.340905…]
  // Step 2: u = [0.958521…, −0.222927…], ratio = ‖w₁‖/‖u‖ = 5.159680…, w₂ = [2.139669…, 4.455929…]
  dsml::OptimizerConfig c = config_for(dsml::OptimizerKind::lamb, 0.1);
  c.weight_decay = 0.01;
  const Eigen::MatrixXd w0 = row(3, 4);
  const auto w = two_steps(c, w0, row(0.6, -0.8), row(0.3, 0.4));
  expect_row(w[0], 2.6342362760597235, 4.3409059962061995);
  expect_row(w[1], 2.139669593360433, 4.455929700823545);
  // The point of LAMB: each step moves the tensor by γ·‖w‖, whatever the gradient's scale.
  EXPECT_NEAR((w[0] - w0).norm(), 0.1 * w0.norm(), 1e-12);
  EXPECT_NEAR((w[1] - w[0]).norm(), 0.1 * w[0].norm(), 1e-12);
}

TEST(Optim, TrustRatios) {
  EXPECT_NEAR(dsml::lars_trust_ratio(5, 1, 0.5, 0.1), 5.0 / 3.0, 1e-15);
  EXPECT_NEAR(dsml::lars_trust_ratio(5, 2, 0.001, 0.0), 0.0025, 1e-15);  // η·‖w‖/‖g‖
  EXPECT_EQ(dsml::lars_trust_ratio(0, 2, 0.001, 0.0), 1.0);             // zero-initialised tensor
  EXPECT_EQ(dsml::lars_trust_ratio(5, 0, 0.001, 0.0), 1.0);             // zero gradient, no decay
  EXPECT_EQ(dsml::lamb_trust_ratio(5, 2), 2.5);
  EXPECT_EQ(dsml::lamb_trust_ratio(0, 2), 1.0);
  EXPECT_EQ(dsml::lamb_trust_ratio(5, 0), 1.0);
  EXPECT_EQ(error_of([] { dsml::lars_trust_ratio(-1, 1, 0.001, 0); }),
            "weight norm must be a finite number >= 0, got -1");
}

TEST(Optim, WarmupAndLinearScaling) {
  // lr_t = base·min(1, (t+1)/w), w = 4: 0.025, 0.05, 0.075, 0.1, 0.1, …
  EXPECT_DOUBLE_EQ(dsml::warmup_lr(0.1, 0, 4), 0.025);
  EXPECT_DOUBLE_EQ(dsml::warmup_lr(0.1, 1, 4), 0.05);
  EXPECT_DOUBLE_EQ(dsml::warmup_lr(0.1, 2, 4), 0.075);
  EXPECT_EQ(dsml::warmup_lr(0.1, 3, 4), 0.1);
  EXPECT_EQ(dsml::warmup_lr(0.1, 1000, 4), 0.1);
  EXPECT_EQ(dsml::warmup_lr(0.1, 0, 0), 0.1);
  // Goyal et al. 2017: batch 8192 with reference 256 → 32× the rate (0.1 → 3.2).
  EXPECT_DOUBLE_EQ(dsml::linear_scaled_lr(0.1, 8192, 256), 3.2);
  EXPECT_DOUBLE_EQ(dsml::linear_scaled_lr(0.1, 64, 256), 0.025);

  // The optimizer applies warm-up itself: with w = 2, SGD's first step uses γ/2.
  dsml::OptimizerConfig c = config_for(dsml::OptimizerKind::sgd, 0.1);
  c.warmup_steps = 2;
  dsml::Optimizer optimizer(c);
  EXPECT_DOUBLE_EQ(optimizer.current_lr(), 0.05);
  Eigen::MatrixXd w = row(1, 1);
  const Eigen::MatrixXd g = row(1, -1);
  optimizer.step({&w}, {&g});
  expect_row(w, 0.95, 1.05);
  EXPECT_DOUBLE_EQ(optimizer.current_lr(), 0.1);
}

TEST(Optim, StateIsPlainMatricesShapedLikeTheParameters) {
  const dsml::MlpConfig mlp{2, 3, 5, dsml::Activation::relu, true};
  dsml::MlpParams params = dsml::init_mlp(mlp, 1);
  const dsml::MlpParams grads = dsml::init_mlp(mlp, 2);
  dsml::Optimizer adam(config_for(dsml::OptimizerKind::adam, 0.01));
  adam.step(params, grads);
  ASSERT_EQ(adam.state().first.size(), 4u);  // w_in, w_out per block
  ASSERT_EQ(adam.state().second.size(), 4u);
  EXPECT_EQ(adam.state().first[1].rows(), 3);  // blocks[0].w_out is (D, F) = (3, 5)
  EXPECT_EQ(adam.state().first[1].cols(), 5);
  dsml::Optimizer sgd(config_for(dsml::OptimizerKind::sgd, 0.01));
  sgd.step(params, grads);
  EXPECT_TRUE(sgd.state().first.empty());
  dsml::Optimizer momentum(config_for(dsml::OptimizerKind::momentum, 0.01));
  momentum.step(params, grads);
  EXPECT_EQ(momentum.state().first.size(), 4u);
  EXPECT_TRUE(momentum.state().second.empty());
}

TEST(Optim, BadArgumentsThrowReadableErrors) {
  auto with = [](auto change) {
    dsml::OptimizerConfig c;
    change(c);
    return error_of([&] { dsml::Optimizer optimizer(c); });
  };
  EXPECT_EQ(with([](dsml::OptimizerConfig& c) { c.lr = 0; }), "learning rate must be a finite number > 0, got 0");
  EXPECT_EQ(with([](dsml::OptimizerConfig& c) { c.beta2 = 1; }), "beta2 must be in [0, 1), got 1");
  EXPECT_EQ(with([](dsml::OptimizerConfig& c) { c.momentum = -0.5; }), "momentum must be in [0, 1), got -0.5");
  EXPECT_EQ(with([](dsml::OptimizerConfig& c) { c.epsilon = 0; }), "epsilon must be a finite number > 0, got 0");
  EXPECT_EQ(with([](dsml::OptimizerConfig& c) { c.weight_decay = -1e-4; }),
            "weight decay must be a finite number >= 0, got -0.0001");
  EXPECT_EQ(with([](dsml::OptimizerConfig& c) { c.warmup_steps = -1; }), "warmup_steps must be >= 0, got -1");
  EXPECT_EQ(error_of([] { dsml::parse_optimizer("rmsprop"); }),
            "optimizer must be one of sgd, momentum, adam, lars, lamb, got \"rmsprop\"");
  EXPECT_EQ(dsml::parse_optimizer("lamb"), dsml::OptimizerKind::lamb);
  EXPECT_EQ(error_of([] { dsml::warmup_lr(0.1, -1, 4); }), "step must be >= 0, got -1");
  EXPECT_EQ(error_of([] { dsml::linear_scaled_lr(0.1, 0, 256); }), "batch size must be a finite number > 0, got 0");

  dsml::Optimizer adam(config_for(dsml::OptimizerKind::adam, 0.1));
  Eigen::MatrixXd w = row(1, 2);
  Eigen::MatrixXd other = row(3, 4);
  const Eigen::MatrixXd g = row(0.1, 0.2);
  const Eigen::MatrixXd g_wide = Eigen::MatrixXd::Zero(1, 3);
  EXPECT_EQ(error_of([&] { adam.step({&w}, {&g, &g}); }), "got 1 parameter tensors but 2 gradient tensors");
  EXPECT_EQ(error_of([&] { adam.step({&w}, {&g_wide}); }), "gradient 0 must match its parameter, 1 x 2, got 1 x 3");
  const Eigen::MatrixXd g_nan = row(std::numeric_limits<double>::quiet_NaN(), 0);
  EXPECT_EQ(error_of([&] { adam.step({&w}, {&g_nan}); }), "gradient 0 contains nan or inf");
  adam.step({&w}, {&g});
  EXPECT_EQ(error_of([&] { adam.step({&w, &other}, {&g, &g}); }), "the optimizer state holds 1 tensors, step got 2");
  Eigen::MatrixXd w_wide = Eigen::MatrixXd::Zero(1, 3);
  EXPECT_EQ(error_of([&] { adam.step({&w_wide}, {&g_wide}); }),
            "parameter 0 changed shape: its state is 1 x 2, got 1 x 3");
  EXPECT_EQ(adam.state().step, 1);  // failed calls change nothing
}

}  // namespace
