// dsml/fsdp_tensor_parallel.h — 2-D parallelism: FSDP (ZeRO-3) over dp ranks wrapped around Megatron tensor
// parallelism over tp ranks, as in PyTorch's "2D parallel" (FSDP + TP) and Megatron-LM's DP × TP grid.
//
// The grid is dp × tp (pp = 1); rank (d, t) = rank_of(grid, {d, t, 0}) = d·tp + t, TP peers adjacent.
//   TP  rank column t owns slice t of every block: w_in rows and w_out columns [t·F/tp, (t+1)·F/tp)
//       (tensor_parallel.h). Within each data-parallel replica d, the tp ranks run tp_block_forward/backward:
//       two all-reduces of (B/dp, D) per block, over the group {(d, 0) … (d, tp−1)}.
//   FSDP each slice is flattened (w_in_t then w_out_t, column-major) and sharded over the dp ranks of its column
//       {(0, t) … (dp−1, t)} by shard_sizes: rank (d, t) keeps only shard d — params, grads and optimizer state
//       (Rajbhandari et al. 2020, stage 3). Per block: all-gather the slice before forward, free it, all-gather
//       again before backward, reduce-scatter the slice's gradient and divide by dp (each replica d saw B/dp rows).
// Each rank updates its own shard (elementwise optimizers only: SGD, momentum, Adam), so after every step the
// gathered parameters equal the single-device run's.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "dsml/comm.h"
#include "dsml/memory_accountant.h"
#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/rank_grid.h"
#include "dsml/strategy.h"
#include "dsml/teacher_task.h"
#include "dsml/tensor_parallel.h"

namespace dsml {

// ---- communication: FSDP's collectives over one tp column's dp ranks (fsdp_tensor_parallel_comm.cpp) --------
// shards[d] is rank (d, t)'s shard of a slice of hidden_per_rank = F/tp units; every d gets the whole slice
// (w_in (F/tp, D), w_out (D, F/tp)). One "all-gather" record.
std::vector<MlpBlock> fsdp_gather_slice(const std::vector<Buffer>& shards, int hidden_per_rank, int width,
                                        const CommOptions& options);
// grads[d] is replica d's gradient of the slice; rank (d, t) gets shard d of the MEAN over d. One
// "reduce-scatter" record.
std::vector<Buffer> fsdp_reduce_scatter_slice(const std::vector<MlpBlock>& grads, const CommOptions& options);

class FsdpTensorParallelTrainer : public ParallelTrainer {
 public:
  // Grid dp × tp with pp = 1; F divisible by tp. Throws dsml::Error otherwise. options.algorithm: every
  // collective's algorithm. LARS/LAMB need whole-tensor norms: one all-reduce of the per-tensor sums of squares
  // over all dp·tp ranks per step ("trust-ratio norms", zero.h's update_shards_layerwise).
  FsdpTensorParallelTrainer(const RankGrid& grid, const MlpConfig& model, const OptimizerConfig& optimizer,
                            const MlpParams& initial, const TensorParallelOptions& options = {});

  // One step on the global batch; B must be divisible by dp (replica d takes rows [d·B/dp, (d+1)·B/dp)).
  // comm: all-gathers, reduce-scatters (FSDP) and all-reduces (TP); memory per rank (rank order): its shards,
  // their gradients and optimizer state, and kept activations — the one gathered slice FSDP holds while a block
  // runs is transient and not counted.
  ParallelStep step(const Batch& batch) override;

  // Read-back: every shard concatenated into its slice, the slices into full matrices (nothing logged).
  MlpParams full_params() const override;
  const RankGrid& grid() const override { return grid_; }

 private:
  MlpConfig model_;
  RankGrid grid_;
  std::string algorithm_;
  std::vector<std::vector<Eigen::MatrixXd>> shards_;  // [rank][block]: (shard length, 1)
  std::vector<Optimizer> optimizers_;                 // [rank], over its L shards (elementwise optimizers)
  // LARS/LAMB: the optimizer, its step count, each rank's state per shard.
  OptimizerConfig optimizer_;
  std::int64_t steps_ = 0;
  std::vector<std::vector<ShardMoments>> moments_;
  bool layerwise() const;
  void update_layerwise(const std::vector<std::vector<Eigen::MatrixXd>>& grad_shards, CommLog* log);
};

}  // namespace dsml
