// moe_router.cpp — the MoE router (dsml/moe.h): softmax over experts, top-1 or top-2 with renormalised gates,
// capacity per (group, expert) with first choices placed before second choices; and its backward.
#include <algorithm>
#include <cmath>
#include <string>

#include "dsml/error.h"
#include "dsml/moe.h"

namespace dsml {

void validate(const MoeConfig& c) {
  if (c.width < 1 || c.hidden < 1 || c.experts < 1)
    throw Error("an MoE layer needs width, hidden and experts >= 1, got " + std::to_string(c.width) + ", " +
                std::to_string(c.hidden) + ", " + std::to_string(c.experts));
  if (c.top_k != 1 && c.top_k != 2) throw Error("top_k must be 1 or 2, got " + std::to_string(c.top_k));
  if (c.top_k > c.experts) throw Error("top-2 gating needs at least 2 experts, got " + std::to_string(c.experts));
  if (!(c.capacity_factor > 0) || !std::isfinite(c.capacity_factor))
    throw Error("capacity factor must be > 0, got " + std::to_string(c.capacity_factor));
  if (c.groups < 1) throw Error("groups must be >= 1, got " + std::to_string(c.groups));
  if (!(c.balance_coefficient >= 0) || !std::isfinite(c.balance_coefficient))
    throw Error("the load-balancing coefficient must be >= 0, got " + std::to_string(c.balance_coefficient));
}

MlpConfig expert_config(const MoeConfig& c) {
  MlpConfig e;
  e.layers = 1;
  e.width = c.width;
  e.hidden = c.hidden;
  e.activation = c.activation;
  e.residual = false;  // the MoE layer's own residual is the identity path
  return e;
}

MoeParams init_moe(const MoeConfig& config, std::uint64_t seed) {
  validate(config);
  MlpConfig router_shape = expert_config(config);
  router_shape.hidden = config.experts;
  MoeParams p;
  p.router = init_mlp(router_shape, seed).blocks[0].w_in;  // (E, D) ~ N(0, 1/D)
  for (int e = 0; e < config.experts; ++e) p.experts.push_back(init_mlp(expert_config(config), seed + 1 + e));
  return p;
}

double switch_balance_loss(double alpha, const std::vector<double>& f, const std::vector<double>& P) {
  if (!(alpha >= 0) || !std::isfinite(alpha))
    throw Error("the load-balancing coefficient must be >= 0, got " + std::to_string(alpha));
  if (f.empty() || f.size() != P.size())
    throw Error("the load-balancing loss needs one f and one P per expert, got " + std::to_string(f.size()) +
                " and " + std::to_string(P.size()));
  double loss = 0, sum_f = 0, sum_P = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (!(f[i] >= 0 && f[i] <= 1 && P[i] >= 0 && P[i] <= 1))
      throw Error("f and P are fractions in [0, 1]; expert " + std::to_string(i) + " has f = " +
                  std::to_string(f[i]) + ", P = " + std::to_string(P[i]));
    loss += f[i] * P[i];
    sum_f += f[i];
    sum_P += P[i];
  }
  if (std::abs(sum_f - 1) > 1e-9 || std::abs(sum_P - 1) > 1e-9)
    throw Error("f (the share of tokens per expert) and P (the mean router probability per expert) must each sum to "
                "1, got " + std::to_string(sum_f) + " and " + std::to_string(sum_P));
  return alpha * static_cast<double>(f.size()) * loss;
}

namespace {

// Switch Transformer's auxiliary loss (dsml/moe.h), per group of n = B/G tokens, averaged over the groups:
//   f_{g,i} = (first choices of expert i in g)/n,  P_{g,i} = Σ_{t∈g} p_t,i / n,
//   loss = α·E·(1/G)·Σ_g Σ_i f_{g,i}·P_{g,i},      ∂loss/∂p_t,i = α·E·f_{g,i}/(G·n) = α·E·f_{g,i}/B.
void add_balance_loss(const MoeConfig& config, MoeRouting& r) {
  const auto B = static_cast<int>(r.probs.rows());
  const int E = config.experts, G = config.groups, n = B / G;
  const double alpha = config.balance_coefficient;
  r.dispatch_fraction.assign(E, 0.0);
  r.mean_probability.assign(E, 0.0);
  if (alpha > 0) r.balance_gradient = Eigen::MatrixXd::Zero(B, E);
  for (int g = 0; g < G; ++g) {
    std::vector<double> f(E, 0.0);
    Eigen::RowVectorXd P = Eigen::RowVectorXd::Zero(E);
    for (int t = g * n; t < (g + 1) * n; ++t) {
      f[r.expert[t][0]] += 1.0 / n;
      P += r.probs.row(t) / n;
    }
    std::vector<double> mean(E);
    for (int i = 0; i < E; ++i) mean[i] = P(i);
    r.balance_loss += switch_balance_loss(alpha, f, mean) / G;
    for (int i = 0; i < E; ++i) {
      r.dispatch_fraction[i] += f[i] / G;
      r.mean_probability[i] += P(i) / G;
      if (alpha > 0)
        for (int t = g * n; t < (g + 1) * n; ++t) r.balance_gradient(t, i) = alpha * E * f[i] / B;
    }
  }
}

}  // namespace

