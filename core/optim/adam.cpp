// adam.cpp — Adam (Kingma & Ba 2015, Algorithm 1), with decoupled weight decay (AdamW, Loshchilov & Hutter
// 2019) when λ > 0.
//
//   m ← β₁·m + (1 − β₁)·g              first moment  (running mean of g)
//   v ← β₂·v + (1 − β₂)·g²             second moment (running mean of g², elementwise)
//   m̂ = m / (1 − β₁ᵗ),  v̂ = v / (1 − β₂ᵗ)   bias correction: m and v start at 0, t = 1, 2, …
//   w ← w − γ·(m̂ / (√v̂ + ε) + λ·w)
// On step 1, m̂ = g and v̂ = g², so every entry moves by ≈ γ·sign(g): Adam's step size is set by γ, not by |g|.
// The state is two tensors the size of w — the 2× that ZeRO stage 1 shards away.
#include <cmath>

#include "dsml/optimizer.h"

namespace dsml {

Eigen::MatrixXd adam_direction(const OptimizerConfig& c, std::int64_t t, const Eigen::MatrixXd& g, Eigen::MatrixXd& m,
                               Eigen::MatrixXd& v) {
  m = c.beta1 * m + (1.0 - c.beta1) * g;
  v = c.beta2 * v + (1.0 - c.beta2) * g.cwiseProduct(g);
  const double correction1 = 1.0 - std::pow(c.beta1, static_cast<double>(t));
  const double correction2 = 1.0 - std::pow(c.beta2, static_cast<double>(t));
  const Eigen::ArrayXXd m_hat = m.array() / correction1;
  const Eigen::ArrayXXd v_hat = v.array() / correction2;
  return (m_hat / (v_hat.sqrt() + c.epsilon)).matrix();
}

void adam_update(const OptimizerConfig& c, double lr, std::int64_t t, Eigen::MatrixXd& w, const Eigen::MatrixXd& g,
                 Eigen::MatrixXd& m, Eigen::MatrixXd& v) {
  const Eigen::MatrixXd update = adam_direction(c, t, g, m, v);
  w -= lr * (update + c.weight_decay * w);
}

}  // namespace dsml
