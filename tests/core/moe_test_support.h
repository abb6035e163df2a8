// moe_test_support.h — what the MoE tests share: the small layer they route through, the random inputs they feed
// it, and how far a result lies from the reference.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cstdint>

#include "dsml/mlp.h"
#include "dsml/moe.h"

// D = 6, F = 10 per expert, E = 4 experts, GELU: small enough for finite differences, large enough that tokens
// compete for capacity.
inline dsml::MoeConfig small_moe(int top_k, double capacity_factor, int groups = 1, double balance = 0.0) {
  dsml::MoeConfig c;
  c.width = 6;
  c.hidden = 10;
  c.experts = 4;
  c.top_k = top_k;
  c.capacity_factor = capacity_factor;
  c.groups = groups;
  c.activation = dsml::Activation::gelu;
  c.balance_coefficient = balance;
  return c;
}

// A (rows, cols) matrix with entries ~ N(0, 4/cols), reproducible from `seed` (init_mlp's W_in, doubled).
inline Eigen::MatrixXd random_matrix(int rows, int cols, std::uint64_t seed) {
  return dsml::init_mlp(dsml::MlpConfig{1, cols, rows}, seed).blocks[0].w_in * 2.0;
}

// ‖a − ref‖ / ‖ref‖ (Frobenius): how far a distributed result is from the single-device one.
inline double relative(const Eigen::MatrixXd& a, const Eigen::MatrixXd& ref) {
  return (a - ref).norm() / std::max(ref.norm(), 1e-300);
}