MoeRouting moe_route(const MoeConfig& config, const MoeParams& params, const Eigen::MatrixXd& x) {
  if (static_cast<int>(params.experts.size()) != config.experts)
    throw Error("MoE params must have " + std::to_string(config.experts) + " experts, got " +
                std::to_string(params.experts.size()));
  return moe_route(config, params.router, x);
}

MoeRouting moe_route(const MoeConfig& config, const Eigen::MatrixXd& router, const Eigen::MatrixXd& x) {
  validate(config);
  const int E = config.experts, k = config.top_k;
  const auto B = static_cast<int>(x.rows());
  if (B < 1 || x.cols() != config.width)
    throw Error("MoE input must be B x D = B x " + std::to_string(config.width) + " with B >= 1");
  if (B % config.groups != 0)
    throw Error("B = " + std::to_string(B) + " tokens cannot be cut into " + std::to_string(config.groups) +
                " equal groups");
  if (router.rows() != E || router.cols() != config.width)
    throw Error("the MoE router must be E x D = " + std::to_string(E) + " x " + std::to_string(config.width) +
                ", got " + std::to_string(router.rows()) + " x " + std::to_string(router.cols()));
  const int per_group = B / config.groups;
  MoeRouting r;
  r.capacity = static_cast<int>(std::ceil(config.capacity_factor * k * per_group / E - 1e-12));
  const Eigen::MatrixXd logits = x * router.transpose();  // (B, E)
  r.probs.resize(B, E);
  for (int t = 0; t < B; ++t) {
    const double top = logits.row(t).maxCoeff();  // subtract the max: exp never overflows
    const Eigen::RowVectorXd z = (logits.row(t).array() - top).exp().matrix();
    r.probs.row(t) = z / z.sum();
  }
  r.expert.assign(B, std::vector<int>(k));
  r.gate.assign(B, std::vector<double>(k));
  r.slot.assign(B, std::vector<int>(k, -1));
  for (int t = 0; t < B; ++t) {
    std::vector<int> order(E);
    for (int e = 0; e < E; ++e) order[e] = e;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return r.probs(t, a) > r.probs(t, b); });
    double sum = 0;
    for (int j = 0; j < k; ++j) sum += r.probs(t, order[j]);
    for (int j = 0; j < k; ++j) {
      r.expert[t][j] = order[j];
      r.gate[t][j] = k == 1 ? r.probs(t, order[j]) : r.probs(t, order[j]) / sum;
    }
  }
  r.load.assign(E, 0);
  r.wanted.assign(E, 0);
  for (int g = 0; g < config.groups; ++g) {
    std::vector<int> filled(E, 0);
    for (int j = 0; j < k; ++j) {  // all first choices of the group, then all second choices
      for (int t = g * per_group; t < (g + 1) * per_group; ++t) {
        const int e = r.expert[t][j];
        ++r.wanted[e];
        if (filled[e] < r.capacity) {
          r.slot[t][j] = filled[e]++;
          ++r.load[e];
        } else {
          ++r.dropped;
        }
      }
    }
  }
  for (int t = 0; t < B; ++t)
    if (std::all_of(r.slot[t].begin(), r.slot[t].end(), [](int s) { return s < 0; })) ++r.unrouted_tokens;
  add_balance_loss(config, r);
  return r;
}

Eigen::MatrixXd moe_router_backward(const MoeRouting& r, const std::vector<std::vector<double>>& d_gate) {
  const auto B = r.probs.rows();
  const auto E = r.probs.cols();
  Eigen::MatrixXd d_logits = Eigen::MatrixXd::Zero(B, E);
  for (Eigen::Index t = 0; t < B; ++t) {
    Eigen::RowVectorXd dp = Eigen::RowVectorXd::Zero(E);  // ∂loss/∂p_t
    const std::vector<int>& e = r.expert[t];
    if (e.size() == 1) {
      dp(e[0]) = d_gate[t][0];  // g = p_e₁
    } else {
      const double p1 = r.probs(t, e[0]), p2 = r.probs(t, e[1]), s2 = (p1 + p2) * (p1 + p2);
      dp(e[0]) = (d_gate[t][0] - d_gate[t][1]) * p2 / s2;  // g₁ = p₁/s, g₂ = p₂/s
      dp(e[1]) = (d_gate[t][1] - d_gate[t][0]) * p1 / s2;
    }
    if (r.balance_gradient.size() > 0) dp += r.balance_gradient.row(t);  // the load-balancing loss
    const Eigen::RowVectorXd p = r.probs.row(t);
    d_logits.row(t) = p.cwiseProduct((dp.array() - dp.dot(p)).matrix());  // softmax backward
  }
  return d_logits;
}

}  // namespace dsml
