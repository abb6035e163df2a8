// mse_loss.cpp — mean squared error against the teacher's targets, and its gradient.
//
//   loss = Σ_{b,d} (Y_bd − T_bd)² / (B·D)          ∂loss/∂Y = 2·(Y − T) / (B·D)    (B, D)
// A mean, not a sum: p data-parallel ranks each holding B/p rows compute gradients whose average is exactly
// the full-batch gradient (up to rounding), which is what the all-reduce in data parallelism relies on.
#include <cmath>
#include <string>

#include "dsml/error.h"
#include "dsml/mlp.h"

namespace dsml {

namespace {

void require_same_shape(const Eigen::MatrixXd& output, const Eigen::MatrixXd& target) {
  if (output.size() == 0)
    throw Error("the loss needs a non-empty output, got " + std::to_string(output.rows()) + " x " +
                std::to_string(output.cols()));
  if (output.rows() != target.rows() || output.cols() != target.cols())
    throw Error("output and target must have the same shape, got " + std::to_string(output.rows()) + " x " +
                std::to_string(output.cols()) + " and " + std::to_string(target.rows()) + " x " +
                std::to_string(target.cols()));
}

}  // namespace

double mse_loss(const Eigen::MatrixXd& output, const Eigen::MatrixXd& target) {
  require_same_shape(output, target);
  return (output - target).squaredNorm() / static_cast<double>(output.size());
}

Eigen::MatrixXd mse_loss_gradient(const Eigen::MatrixXd& output, const Eigen::MatrixXd& target) {
  require_same_shape(output, target);
  return (2.0 / static_cast<double>(output.size())) * (output - target);
}

}  // namespace dsml
