// dsml/moe.h — a mixture-of-experts layer whose experts are the course's MLP blocks, with a softmax router,
// top-1 (Switch Transformer, Fedus et al. 2021) or top-2 (GShard, Lepikhin et al. 2020) gating and a capacity.
//
//   logits = x · W_rᵀ (B, E)     p = softmax(logits) per token     W_r: (E, D) the router
//   top-1: token t goes to e₁ = argmax p_t with gate g = p_t,e₁ (Switch: the probability itself)
//   top-2: to e₁ and e₂ (the two largest, ties to the lower index) with gates p_e/(p_e₁ + p_e₂) (renormalised)
//   expert e(x) = act(x · W_inᵀ) · W_outᵀ — one MLP block without its residual (dsml/mlp.h, layers = 1)
//   y_t = x_t + Σ over t's kept choices of g · expert_e(x_t)
// Capacity. The B tokens are cut into G groups of B/G consecutive rows (GShard's groups; expert parallelism runs
// one group per rank). In each group an expert takes at most C = ⌈capacity_factor · k · (B/G) / E⌉ tokens: first
// choices are placed before second choices (GShard), each in token order, and an assignment that finds its
// expert full is DROPPED: it contributes zero expert output (its gate is not renormalised away). A token whose
// every choice is dropped passes through the residual unchanged, y_t = x_t — as in Switch Transformer.
// Load balancing (Switch Transformer, Fedus et al. 2021, §2.2, eq. 4–6). Without help a router collapses onto a
// few experts and the capacity cut drops the rest of their tokens. Switch adds an auxiliary loss per group g of n
// tokens,  α·E·Σ_i f_i·P_i,  f_i = the fraction of the group's tokens whose first choice is expert i (piecewise
// constant: no gradient), P_i = the mean router probability of expert i over the group (differentiable). It is
// least, α, when both are uniform (1/E), and pushes P down where f is high. The layer's balance loss is its mean
// over the G groups; its gradient, ∂/∂p_t,i = α·E·f_{g,i}/B, joins the gates' before the softmax backward.
// Switch uses α = 0.01; GShard (Lepikhin et al. 2020) adds the same loss (its c_e/S · m_e) to top-2 gating, with f
// counted on first choices, and sends a token to its second expert only at random, with probability 2·g₂ —
// here the second choice is deterministic (always taken, as in later top-2 routers).
// Backward through the gates: top-1 dp = dg; top-2 with s = p₁ + p₂, dp₁ = (dg₁ − dg₂)·p₂/s², dp₂ = (dg₂ − dg₁)·p₁/s²;
// then softmax: dlogits = p ⊙ (dp − ⟨dp, p⟩). The choice of experts itself has no gradient (piecewise constant).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "dsml/mlp.h"

namespace dsml {

struct MoeConfig {
  int width = 8;       // D
  int hidden = 32;     // F, per expert
  Activation activation = Activation::gelu;
  int experts = 4;     // E
  int top_k = 1;       // 1 or 2
  double capacity_factor = 1.25;
  int groups = 1;      // G; B must be divisible by G
  double balance_coefficient = 0.0;  // α of the load-balancing loss (Switch: 0.01); 0 = none
};

// Throws dsml::Error unless D, F, E ≥ 1, k ∈ {1, 2} with k ≤ E, capacity_factor > 0, G ≥ 1, balance α ≥ 0.
void validate(const MoeConfig& config);
// The MlpConfig of one expert: layers 1, D, F, the activation, no residual.
MlpConfig expert_config(const MoeConfig& config);

struct MoeParams {
  Eigen::MatrixXd router;          // (E, D)
  std::vector<MlpParams> experts;  // E experts, each one block
};
// Router ~ N(0, 1/D) (init_mlp's W_in with F = E, from `seed`), expert e from init_mlp(expert, seed + 1 + e).
MoeParams init_moe(const MoeConfig& config, std::uint64_t seed);

struct MoeRouting {
  Eigen::MatrixXd probs;                 // (B, E) softmax of the logits
  std::vector<std::vector<int>> expert;  // [token][choice] → expert, k choices
  std::vector<std::vector<double>> gate; // [token][choice] → gate
  std::vector<std::vector<int>> slot;    // [token][choice] → slot in its (group, expert) buffer, −1 if dropped
  int capacity = 0;                      // C per (group, expert)
  std::vector<int> load;                 // per expert: assignments kept (over all groups)
  std::vector<int> wanted;               // per expert: assignments routed to it before the capacity cut
  int dropped = 0;                       // assignments dropped
  int unrouted_tokens = 0;               // tokens whose every choice was dropped (they pass through)
  std::vector<double> dispatch_fraction; // per expert: f_i, first choices over tokens (mean of the groups' f)
  std::vector<double> mean_probability;  // per expert: P_i, mean router probability (mean of the groups' P)
  double balance_loss = 0.0;             // α·E·(1/G)·Σ_g Σ_i f_{g,i}·P_{g,i}; 0 when α = 0
  Eigen::MatrixXd balance_gradient;      // (B, E) ∂balance_loss/∂p = α·E·f_{g,i}/B; empty when α = 0
};
// Throws dsml::Error if x is not (B, D) with B ≥ 1 divisible by G, or params do not match config.
MoeRouting moe_route(const MoeConfig& config, const MoeParams& params, const Eigen::MatrixXd& x);
// The same given the router alone (E × D) — what a rank that holds the router but not every expert routes with.
MoeRouting moe_route(const MoeConfig& config, const Eigen::MatrixXd& router, const Eigen::MatrixXd& x);

struct MoeForward {
  Eigen::MatrixXd output;                         // (B, D)
  MoeRouting routing;
  std::vector<std::vector<int>> rows;             // per expert: token·k + choice of each row it ran, in order
  std::vector<MlpForward> expert_forward;         // per expert, on its rows (empty when it got none)
};
MoeForward moe_forward(const MoeConfig& config, const MoeParams& params, const Eigen::MatrixXd& x);

struct MoeGradients {
  Eigen::MatrixXd d_input;         // (B, D)
  Eigen::MatrixXd router;          // (E, D)
  std::vector<MlpParams> experts;  // E
};
// Backward given d_output = ∂loss/∂y (B, D) and the forward of the same x.
MoeGradients moe_backward(const MoeConfig& config, const MoeParams& params, const Eigen::MatrixXd& x,
                          const MoeForward& forward, const Eigen::MatrixXd& d_output);

// α·E·Σ_i f_i·P_i for one group (E = f.size() = P.size()). Throws dsml::Error unless α ≥ 0, the sizes match and
// are ≥ 1, every f_i and P_i is in [0, 1] and each sums to 1 (within 1e-9).
double switch_balance_loss(double alpha, const std::vector<double>& f, const std::vector<double>& P);

// The gate-to-logit half of the backward, shared with expert parallelism: d_gate [token][choice] → dlogits (B, E),
// the balance loss's gradient (routing.balance_gradient, if any) included.
Eigen::MatrixXd moe_router_backward(const MoeRouting& routing, const std::vector<std::vector<double>>& d_gate);

}  // namespace dsml
