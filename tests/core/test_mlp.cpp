// The hand-written MLP backward pass against central finite differences, activation recomputation, training on
// the teacher task, and loud errors on bad shapes.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "dsml/error.h"
#include "test_support.h"
#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/teacher_task.h"

namespace {

// ‖a − b‖ / max(‖a‖, ‖b‖): the whole tensor at once, so one tiny entry cannot dominate.
double relative_error(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  const double scale = std::max({a.norm(), b.norm(), 1e-300});
  return (a - b).norm() / scale;
}

// Central differences (f(w + h) − f(w − h)) / 2h: truncation error O(h²) ≈ 1e-10 for h = 1e-5, rounding
// ≈ 1e-16/h ≈ 1e-11 — far below the 1e-6 tolerance, so a wrong term in backward cannot hide.
Eigen::MatrixXd numeric_gradient(Eigen::MatrixXd& w, const std::function<double()>& loss) {
  const double h = 1e-5;
  Eigen::MatrixXd grad(w.rows(), w.cols());
  for (Eigen::Index r = 0; r < w.rows(); ++r) {
    for (Eigen::Index c = 0; c < w.cols(); ++c) {
      const double saved = w(r, c);
      w(r, c) = saved + h;
      const double plus = loss();
      w(r, c) = saved - h;
      const double minus = loss();
      w(r, c) = saved;
      grad(r, c) = (plus - minus) / (2.0 * h);
    }
  }
  return grad;
}

struct GradCase {
  dsml::Activation activation;
  bool residual;
  int layers;
};

// Readable names in ctest ("GetParam() = gelu, residual, L = 3" rather than raw bytes).
void PrintTo(const GradCase& c, std::ostream* os) {
  *os << dsml::activation_name(c.activation) << (c.residual ? ", residual" : ", plain") << ", L = " << c.layers;
}

class MlpGradient : public ::testing::TestWithParam<GradCase> {};

TEST_P(MlpGradient, BackwardMatchesFiniteDifferences) {
  const GradCase c = GetParam();
  const dsml::MlpConfig config{c.layers, /*width D=*/3, /*hidden F=*/5, c.activation, c.residual};
  dsml::MlpParams params = dsml::init_mlp(config, 7);
  const dsml::TeacherTask task(config, 99);
  dsml::Batch batch = task.make_batch(0, /*B=*/4);
  batch.targets += Eigen::MatrixXd::Constant(4, 3, 0.3);  // so the loss (and its gradient) is far from 0

  auto loss = [&] { return dsml::mse_loss(dsml::mlp_predict(config, params, batch.inputs), batch.targets); };
  const dsml::MlpForward forward = dsml::mlp_forward(config, params, batch.inputs);
  const dsml::MlpGradients grads =
      dsml::mlp_backward(config, params, forward, dsml::mse_loss_gradient(forward.output, batch.targets));

  for (int l = 0; l < config.layers; ++l) {
    const auto& g = grads.params.blocks[static_cast<std::size_t>(l)];
    auto& w = params.blocks[static_cast<std::size_t>(l)];
    EXPECT_LT(relative_error(g.w_in, numeric_gradient(w.w_in, loss)), 1e-6) << "block " << l << " w_in";
    EXPECT_LT(relative_error(g.w_out, numeric_gradient(w.w_out, loss)), 1e-6) << "block " << l << " w_out";
  }
  EXPECT_LT(relative_error(grads.d_input, numeric_gradient(batch.inputs, loss)), 1e-6) << "d_input";
}

std::vector<GradCase> all_grad_cases() {
  std::vector<GradCase> cases;
  for (dsml::Activation a : {dsml::Activation::relu, dsml::Activation::gelu, dsml::Activation::tanh})
    for (bool residual : {false, true})
      for (int layers : {1, 3}) cases.push_back({a, residual, layers});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(AllActivations, MlpGradient, ::testing::ValuesIn(all_grad_cases()),
                         [](const ::testing::TestParamInfo<GradCase>& info) {
                           return std::string(dsml::activation_name(info.param.activation)) +
                                  (info.param.residual ? "_residual" : "_plain") + "_L" +
                                  std::to_string(info.param.layers);
                         });

TEST(Mlp, ActivationValuesAndNames) {
  Eigen::MatrixXd h(1, 3);
  h << -1.0, 0.0, 2.0;
  const Eigen::MatrixXd relu = dsml::activate(dsml::Activation::relu, h);
  EXPECT_EQ(relu(0, 0), 0.0);
  EXPECT_EQ(relu(0, 2), 2.0);
  const Eigen::MatrixXd gelu = dsml::activate(dsml::Activation::gelu, h);
  EXPECT_NEAR(gelu(0, 0), -0.15880800939172324, 1e-15);  // ½·(−1)·(1 + tanh(√(2/π)·(−1.044715)))
  EXPECT_EQ(gelu(0, 1), 0.0);
  EXPECT_NEAR(gelu(0, 2), 1.954597694087775, 1e-15);
  EXPECT_EQ(dsml::parse_activation("tanh"), dsml::Activation::tanh);
  EXPECT_STREQ(dsml::activation_name(dsml::Activation::gelu), "gelu");
  EXPECT_EQ(error_of([] { dsml::parse_activation("sigmoid"); }),
            "activation must be one of relu, gelu, tanh, got \"sigmoid\"");
}

TEST(Mlp, RecomputedActivationsGiveBitIdenticalGradients) {
  const dsml::MlpConfig config{3, 6, 24, dsml::Activation::gelu, true};
  const dsml::MlpParams params = dsml::init_mlp(config, 1);
  const dsml::Batch batch = dsml::TeacherTask(config, 2).make_batch(5, 16);
  const dsml::MlpForward kept = dsml::mlp_forward(config, params, batch.inputs, true);
  const dsml::MlpForward lean = dsml::mlp_forward(config, params, batch.inputs, false);
  EXPECT_EQ(kept.pre.size(), 3u);
  EXPECT_TRUE(lean.pre.empty());
  EXPECT_TRUE(kept.output == lean.output);
  const Eigen::MatrixXd dy = dsml::mse_loss_gradient(kept.output, batch.targets);
  const dsml::MlpGradients a = dsml::mlp_backward(config, params, kept, dy);
  const dsml::MlpGradients b = dsml::mlp_backward(config, params, lean, dy);
  EXPECT_TRUE(a.d_input == b.d_input);  // exact ==, not NEAR
  for (std::size_t l = 0; l < 3; ++l) {
    EXPECT_TRUE(a.params.blocks[l].w_in == b.params.blocks[l].w_in) << l;
    EXPECT_TRUE(a.params.blocks[l].w_out == b.params.blocks[l].w_out) << l;
  }
}

TEST(Mlp, InitialisationIsSeededAndScaled) {
  const dsml::MlpConfig config{2, 64, 256, dsml::Activation::relu, true};
  const dsml::MlpParams a = dsml::init_mlp(config, 3);
  const dsml::MlpParams b = dsml::init_mlp(config, 3);
  const dsml::MlpParams c = dsml::init_mlp(config, 4);
  EXPECT_TRUE(a.blocks[1].w_out == b.blocks[1].w_out);
  EXPECT_FALSE(a.blocks[1].w_out == c.blocks[1].w_out);
  // Var(W_in) = 1/D, Var(W_out) = 1/F, each estimated from 16384 draws (±~1.1 % standard error).
  const double var_in = a.blocks[0].w_in.squaredNorm() / static_cast<double>(a.blocks[0].w_in.size());
  const double var_out = a.blocks[0].w_out.squaredNorm() / static_cast<double>(a.blocks[0].w_out.size());
  EXPECT_NEAR(var_in * 64, 1.0, 0.05);
  EXPECT_NEAR(var_out * 256, 1.0, 0.05);
  EXPECT_EQ(dsml::parameter_count(config), 2u * 2u * 64u * 256u);
  EXPECT_EQ(dsml::zeros_like(config).blocks[1].w_in.norm(), 0.0);
}

TEST(TeacherTask, BatchesAreDeterministicInSeedAndStep) {
  const dsml::MlpConfig config{2, 4, 8, dsml::Activation::tanh, false};
  const dsml::TeacherTask task(config, 11);
  const dsml::Batch a = task.make_batch(3, 5);
  EXPECT_TRUE(a.inputs == task.make_batch(3, 5).inputs);
  EXPECT_TRUE(a.targets == dsml::TeacherTask(config, 11).make_batch(3, 5).targets);
  EXPECT_FALSE(a.inputs == task.make_batch(4, 5).inputs);
  EXPECT_FALSE(a.inputs == dsml::TeacherTask(config, 12).make_batch(3, 5).inputs);
  EXPECT_TRUE(a.targets == dsml::mlp_predict(config, task.teacher(), a.inputs));
  // The teacher scores 0 on its own task: the student's optimum is reachable.
  EXPECT_EQ(dsml::mse_loss(dsml::mlp_predict(config, task.teacher(), a.inputs), a.targets), 0.0);
}

TEST(TeacherTask, TeacherBatchIsTheTasksBatchWhateverCameBefore) {
  // teacher_batch keeps the latest teacher: a change of seed or of any model field must draw a new one.
  dsml::MlpConfig config{2, 4, 8, dsml::Activation::tanh, false};
  dsml::MlpConfig residual = config;
  residual.residual = true;  // same shapes, different teacher outputs
  for (int round = 0; round < 2; ++round) {
    for (const dsml::MlpConfig& c : {config, residual}) {
      for (std::uint64_t seed : {11u, 12u}) {
        const dsml::Batch want = dsml::TeacherTask(c, seed).make_batch(3, 5);
        const dsml::Batch got = dsml::teacher_batch(c, seed, 3, 5);
        EXPECT_TRUE(got.inputs == want.inputs) << seed;
        EXPECT_TRUE(got.targets == want.targets) << seed << " residual " << c.residual;
      }
    }
  }
}

double train(const dsml::MlpConfig& config, dsml::OptimizerConfig optimizer_config, int steps, double* first) {
  const dsml::TeacherTask task(config, 2024);
  dsml::MlpParams student = dsml::init_mlp(config, 1);
  dsml::Optimizer optimizer(optimizer_config);
  double loss = 0.0;
  for (int step = 0; step < steps; ++step) {
    const dsml::Batch batch = task.make_batch(static_cast<std::uint64_t>(step), 32);
    const dsml::MlpForward forward = dsml::mlp_forward(config, student, batch.inputs);
    loss = dsml::mse_loss(forward.output, batch.targets);
    if (step == 0) *first = loss;
    const dsml::MlpGradients grads =
        dsml::mlp_backward(config, student, forward, dsml::mse_loss_gradient(forward.output, batch.targets));
    optimizer.step(student, grads.params);
  }
  return loss;
}

TEST(Mlp, TrainingOnTheTeacherTaskReducesTheLoss) {
  const dsml::MlpConfig config{2, 8, 32, dsml::Activation::tanh, true};
  for (const auto& [kind, lr] : {std::pair{dsml::OptimizerKind::sgd, 0.5}, std::pair{dsml::OptimizerKind::adam, 0.01}}) {
    dsml::OptimizerConfig oc;
    oc.kind = kind;
    oc.lr = lr;
    double first = 0.0;
    const double last = train(config, oc, 200, &first);
    EXPECT_LT(last, first / 10.0) << dsml::optimizer_name(kind) << ": " << first << " -> " << last;
  }
}

// The property data parallelism rests on: with a mean loss, the full-batch gradient is the average of the
// gradients of equal row shards (rank r of p takes rows [r·B/p, (r+1)·B/p)).
TEST(Mlp, AveragedShardGradientsEqualTheFullBatchGradient) {
  const dsml::MlpConfig config{2, 4, 16, dsml::Activation::gelu, true};
  const dsml::MlpParams params = dsml::init_mlp(config, 5);
  const dsml::Batch batch = dsml::TeacherTask(config, 6).make_batch(0, 8);
  auto gradients = [&](const Eigen::MatrixXd& x, const Eigen::MatrixXd& t) {
    const dsml::MlpForward forward = dsml::mlp_forward(config, params, x);
    return dsml::mlp_backward(config, params, forward, dsml::mse_loss_gradient(forward.output, t)).params;
  };
  const dsml::MlpParams full = gradients(batch.inputs, batch.targets);
  const dsml::MlpParams top = gradients(batch.inputs.topRows(4), batch.targets.topRows(4));
  const dsml::MlpParams bottom = gradients(batch.inputs.bottomRows(4), batch.targets.bottomRows(4));
  for (std::size_t l = 0; l < 2; ++l) {
    EXPECT_LT(relative_error(full.blocks[l].w_in, 0.5 * (top.blocks[l].w_in + bottom.blocks[l].w_in)), 1e-14);
    EXPECT_LT(relative_error(full.blocks[l].w_out, 0.5 * (top.blocks[l].w_out + bottom.blocks[l].w_out)), 1e-14);
  }
}

TEST(Mlp, BadShapesAndArgumentsThrowReadableErrors) {
  const dsml::MlpConfig config{2, 4, 8, dsml::Activation::relu, true};
  const dsml::MlpParams params = dsml::init_mlp(config, 0);
  EXPECT_EQ(error_of([&] { dsml::mlp_forward(config, params, Eigen::MatrixXd::Zero(3, 5)); }),
            "input X must be B x D = B x 4 with B >= 1, got 3 x 5");
  EXPECT_EQ(error_of([&] { dsml::mlp_forward(config, params, Eigen::MatrixXd::Zero(0, 4)); }),
            "input X must be B x D = B x 4 with B >= 1, got 0 x 4");
  dsml::MlpParams wrong = params;
  wrong.blocks[1].w_out = Eigen::MatrixXd::Zero(4, 3);
  EXPECT_EQ(error_of([&] { dsml::mlp_predict(config, wrong, Eigen::MatrixXd::Zero(2, 4)); }),
            "params.blocks[1].w_out must be 4 x 8, got 4 x 3");
  wrong.blocks.pop_back();
  EXPECT_EQ(error_of([&] { dsml::check_shapes(config, wrong, "grads"); }), "grads must have 2 blocks, got 1");
  EXPECT_EQ(error_of([] { dsml::init_mlp({0, 4, 8, dsml::Activation::relu, true}, 0); }),
            "layers must be >= 1, got 0");
  EXPECT_EQ(error_of([] { dsml::init_mlp({1, 4, -2, dsml::Activation::relu, true}, 0); }),
            "hidden width (F) must be >= 1, got -2");

  const dsml::MlpForward forward = dsml::mlp_forward(config, params, Eigen::MatrixXd::Ones(3, 4));
  EXPECT_EQ(error_of([&] { dsml::mlp_backward(config, params, forward, Eigen::MatrixXd::Zero(2, 4)); }),
            "d_output must match the output, 3 x 4, got 2 x 4");
  dsml::MlpForward truncated = forward;
  truncated.inputs.pop_back();
  EXPECT_EQ(error_of([&] { dsml::mlp_backward(config, params, truncated, Eigen::MatrixXd::Zero(3, 4)); }),
            "forward pass kept 1 block inputs, the model has 2 blocks");
  EXPECT_EQ(error_of([] { dsml::mse_loss(Eigen::MatrixXd::Zero(2, 3), Eigen::MatrixXd::Zero(3, 2)); }),
            "output and target must have the same shape, got 2 x 3 and 3 x 2");
  EXPECT_EQ(error_of([&] { dsml::TeacherTask(config, 1).make_batch(0, 0); }), "batch_size must be >= 1, got 0");
}

}  // namespace

// Two configs are equal exactly when every field is (the lab's teacher memo is keyed on it), and the student starts
// from the seed after the teacher's.
TEST(Mlp, ConfigEqualityComparesEveryField) {
  const dsml::MlpConfig base{2, 8, 32, dsml::Activation::gelu, true};
  EXPECT_TRUE(base == dsml::MlpConfig(base));
  for (int field = 0; field < 5; ++field) {
    dsml::MlpConfig other = base;
    if (field == 0) other.layers = 3;
    if (field == 1) other.width = 4;
    if (field == 2) other.hidden = 16;
    if (field == 3) other.activation = dsml::Activation::tanh;
    if (field == 4) other.residual = false;
    EXPECT_TRUE(base != other) << "field " << field;
  }
  const dsml::MlpParams student = dsml::init_student(base, 7), next = dsml::init_mlp(base, 8);
  EXPECT_EQ(student.blocks[0].w_in, next.blocks[0].w_in);
}
