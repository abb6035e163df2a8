#include "parallel/micro_batches.h"

#include <string>
#include <utility>

#include "dsml/comm.h"
#include "dsml/error.h"

namespace dsml::micro_batches {

void check_batch(const Batch& batch, int width) {
  const Eigen::Index rows = batch.inputs.rows();
  if (rows < 1 || batch.inputs.cols() != width || batch.targets.rows() != rows || batch.targets.cols() != width)
    throw Error("batch inputs and targets must both be B x D = B x " + std::to_string(width) + " with B >= 1");
}

void require_valid_schedule(const PipelineCheck& check, const std::string& name) {
  if (!check.valid) throw Error("schedule \"" + name + "\" is not valid: " + check.message);
}

Rows cut(Eigen::Index batch_rows, int m) {
  if (m < 1) throw Error("a step needs m >= 1 micro-batches, got " + std::to_string(m));
  if (m > batch_rows)
    throw Error("a batch of B = " + std::to_string(batch_rows) + " rows cannot be cut into m = " + std::to_string(m) +
                " micro-batches; use m <= B");
  const std::vector<std::size_t> sizes = shard_sizes(static_cast<std::size_t>(batch_rows), m);
  Rows cut;
  cut.offset.assign(static_cast<std::size_t>(m), 0);
  cut.rows.assign(static_cast<std::size_t>(m), 0);
  for (int i = 0; i < m; ++i) {
    cut.rows[i] = static_cast<Eigen::Index>(sizes[i]);
    if (i > 0) cut.offset[i] = cut.offset[i - 1] + cut.rows[i - 1];
  }
  return cut;
}

Eigen::MatrixXd inputs(const Batch& batch, const Rows& cut, int i) {
  return batch.inputs.middleRows(cut.offset[i], cut.rows[i]);
}

WeightedLoss weighted_loss(const Batch& batch, const Rows& cut, int i, const Eigen::MatrixXd& output) {
  const Eigen::MatrixXd target = batch.targets.middleRows(cut.offset[i], cut.rows[i]);
  const double weight = static_cast<double>(cut.rows[i]) / static_cast<double>(batch.inputs.rows());
  return {weight * mse_loss(output, target), weight * mse_loss_gradient(output, target)};
}

MlpForward forward(const MlpConfig& stage_model, const MlpParams& params, const Batch& batch, const Rows& cut, int i,
                   bool first, bool last, Eigen::MatrixXd& input, Eigen::MatrixXd& d_output, double& loss) {
  const Eigen::MatrixXd x = first ? inputs(batch, cut, i) : std::move(input);
  input.resize(0, 0);
  MlpForward kept = mlp_forward(stage_model, params, x);  // (B_i, D) out, blocks' x and H kept
  if (last) {  // the loss of micro-batch i, weighted B_i/B so the sum is the global mean
    WeightedLoss weighted = weighted_loss(batch, cut, i, kept.output);
    loss += weighted.loss;
    d_output = std::move(weighted.gradient);
  }
  return kept;
}

void accumulate(MlpParams& into, const MlpParams& add) {
  std::vector<Eigen::MatrixXd*> acc = parameter_tensors(into);
  std::vector<const Eigen::MatrixXd*> more = parameter_tensors(add);
  for (std::size_t k = 0; k < acc.size(); ++k) *acc[k] += *more[k];
}

}  // namespace dsml::micro_batches
