// sgd.cpp — plain SGD and SGD with (heavy-ball) momentum, the baselines every other optimizer modifies.
//
// With L2 weight decay λ folded into the gradient, g' = g + λ·w:
//   SGD:       w ← w − γ·g'
//   momentum:  m ← μ·m + g',   w ← w − γ·m      (Polyak 1964; the form PyTorch's SGD uses, m₀ = 0 so m₁ = g')
#include "dsml/optimizer.h"

namespace dsml {

void sgd_update(const OptimizerConfig& c, double lr, Eigen::MatrixXd& w, const Eigen::MatrixXd& g) {
  if (c.weight_decay != 0.0) {
    w -= lr * (g + c.weight_decay * w);
  } else {
    w -= lr * g;
  }
}

void momentum_update(const OptimizerConfig& c, double lr, Eigen::MatrixXd& w, const Eigen::MatrixXd& g,
                     Eigen::MatrixXd& m) {
  m = c.momentum * m + g + c.weight_decay * w;
  w -= lr * m;
}

}  // namespace dsml
