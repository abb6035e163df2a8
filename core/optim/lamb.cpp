// lamb.cpp — LAMB, Layer-wise Adaptive Moments for Batch training (You et al. 2019, "Large Batch Optimization
// for Deep Learning: Training BERT in 76 minutes", Algorithm 2, φ = identity).
//
// Adam's direction, LARS's per-tensor scaling:
//   m ← β₁·m + (1 − β₁)·g,   v ← β₂·v + (1 − β₂)·g²
//   m̂ = m / (1 − β₁ᵗ),       v̂ = v / (1 − β₂ᵗ)
//   u = m̂ / (√v̂ + ε) + λ·w                          (Adam update plus decoupled weight decay)
//   w ← w − γ · (‖w‖ / ‖u‖) · u
// So every tensor moves by exactly γ·‖w‖ per step (relative step size γ), whatever its gradient scale.
#include "dsml/error.h"
#include "dsml/optimizer.h"

namespace dsml {

double lamb_trust_ratio(double weight_norm, double update_norm) {
  require_non_negative("weight norm", weight_norm);
  require_non_negative("update norm", update_norm);
  if (weight_norm == 0.0 || update_norm == 0.0) return 1.0;  // as in the reference implementations
  return weight_norm / update_norm;
}

double lamb_update(const OptimizerConfig& c, double lr, std::int64_t t, Eigen::MatrixXd& w, const Eigen::MatrixXd& g,
                   Eigen::MatrixXd& m, Eigen::MatrixXd& v) {
  const Eigen::MatrixXd u = adam_direction(c, t, g, m, v) + c.weight_decay * w;  // Adam's update, adam.cpp
  const double ratio = lamb_trust_ratio(w.norm(), u.norm());
  w -= (lr * ratio) * u;
  return ratio;
}

}  // namespace dsml
