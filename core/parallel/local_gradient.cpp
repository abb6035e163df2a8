// local_gradient.cpp — a rank's share of a step: its rows of the global batch, and the mean loss and gradient over
// them (optionally accumulated over micro-batches).
#include "parallel/local_gradient.h"

#include <algorithm>
#include <string>

#include "dsml/data_parallel.h"
#include "dsml/error.h"

namespace dsml {

Batch batch_shard(const Batch& batch, int parts, int index) {
  const auto rows = static_cast<int>(batch.inputs.rows());
  if (parts < 1) throw Error("the batch must be split into >= 1 parts, got " + std::to_string(parts));
  if (index < 0 || index >= parts)
    throw Error("batch part must be in [0, " + std::to_string(parts) + "), got " + std::to_string(index));
  if (rows % parts != 0)
    throw Error("global batch of " + std::to_string(rows) + " rows is not divisible by " + std::to_string(parts) +
                " (data-parallel ranks x micro-batches); every part must have the same number of rows so that "
                "averaging the parts' mean gradients gives the full-batch gradient");
  const int size = rows / parts;
  return Batch{batch.inputs.middleRows(index * size, size), batch.targets.middleRows(index * size, size)};
}

namespace parallel {

double kept_bytes(const MlpForward& forward) {
  double values = 0;
  for (const Eigen::MatrixXd& x : forward.inputs) values += static_cast<double>(x.size());
  for (const Eigen::MatrixXd& h : forward.pre) values += static_cast<double>(h.size());
  return 8 * values;
}

LocalGradient local_gradient(const MlpConfig& config, const MlpParams& params, const Batch& rows, int micro_batches) {
  if (micro_batches < 1) throw Error("micro_batches must be >= 1, got " + std::to_string(micro_batches));
  LocalGradient out{0.0, zeros_like(config), 0.0};
  std::vector<Eigen::MatrixXd*> sum = parameter_tensors(out.grads);
  for (int m = 0; m < micro_batches; ++m) {
    const Batch micro = batch_shard(rows, micro_batches, m);
    const MlpForward forward = mlp_forward(config, params, micro.inputs);
    out.activation_bytes = std::max(out.activation_bytes, kept_bytes(forward));  // one micro-batch alive at a time
    out.loss += mse_loss(forward.output, micro.targets);
    MlpGradients g = mlp_backward(config, params, forward, mse_loss_gradient(forward.output, micro.targets));
    const std::vector<const Eigen::MatrixXd*> part = parameter_tensors(static_cast<const MlpParams&>(g.params));
    for (std::size_t i = 0; i < sum.size(); ++i) *sum[i] += *part[i];
  }
  // Mean over micro-batches. With k = 1 this divides by 1: bit-identical to a plain backward pass.
  out.loss /= micro_batches;
  for (Eigen::MatrixXd* g : sum) *g /= static_cast<double>(micro_batches);
  return out;
}

}  // namespace parallel
}  // namespace dsml
