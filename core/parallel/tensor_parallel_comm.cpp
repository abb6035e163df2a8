// tensor_parallel_comm.cpp — the two communication operators of Megatron's tensor parallelism (Shoeybi et al.
// 2019, §3, Fig. 3; Megatron-LM's copy_to_tensor_model_parallel_region = f and
// reduce_from_tensor_model_parallel_region = g).
//
//   f   forward: identity        backward: all-reduce     (placed before the column-parallel W_in)
//   g   forward: all-reduce      backward: identity       (placed after the row-parallel W_out)
//
// They are conjugate: each is the other's transpose. In forward only g talks (summing the partial outputs
// Y_t (B, D)); in backward only f talks (summing the partial input gradients dx_t (B, D)). The identities are
// real functions on purpose, so the algorithm file reads like the figure: f, column-parallel, act,
// row-parallel, g.
#include <string>

#include "dsml/error.h"
#include "dsml/tensor_parallel.h"

namespace dsml {
namespace {

// Sum the per-rank (B, D) matrices with the core's all-reduce schedule: flatten each rank's matrix into a
// Buffer (column-major), run the collective, write the sums back. One CommRecord per call.
void all_reduce_matrices(RankMatrices& per_rank, const CommOptions& options) {
  if (per_rank.empty()) throw Error("tensor-parallel all-reduce needs at least one rank");
  std::vector<Buffer> buffers;
  buffers.reserve(per_rank.size());
  for (const Eigen::MatrixXd& m : per_rank) buffers.push_back(flatten(std::vector<const Eigen::MatrixXd*>{&m}));
  all_reduce(buffers, options);
  for (std::size_t r = 0; r < per_rank.size(); ++r) unflatten(buffers[r], std::vector<Eigen::MatrixXd*>{&per_rank[r]});
}

}  // namespace

// f forward: every tp rank already holds the same x (B, D) — nothing moves.
const RankMatrices& tp_f_forward(const RankMatrices& x) { return x; }

// f backward: rank t's dx_t = dH_t · W_in_t is only its slice's share of ∂loss/∂x; the sum is the gradient.
void tp_f_backward(RankMatrices& partial_dx, const CommOptions& options) {
  all_reduce_matrices(partial_dx, options);
}

// g forward: rank t's Y_t = act(H_t) · W_out_tᵀ covers F/tp of the F hidden units; the block output is the sum.
void tp_g_forward(RankMatrices& partial_y, const CommOptions& options) { all_reduce_matrices(partial_y, options); }

// g backward: ∂loss/∂Y_t = ∂loss/∂Y for every t, and every rank already holds it.
const RankMatrices& tp_g_backward(const RankMatrices& dy) { return dy; }

}  // namespace dsml
