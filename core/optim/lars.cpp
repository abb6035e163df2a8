// lars.cpp — LARS, Layer-wise Adaptive Rate Scaling (You, Gitman & Ginsburg 2017, "Large Batch Training of
// Convolutional Networks", Algorithm 1).
//
// One global rate γ is wrong for every layer at once when the batch is huge: layers whose ‖g‖ is large
// relative to ‖w‖ diverge. LARS gives each tensor its own local rate, the trust ratio
//   λ_l = η · ‖w‖ / (‖g‖ + β·‖w‖)               (η = trust coefficient, β = weight decay)
// and then runs momentum on the rescaled gradient:
//   m ← μ·m + γ·λ_l·(g + β·w),    w ← w − m
// (Note the learning rate sits inside the momentum buffer here, as in the paper.)
#include <cmath>

#include "dsml/error.h"
#include "dsml/optimizer.h"

namespace dsml {

double lars_trust_ratio(double weight_norm, double grad_norm, double eta, double weight_decay) {
  require_non_negative("weight norm", weight_norm);
  require_non_negative("gradient norm", grad_norm);
  require_positive("trust coefficient", eta);
  require_non_negative("weight decay", weight_decay);
  const double denominator = grad_norm + weight_decay * weight_norm;
  // A zero-initialised tensor or a zero gradient has no scale to trust: fall back to the global rate.
  if (weight_norm == 0.0 || denominator == 0.0) return 1.0;
  return eta * weight_norm / denominator;
}

double lars_update(const OptimizerConfig& c, double lr, Eigen::MatrixXd& w, const Eigen::MatrixXd& g,
                   Eigen::MatrixXd& m) {
  const double ratio = lars_trust_ratio(w.norm(), g.norm(), c.trust_coefficient, c.weight_decay);
  m = c.momentum * m + (lr * ratio) * (g + c.weight_decay * w);
  w -= m;
  return ratio;
}

}  // namespace dsml
