// expert_parallel_check.cpp — expert parallelism against its single-device reference on one batch
// (dsml/expert_parallel.h): the number a page shows next to "equal to the single-device MoE".
#include <algorithm>

#include "dsml/error.h"
#include "dsml/expert_parallel.h"
#include "dsml/teacher_task.h"

namespace dsml {
namespace {

double relative(const Eigen::MatrixXd& a, const Eigen::MatrixXd& ref) {
  const double scale = ref.norm();
  return scale > 0 ? (a - ref).norm() / scale : (a - ref).norm();
}

}  // namespace

ExpertParallelCheck check_expert_parallel(const MoeConfig& model, int ranks, int batch, std::uint64_t seed) {
  validate(model);
  if (batch < 1) throw Error("batch must be >= 1, got " + std::to_string(batch));
  MlpConfig data_shape = expert_config(model);
  const Batch data = TeacherTask(data_shape, seed).make_batch(0, batch);
  MoeConfig reference = model;
  reference.groups = ranks;
  const MoeParams params = init_moe(model, student_seed(seed));
  ExpertParallelCheck check;
  check.step = expert_parallel_step(model, params, ranks, data.inputs, data.targets);  // checks R and B first
  const MoeForward f = moe_forward(reference, params, data.inputs);
  const MoeGradients g = moe_backward(reference, params, data.inputs, f, mse_loss_gradient(f.output, data.targets));
  check.output_relative_difference = relative(check.step.output, f.output);
  double worst = std::max(relative(check.step.grads.router, g.router), relative(check.step.grads.d_input, g.d_input));
  for (std::size_t e = 0; e < g.experts.size(); ++e) {
    worst = std::max(worst, relative(check.step.grads.experts[e].blocks[0].w_in, g.experts[e].blocks[0].w_in));
    worst = std::max(worst, relative(check.step.grads.experts[e].blocks[0].w_out, g.experts[e].blocks[0].w_out));
  }
  check.gradient_relative_difference = worst;
  return check;
}

}  // namespace dsml
