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
    const Eigen::RowVectorXd p = r.probs.row(t);
    d_logits.row(t) = p.cwiseProduct((dp.array() - dp.dot(p)).matrix());  // softmax backward
  }
  return d_logits;
}

}  // namespace dsml
