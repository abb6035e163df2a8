// moe_layer.cpp — the single-device MoE layer (dsml/moe.h): route, run each expert on the rows sent to it, sum
// the gated outputs onto the residual; and the backward through experts, gates and router.
#include <string>
#include <utility>

#include "dsml/error.h"
#include "dsml/moe.h"

namespace dsml {

MoeForward moe_forward(const MoeConfig& config, const MoeParams& params, const Eigen::MatrixXd& x) {
  MoeForward f;
  f.routing = moe_route(config, params, x);
  const int E = config.experts, k = config.top_k;
  const auto B = static_cast<int>(x.rows());
  f.rows.assign(E, {});
  // Each expert's rows in (group, slot) order — the order its capacity buffer holds them in.
  for (int g = 0; g < config.groups; ++g) {
    const int per_group = B / config.groups;
    std::vector<std::vector<int>> by_slot(E, std::vector<int>(f.routing.capacity, -1));
    for (int t = g * per_group; t < (g + 1) * per_group; ++t)
      for (int j = 0; j < k; ++j)
        if (f.routing.slot[t][j] >= 0) by_slot[f.routing.expert[t][j]][f.routing.slot[t][j]] = t * k + j;
    for (int e = 0; e < E; ++e)
      for (int row : by_slot[e])
        if (row >= 0) f.rows[e].push_back(row);
  }
  f.output = x;  // the residual
  f.expert_forward.resize(E);
  const MlpConfig ec = expert_config(config);
  for (int e = 0; e < E; ++e) {
    if (f.rows[e].empty()) continue;
    Eigen::MatrixXd xe(static_cast<Eigen::Index>(f.rows[e].size()), config.width);
    for (std::size_t r = 0; r < f.rows[e].size(); ++r) xe.row(r) = x.row(f.rows[e][r] / k);
    f.expert_forward[e] = mlp_forward(ec, params.experts[e], xe);
    for (std::size_t r = 0; r < f.rows[e].size(); ++r) {
      const int t = f.rows[e][r] / k, j = f.rows[e][r] % k;
      f.output.row(t) += f.routing.gate[t][j] * f.expert_forward[e].output.row(r);
    }
  }
  return f;
}

MoeGradients moe_backward(const MoeConfig& config, const MoeParams& params, const Eigen::MatrixXd& x,
                          const MoeForward& forward, const Eigen::MatrixXd& d_output) {
  const int E = config.experts, k = config.top_k;
  if (d_output.rows() != x.rows() || d_output.cols() != config.width || forward.output.rows() != x.rows())
    throw Error("d_output must be B x D like the MoE output");
  MoeGradients g;
  g.d_input = d_output;  // the residual
  std::vector<std::vector<double>> d_gate(static_cast<std::size_t>(x.rows()), std::vector<double>(k, 0.0));
  const MlpConfig ec = expert_config(config);
  for (int e = 0; e < E; ++e) {
    g.experts.push_back(zeros_like(ec));
    if (forward.rows[e].empty()) continue;
    const auto n = static_cast<Eigen::Index>(forward.rows[e].size());
    Eigen::MatrixXd d_out(n, config.width);  // ∂loss/∂(expert output row) = gate · dy_t
    for (Eigen::Index r = 0; r < n; ++r) {
      const int t = forward.rows[e][r] / k, j = forward.rows[e][r] % k;
      d_out.row(r) = forward.routing.gate[t][j] * d_output.row(t);
      d_gate[t][j] = d_output.row(t).dot(forward.expert_forward[e].output.row(r));  // ∂loss/∂g
    }
    MlpGradients eg = mlp_backward(ec, params.experts[e], forward.expert_forward[e], d_out);
    g.experts[e] = std::move(eg.params);
    for (Eigen::Index r = 0; r < n; ++r) g.d_input.row(forward.rows[e][r] / k) += eg.d_input.row(r);
  }
  const Eigen::MatrixXd d_logits = moe_router_backward(forward.routing, d_gate);  // (B, E)
  g.router = d_logits.transpose() * x;    // (E, D)
  g.d_input += d_logits * params.router;  // (B, D)
  return g;
}

}  // namespace dsml
