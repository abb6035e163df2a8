// compressed_aggregation.cpp — see compressed_aggregation.h. Step by step, for one tensor:
//   1. v_w = g_w (+ e_w with error feedback)
//   2. every worker compresses (or, for PowerSGD, the workers run the two all-reduced half-steps together)
//   3. the aggregate: the mean of the c_w, or the majority vote of the signs
//   4. e_w ← v_w − c_w
#include "compressed_aggregation.h"

#include "dsml/error.h"
#include "nn/gaussian.h"

namespace dsml::compression {
namespace {

using Eigen::MatrixXd;

// C(v) of one worker for the element-wise compressors. Random-k's seed is shared by every worker (the same
// indices, so the values can be all-reduced); QSGD's rounding is each worker's own.
MatrixXd compress_one(const CompressorConfig& c, const MatrixXd& v, std::uint64_t seed, std::uint64_t step, int worker,
                      int tensor) {
  const std::uint64_t shared = nn_detail::mix_seed(nn_detail::mix_seed(seed, step), static_cast<std::uint64_t>(tensor));
  if (c.kind == CompressorKind::qsgd)
    return compress_tensor(c, v, nn_detail::mix_seed(shared, static_cast<std::uint64_t>(worker)));
  return compress_tensor(c, v, shared);
}

// Bernstein et al. 2018: the server (or every worker, after an all-gather) counts the votes sign(v_w) per
// coordinate and returns the winner, scaled by the workers' mean ℓ1 scale.
MatrixXd majority_vote(const std::vector<MatrixXd>& v) {
  MatrixXd votes = MatrixXd::Zero(v[0].rows(), v[0].cols());
  double scale = 0;
  for (const MatrixXd& m : v) {
    votes += m.unaryExpr([](double x) { return x < 0 ? -1.0 : 1.0; });
    scale += m.cwiseAbs().sum() / static_cast<double>(m.size());
  }
  scale /= static_cast<double>(v.size());
  return votes.unaryExpr([scale](double n) { return n < 0 ? -scale : scale; });
}

}  // namespace

TensorState initial_state(const CompressorConfig& c, Eigen::Index rows, Eigen::Index cols, int workers,
                          std::uint64_t seed, int tensor) {
  TensorState s;
  s.errors.assign(static_cast<std::size_t>(workers), MatrixXd::Zero(rows, cols));
  if (c.kind == CompressorKind::powersgd) {
    const int r = static_cast<int>(std::min<Eigen::Index>(c.rank, std::min(rows, cols)));
    s.q = powersgd_initial_q(cols, r, nn_detail::mix_seed(seed, static_cast<std::uint64_t>(tensor)));
  }
  return s;
}

MatrixXd aggregate(const CompressorConfig& c, bool error_feedback, const std::vector<MatrixXd>& grads,
                   TensorState& state, std::uint64_t seed, std::uint64_t step, int tensor) {
  const auto workers = grads.size();
  const double p = static_cast<double>(workers);
  std::vector<MatrixXd> v(workers), compressed(workers);
  for (std::size_t w = 0; w < workers; ++w) v[w] = error_feedback ? MatrixXd(grads[w] + state.errors[w]) : grads[w];

  MatrixXd update = MatrixXd::Zero(grads[0].rows(), grads[0].cols());
  if (c.kind == CompressorKind::powersgd) {
    MatrixXd pm = MatrixXd::Zero(update.rows(), state.q.cols());
    for (const MatrixXd& m : v) pm += m * state.q / p;       // all-reduce (mean) of P_w = M_w·Q
    orthogonalize(pm);                                      // P̂, the same on every worker
    MatrixXd q = MatrixXd::Zero(state.q.rows(), state.q.cols());
    for (std::size_t w = 0; w < workers; ++w) {
      const MatrixXd qw = v[w].transpose() * pm;             // Q_w = M_wᵀ·P̂
      compressed[w] = pm * qw.transpose();
      q += qw / p;                                           // all-reduce (mean) of Q_w
    }
    state.q = q;                                             // warm start for the next step
    update = pm * q.transpose();
  } else {
    for (std::size_t w = 0; w < workers; ++w)
      compressed[w] = compress_one(c, v[w], seed, step, static_cast<int>(w), tensor);
    if (c.kind == CompressorKind::sign) {
      update = majority_vote(v);
    } else {
      for (const MatrixXd& m : compressed) update += m / p;
    }
  }
  if (error_feedback)
    for (std::size_t w = 0; w < workers; ++w) state.errors[w] = v[w] - compressed[w];
  return update;
}

}  // namespace dsml::compression
