// single_device.cpp — the single-device reference (see dsml/single_device.h): the whole model, the whole batch.
#include "dsml/single_device.h"

#include <string>

#include "dsml/error.h"

namespace dsml {

double reference_step(const MlpConfig& config, Optimizer& optimizer, MlpParams& params, const Batch& batch) {
  const MlpForward forward = mlp_forward(config, params, batch.inputs);
  const double loss = mse_loss(forward.output, batch.targets);
  const MlpGradients grads = mlp_backward(config, params, forward, mse_loss_gradient(forward.output, batch.targets));
  optimizer.step(params, grads.params);
  return loss;
}

SingleDevice::SingleDevice(const RankGrid& grid, const MlpConfig& model, const OptimizerConfig& optimizer,
                           const MlpParams& initial)
    : grid_(grid), model_(model), optimizer_(optimizer), params_(initial) {
  check_grid(Strategy::single, grid_);
  validate(model_);
  check_shapes(model_, initial, "initial params");
}

ParallelStep SingleDevice::step(const Batch& global_batch) {
  ParallelStep out;
  out.loss = reference_step(model_, optimizer_, params_, global_batch);
  // What the step held: the model, its gradient, the optimizer's moments, and what mlp_forward kept for backward
  // (every block's x and H: mlp_stack_activation_bytes counts exactly those), all fp64.
  const double psi = static_cast<double>(parameter_count(model_));
  MemoryBreakdown m;
  m.params = 8 * psi;
  m.grads = 8 * psi;
  for (const auto* moments : {&optimizer_.state().first, &optimizer_.state().second})
    for (const Eigen::MatrixXd& t : *moments) m.optimizer += 8.0 * static_cast<double>(t.size());
  m.activations = mlp_stack_activation_bytes(static_cast<double>(global_batch.inputs.rows()), model_.width,
                                             model_.hidden, model_.layers, 8);
  m.total = m.params + m.grads + m.optimizer + m.activations;
  out.memory.push_back(m);
  return out;
}

std::vector<Batch> teacher_batches(const MlpConfig& model, std::uint64_t seed, int steps, int batch) {
  if (steps < 1) throw Error("steps must be >= 1, got " + std::to_string(steps));
  const TeacherTask task(model, seed);
  std::vector<Batch> batches;
  batches.reserve(static_cast<std::size_t>(steps));
  for (int s = 0; s < steps; ++s) batches.push_back(task.make_batch(static_cast<std::uint64_t>(s), batch));
  return batches;
}

SingleDeviceRun teacher_task_run(const MlpConfig& model, const OptimizerConfig& optimizer, std::uint64_t seed,
                                 int steps, int batch) {
  return single_device_run(model, optimizer, init_student(model, seed), teacher_batches(model, seed, steps, batch));
}

}  // namespace dsml
