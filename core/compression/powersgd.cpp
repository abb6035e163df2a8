// powersgd.cpp — PowerSGD's low-rank step (Vogels, Karimireddy & Jaggi 2019, Algorithm 1) on one worker's matrix.
//
// A (rows, cols) gradient M is approximated by P̂·Qᵀ with P̂ (rows, r) orthonormal and Q (cols, r): one step of
// subspace (power) iteration, warm-started from the previous step's Q so that the subspace keeps improving across
// steps instead of restarting from noise. With several workers (compressed_aggregation.cpp) P = M_w·Q and
// Q = M_wᵀ·P̂ are each averaged by an all-reduce — both are linear in M_w, which is why PowerSGD composes with
// ring all-reduce.
#include <cmath>

#include "dsml/compression.h"
#include "dsml/error.h"
#include "nn/gaussian.h"

namespace dsml {

void orthogonalize(Eigen::MatrixXd& p) {
  // Modified Gram–Schmidt, column by column (the paper's ORTHOGONALIZE). r is small (1–4), so this is cheap.
  for (Eigen::Index j = 0; j < p.cols(); ++j) {
    for (Eigen::Index i = 0; i < j; ++i) p.col(j) -= p.col(i).dot(p.col(j)) * p.col(i);
    const double norm = p.col(j).norm();
    if (norm > 1e-300) {
      p.col(j) /= norm;
    } else {
      p.col(j).setZero();  // M has rank < r: nothing left in this direction
    }
  }
}

Eigen::MatrixXd powersgd_approximation(const Eigen::MatrixXd& m, Eigen::MatrixXd& q) {
  if (q.rows() != m.cols())
    throw Error("powersgd: Q must have one row per column of M (" + std::to_string(m.cols()) + "), got " +
                std::to_string(q.rows()));
  Eigen::MatrixXd p = m * q;  // (rows, r)
  orthogonalize(p);
  q = m.transpose() * p;      // (cols, r)
  return p * q.transpose();
}

Eigen::MatrixXd powersgd_initial_q(Eigen::Index cols, int rank, std::uint64_t seed) {
  if (rank < 1) throw Error("powersgd: rank r must be >= 1, got " + std::to_string(rank));
  return nn_detail::Gaussian(nn_detail::mix_seed(seed, 0x706f776572)).matrix(cols, rank, 1.0);
}

}  // namespace dsml
