// fsdp_tensor_parallel_comm.cpp — FSDP's two collectives in the 2-D FSDP × TP grid, over the dp ranks that
// share one tensor-parallel index t (Rajbhandari et al. 2020, ZeRO stage 3; Zhao et al., "PyTorch FSDP",
// VLDB 2023). The tensor-parallel all-reduces are tp_f_backward / tp_g_forward (tensor_parallel_comm.cpp).
//
//   all-gather      before a block's forward and again before its backward: shard d of slice t from every
//                   rank (d, t) → the whole slice (F/tp·D + D·F/tp doubles) on each of them
//   reduce-scatter  after the block's backward: each replica's slice gradient → rank (d, t) gets shard d of the
//                   sum, divided by dp — the mean over replicas, as in data parallelism
#include <string>

#include "dsml/error.h"
#include "dsml/fsdp_tensor_parallel.h"

namespace dsml {

std::vector<MlpBlock> fsdp_gather_slice(const std::vector<Buffer>& shards, int hidden_per_rank, int width,
                                        const CommOptions& options) {
  if (shards.empty()) throw Error("fsdp_gather_slice needs at least one shard");
  const std::vector<Buffer> full = all_gather(shards, options);  // per d: the flat slice
  std::vector<MlpBlock> slices(full.size());
  for (std::size_t d = 0; d < full.size(); ++d) {
    slices[d].w_in.resize(hidden_per_rank, width);   // (F/tp, D)
    slices[d].w_out.resize(width, hidden_per_rank);  // (D, F/tp)
    unflatten(full[d], std::vector<Eigen::MatrixXd*>{&slices[d].w_in, &slices[d].w_out});
  }
  return slices;
}

std::vector<Buffer> fsdp_reduce_scatter_slice(const std::vector<MlpBlock>& grads, const CommOptions& options) {
  if (grads.empty()) throw Error("fsdp_reduce_scatter_slice needs at least one gradient");
  std::vector<Buffer> flat;
  flat.reserve(grads.size());
  for (const MlpBlock& g : grads) flat.push_back(flatten(std::vector<const Eigen::MatrixXd*>{&g.w_in, &g.w_out}));
  std::vector<Buffer> shards = reduce_scatter(flat, options);  // rank d: shard d of Σ_d
  const double replicas = static_cast<double>(grads.size());
  for (Buffer& shard : shards) {
    for (double& v : shard) v /= replicas;  // sum → mean over the dp replicas
  }
  return shards;
}

}  // namespace dsml
