// Training under a parameter server's regime: asp without staleness is sequential SGD, bsp is synchronous data
// parallelism, and asp's updates are exactly θ_{t+1} = θ_t − η∇L(θ_{t−τ}) with the τ the simulation measured.
#include <gtest/gtest.h>

#include <cmath>

#include "dsml/single_device.h"
#include "dsml/stale_training.h"
#include "dsml/teacher_task.h"
#include "test_support.h"

using namespace dsml;

namespace {

StaleTrainingConfig small_training() {
  StaleTrainingConfig t;
  t.model = MlpConfig{2, 4, 8, Activation::gelu, true};
  t.batch_per_worker = 4;
  t.lr = 0.05;
  t.seed = 5;
  t.eval_batch = 16;
  return t;
}

ParamServerConfig regime(Consistency consistency, int workers, int servers, int iterations) {
  ParamServerConfig c;
  c.consistency = consistency;
  c.workers = workers;
  c.servers = servers;
  c.iterations = iterations;
  c.speed.distribution = SpeedDistribution::exponential;
  c.speed.seed = 9;
  c.speed.base_seconds = 1e-3;
  return c;
}

Topology star(const ParamServerConfig& c) {
  return Topology::fully_connected(c.workers + c.servers, CostModel::from_bandwidth(1e-5, 1e9));
}

double max_relative_difference(const MlpParams& a, const MlpParams& b) {
  double worst = 0;
  const auto ta = parameter_tensors(a), tb = parameter_tensors(b);
  for (std::size_t i = 0; i < ta.size(); ++i) worst = std::max(worst, (*ta[i] - *tb[i]).norm() / tb[i]->norm());
  return worst;
}

SingleDeviceRun single_device(const StaleTrainingConfig& t, int workers, int steps) {
  OptimizerConfig sgd;
  sgd.kind = OptimizerKind::sgd;
  sgd.lr = t.lr;
  return single_device_run(t.model, sgd, init_student(t.model, t.seed),
                           teacher_batches(t.model, t.seed, steps, workers * t.batch_per_worker));
}

}  // namespace

TEST(StaleTraining, OneAspWorkerIsSequentialSgdExactly) {
  const StaleTrainingConfig t = small_training();
  const auto out = train_param_server(star(regime(Consistency::asp, 1, 2, 1)), regime(Consistency::asp, 1, 2, 12), t);
  for (const PsUpdate& u : out.run.updates) ASSERT_EQ(u.tau, 0);
  EXPECT_EQ(max_relative_difference(out.training.params, single_device(t, 1, 12).params), 0.0);
  EXPECT_EQ(out.training.curve.size(), 1u + 12 * 2);  // the start, then one point per shard update
  EXPECT_EQ(out.training.curve.back().updates, 12.0);
}

TEST(StaleTraining, BspIsSynchronousDataParallelism) {
  const StaleTrainingConfig t = small_training();
  const ParamServerConfig c = regime(Consistency::bsp, 4, 3, 10);
  const auto out = train_param_server(star(c), c, t);
  EXPECT_LT(max_relative_difference(out.training.params, single_device(t, 4, 10).params), 1e-12);
  // The curve is measured on the held-out batch: the same as evaluating the single-device model.
  const Batch eval = TeacherTask(t.model, t.seed).make_batch(kEvalBatchStep, t.eval_batch);
  EXPECT_NEAR(out.training.final_loss,
              mse_loss(mlp_predict(t.model, single_device(t, 4, 10).params, eval.inputs), eval.targets), 1e-12);
}

// One shard: replay the measured (worker, iteration, τ) of every update by hand, keeping every θ_t.
TEST(StaleTraining, AspUpdatesUseTheParametersTauUpdatesOld) {
  for (bool aware : {false, true}) {
    StaleTrainingConfig t = small_training();
    t.staleness_aware = aware;
    const ParamServerConfig c = regime(Consistency::asp, 4, 1, 8);
    const auto out = train_param_server(star(c), c, t);
    const TeacherTask task(t.model, t.seed);
    std::vector<MlpParams> theta{init_student(t.model, t.seed)};
    int stale = 0;
    for (const PsUpdate& u : out.run.updates) {
      stale += u.tau > 0;
      const MlpParams& old = theta[theta.size() - 1 - static_cast<std::size_t>(u.tau)];
      const Batch all = task.make_batch(static_cast<std::uint64_t>(u.iteration), 4 * t.batch_per_worker);
      const Eigen::MatrixXd x = all.inputs.middleRows(u.worker * 4, 4), y = all.targets.middleRows(u.worker * 4, 4);
      const MlpForward f = mlp_forward(t.model, old, x);
      const MlpGradients g = mlp_backward(t.model, old, f, mse_loss_gradient(f.output, y));
      MlpParams next = theta.back();
      const double lr = aware ? t.lr / (u.tau + 1) : t.lr;
      auto w = parameter_tensors(next);
      const auto d = parameter_tensors(g.params);
      for (std::size_t i = 0; i < w.size(); ++i) *w[i] -= lr * *d[i];
      theta.push_back(next);
    }
    EXPECT_GT(stale, 10);  // the run really was stale
    EXPECT_LT(max_relative_difference(out.training.params, theta.back()), 1e-14) << "aware = " << aware;
  }
}

TEST(StaleTraining, ReproducibleBySeedAndItLearns) {
  const StaleTrainingConfig t = small_training();
  ParamServerConfig c = regime(Consistency::ssp, 4, 2, 40);
  c.staleness = 2;
  const auto a = train_param_server(star(c), c, t), b = train_param_server(star(c), c, t);
  EXPECT_EQ(a.training.final_loss, b.training.final_loss);
  EXPECT_LT(a.training.final_loss, 0.5 * a.training.curve.front().loss);
  c.speed.seed = 10;
  EXPECT_NE(train_param_server(star(c), c, t).training.final_loss, a.training.final_loss);
}

TEST(StaleTraining, BadInputSaysWhat) {
  StaleTrainingConfig t = small_training();
  ParamServerConfig c = regime(Consistency::asp, 2, 1, 3);
  const auto run = simulate_param_server(star(c), c);
  EXPECT_EQ(error_of([&] { train_on_param_server(run, c, t); }),
            "the parameter server holds 1000000 parameters but the model has 128");
  t.lr = 0;
  EXPECT_EQ(error_of([&] { train_param_server(star(c), c, t); }), "lr (learning rate) must be a finite number > 0, got 0");
}
