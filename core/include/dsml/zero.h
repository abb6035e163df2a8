// dsml/zero.h — ZeRO stages 1, 2 and 3 (FSDP) over the MLP: data parallelism that stops replicating state.
//
// Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models", SC 2020. With N
// data-parallel ranks and Ψ parameters (fp64 here, 8 bytes each), what one rank holds between steps:
//                  params  grads  optimizer (Adam: m, v)  communication per step and rank (ring)
//   DP             Ψ       Ψ      2Ψ                      all-reduce(grads)                        2(N−1)/N·Ψ
//   ZeRO-1         Ψ       Ψ      2Ψ/N                    all-reduce(grads) + all-gather(params)   3(N−1)/N·Ψ
//   ZeRO-2         Ψ       Ψ/N    2Ψ/N                    reduce-scatter(grads) + all-gather       2(N−1)/N·Ψ
//   ZeRO-3 / FSDP  Ψ/N     Ψ/N    2Ψ/N                    per block: all-gather before forward and
//                                                         again before backward, reduce-scatter    3(N−1)/N·Ψ
// ZeRO-1 here follows the textbook recipe literally (all-reduce, then each rank updates its shard, then
// all-gather): 3(N−1)/N·Ψ. ZeRO-2 moves DP's 2(N−1)/N·Ψ; ZeRO-3 3(N−1)/N·Ψ = 1.5× DP, the paper's §7 figure.
//
// Sharding. Stages 1 and 2 shard the flattened model (flatten() order) into N pieces by shard_sizes(); stage 3
// shards each block's flattened (w_in, w_out) separately — FSDP's "unit" — so a block can be gathered alone.
// Rank d owns shard d. The update of a shard is exact for elementwise optimizers (SGD, momentum, Adam): each
// element's update reads only that element. LARS and LAMB need whole-tensor norms; they are rejected with an
// Error rather than silently computed on a shard's partial norm.
//
// ZeRO-2 and ZeRO-3 still compute a rank's full local gradient (of the whole model, resp. of one block) before
// reduce-scattering it: that buffer is transient (freed within the step) and is not counted in memory().
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "dsml/comm.h"
#include "dsml/data_parallel.h"
#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/rank_grid.h"
#include "dsml/teacher_task.h"

namespace dsml {

struct ZeroOptions {
  int stage = 1;                   // 1, 2 or 3
  std::string algorithm = "ring";  // used for all-reduce, all-gather and reduce-scatter alike
};

// A rank's optimizer state for one flat shard: moments shaped (shard length, 1). Empty for SGD.
struct ShardMoments {
  Eigen::MatrixXd first;   // momentum buffer / Adam m
  Eigen::MatrixXd second;  // Adam v
};

// The elementwise update of one shard (zero_shard_update.cpp): the same per-tensor functions Optimizer uses,
// applied to the shard as a column vector. `t` is the 1-based step, `lr` the scheduled rate.
// Throws Error for LARS and LAMB (per-tensor norms) and if sizes differ.
void update_shard(const OptimizerConfig& config, double lr, std::int64_t t, Buffer& params, const Buffer& grads,
                  ShardMoments& moments);

class Zero {
 public:
  // Throws Error on a bad grid (tp or pp ≠ 1), stage, config, or an optimizer that is not elementwise.
  Zero(const RankGrid& grid, const MlpConfig& config, const OptimizerConfig& optimizer, const MlpParams& initial,
       const ZeroOptions& options = {});

  // One optimizer step on the global batch (B rows, B divisible by dp).
  ParallelStep step(const Batch& global_batch);

  // The full parameters. Stages 1 and 2: rank 0's replica. Stage 3: the shards all-gathered (a read-back for
  // comparison; not part of any step's CommLog).
  MlpParams gather_params() const;
  RankMemory memory(int rank) const;
  int stage() const { return options_.stage; }
  int ranks() const { return grid_.dp; }

 private:
  ParallelStep step_replicated(const Batch& global_batch);  // stages 1, 2 (zero.cpp)
  ParallelStep step_sharded(const Batch& global_batch);     // stage 3 (zero3.cpp)
  // Every rank d updates its shard of every unit: params[d][u] with grads[d][u] and moments_[d][u].
  void update_all(std::vector<std::vector<Buffer>>& params, const std::vector<std::vector<Buffer>>& grads);

  RankGrid grid_;
  MlpConfig config_;
  OptimizerConfig optimizer_;
  ZeroOptions options_;
  std::int64_t steps_ = 0;
  std::vector<std::size_t> units_;                     // flat size of each sharded unit (1 or L of them)
  std::vector<MlpParams> replicas_;                    // stages 1, 2: [d] full parameters
  std::vector<std::vector<Buffer>> param_shards_;      // stage 3: [d][unit] rank d's shard of the unit
  std::vector<Buffer> full_grads_;                     // stage 1: [d] the all-reduced gradient, Ψ values
  std::vector<std::vector<Buffer>> grad_shards_;       // stages 2, 3: [d][unit]
  std::vector<std::vector<ShardMoments>> moments_;     // [d][unit]
};

// ---- communication (zero_comm.cpp) -------------------------------------------------------------------------
// Stage 1: all-reduce the flat gradients and divide by N; every rank keeps the full mean ("grads").
void zero_all_reduce_gradients(std::vector<Buffer>& flat_grads, const std::string& algorithm, CommLog* log,
                               const std::string& label);
// Stages 2, 3: reduce-scatter the flat gradients and divide by N; rank d gets shard d of the mean.
std::vector<Buffer> zero_reduce_scatter_gradients(const std::vector<Buffer>& flat_grads, const std::string& algorithm,
                                                  CommLog* log, const std::string& label);
// Every rank's updated shard to everyone (stages 1, 2 after the update; stage 3 before each block's use).
std::vector<Buffer> zero_gather_params(const std::vector<Buffer>& shards, const std::string& algorithm, CommLog* log,
                                       const std::string& label);

}  // namespace dsml
