// compressed_training.cpp — data-parallel SGD with a compressed gradient exchange (dsml/compressed_training.h).
#include "dsml/compressed_training.h"

#include <cmath>

#include "compressed_aggregation.h"
#include "dsml/error.h"
#include "dsml/stale_training.h"
#include "dsml/teacher_task.h"
#include "parallel/local_gradient.h"

namespace dsml {

void validate(const CompressedTrainingConfig& c) {
  validate(c.model);
  validate(c.compressor);
  if (c.workers < 1 || c.workers > 1024) throw Error("workers must be between 1 and 1024, got " + std::to_string(c.workers));
  if (c.batch_per_worker < 1) throw Error("batch_per_worker must be >= 1, got " + std::to_string(c.batch_per_worker));
  if (c.steps < 1) throw Error("steps must be >= 1, got " + std::to_string(c.steps));
  if (c.eval_batch < 1) throw Error("eval_batch must be >= 1, got " + std::to_string(c.eval_batch));
  require_positive("lr (learning rate)", c.lr);
}

CompressedTrainingResult train_compressed(const CompressedTrainingConfig& c) {
  validate(c);
  const TeacherTask task(c.model, c.seed);
  const Batch eval = task.make_batch(kEvalBatchStep, c.eval_batch);
  MlpParams params = init_student(c.model, c.seed);
  const auto eval_loss = [&] { return mse_loss(mlp_predict(c.model, params, eval.inputs), eval.targets); };

  CompressedTrainingResult out;
  const CompressionWire wire = compression_wire(c.compressor, c.model, c.workers);
  out.collectives = wire.collectives;
  out.bytes_per_step = wire.bytes_per_step;
  out.uncompressed_bytes_per_step = wire.uncompressed_bytes_per_step;
  out.payload_bytes = wire.payload_bytes;

  std::vector<compression::TensorState> states;
  int tensor = 0;
  for (const Eigen::MatrixXd* t : parameter_tensors(params)) {
    states.push_back(compression::initial_state(c.compressor, t->rows(), t->cols(), c.workers, c.seed, tensor++));
  }

  out.gradient_sum = zeros_like(c.model);
  out.losses.push_back(eval_loss());
  out.cumulative_bytes.push_back(0.0);
  const int b = c.batch_per_worker;
  for (int step = 0; step < c.steps; ++step) {
    const Batch all = task.make_batch(static_cast<std::uint64_t>(step), c.workers * b);
    std::vector<MlpParams> grads;
    for (int w = 0; w < c.workers; ++w) {
      const Batch rows{all.inputs.middleRows(w * b, b), all.targets.middleRows(w * b, b)};
      grads.push_back(parallel::local_gradient(c.model, params, rows, 1).grads);
    }
    auto tensors = parameter_tensors(params);
    auto sums = parameter_tensors(out.gradient_sum);
    for (std::size_t i = 0; i < tensors.size(); ++i) {
      std::vector<Eigen::MatrixXd> g;
      for (MlpParams& grad : grads) g.push_back(*parameter_tensors(grad)[i]);
      for (const Eigen::MatrixXd& m : g) *sums[i] += m / static_cast<double>(c.workers);
      const Eigen::MatrixXd u = compression::aggregate(c.compressor, c.error_feedback, g, states[i], c.seed,
                                                       static_cast<std::uint64_t>(step), static_cast<int>(i));
      *tensors[i] -= c.lr * u;
    }
    out.losses.push_back(eval_loss());
    out.cumulative_bytes.push_back(out.cumulative_bytes.back() + out.bytes_per_step);
  }

  out.mean_error = zeros_like(c.model);
  auto mean = parameter_tensors(out.mean_error);
  double squares = 0;
  for (std::size_t i = 0; i < states.size(); ++i)
    for (const Eigen::MatrixXd& e : states[i].errors) {
      *mean[i] += e / static_cast<double>(c.workers);
      squares += e.squaredNorm();
    }
  out.final_error_norm = std::sqrt(squares);
  out.params = std::move(params);
  return out;
}

}  // namespace dsml
