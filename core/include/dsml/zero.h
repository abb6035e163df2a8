// dsml/zero.h — ZeRO stages 1, 2 and 3 (FSDP) over the MLP: data parallelism that stops replicating state.
//
// Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models", SC 2020. With N
// data-parallel ranks and Ψ parameters (fp64 here, 8 bytes each), what one rank holds between steps:
//                  params  grads  optimizer (Adam: m, v)  communication per step and rank (ring)
//   DP             Ψ       Ψ      2Ψ                      all-reduce(grads)                          2(N−1)/N·Ψ
//   ZeRO-1         Ψ       Ψ      2Ψ/N                    reduce-scatter(grads) + all-gather(params) 2(N−1)/N·Ψ
//   ZeRO-2         Ψ       Ψ/N    2Ψ/N                    reduce-scatter(grads) + all-gather(params) 2(N−1)/N·Ψ
//   ZeRO-3 / FSDP  Ψ/N     Ψ/N    2Ψ/N                    per block: all-gather before forward and
//                                                         again before backward, reduce-scatter      3(N−1)/N·Ψ
// Stages 1 and 2 move exactly DP's bytes (ZeRO §7.2.1: with P_os and P_os+g "ZeRO-DP incurs no additional
// communication", 2Ψ per rank, because an all-reduce IS a reduce-scatter followed by an all-gather — ZeRO only
// moves the optimizer update in between). They differ in memory only: stage 1 keeps the whole gradient buffer
// backward wrote (its shard of it averaged), stage 2 keeps only its shard. ZeRO-3 moves 3(N−1)/N·Ψ = 1.5× DP.
//
// Buckets. Stages 1 and 2 send the gradients in DP's buckets (gradient_buckets over the flattened model,
// bucket_bytes each, from the last parameter backwards, data_parallel.h): one reduce-scatter per bucket, then,
// after the update, one all-gather per bucket — so they cost what dp-bucketed costs, message for message and
// latency for latency (DeepSpeed's reduce_bucket_size and allgather_bucket_size play this role). Rank d owns
// shard d (shard_sizes) of every bucket. Stage 3 shards each block's flattened (w_in, w_out) separately — FSDP's
// "unit" — so a block can be gathered alone. The update of a shard is exact for elementwise optimizers (SGD,
// momentum, Adam): each element's update reads only that element. LARS and LAMB need whole-tensor norms: every
// rank all-reduces its per-tensor partial sums of squares (2 values per tensor) before the update
// (update_shards_layerwise) — one extra small all-reduce, labelled "trust-ratio norms", in the step's CommLog.
//
// ZeRO-2 and ZeRO-3 still compute a rank's full local gradient (of the whole model, resp. of one block) before
// reduce-scattering it: that buffer is transient (freed within the step) and is not counted in memory.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <functional>
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
  int stage = 1;                             // 1, 2 or 3
  double bucket_bytes = 25.0 * 1024 * 1024;  // stages 1, 2: bytes per gradient bucket (8-byte values), > 0
  std::string algorithm = "ring";            // used for all-gather and reduce-scatter alike
};

// A rank's optimizer state for one flat shard: moments shaped (shard length, 1). Empty for SGD.
struct ShardMoments {
  Eigen::MatrixXd first;   // momentum buffer / Adam m
  Eigen::MatrixXd second;  // Adam v
};

// The elementwise update of one shard (zero_shard_update.cpp): the same per-tensor functions Optimizer uses,
// applied to the shard as a column vector, at step t (1-based) and the rate Optimizer would use then
// (warmup_lr(lr, t − 1, warmup_steps)). Empty moments start at zero, as an Optimizer's do.
// Throws Error for LARS and LAMB (they need every shard's norms: update_shards_layerwise), if sizes differ, or
// if t < 1.
void update_shard(const OptimizerConfig& config, std::int64_t t, Buffer& params, const Buffer& grads,
                  ShardMoments& moments);

// The state a caller holds for update_shard as flat arrays (the lab's Float64Arrays) — `m`, the momentum buffer or
// Adam's first moment, and `v`, Adam's second — of `m_size` and `v_size` values beside a shard of `params` values.
// A moment the kind uses is empty (zeros: a run's start) or holds one value per parameter; one it does not use is
// not read (it comes back as given). In place (the caller's arrays written back, not replaced) a used moment must
// already hold one value per parameter: zeros to start. Throws Error naming m or v otherwise.
void check_shard_state(OptimizerKind kind, std::size_t params, std::size_t m_size, std::size_t v_size, bool in_place);

// LARS and LAMB on shards (zero_layerwise_update.cpp): rank d's unit u holds the flat model's values
// [starts[d][u], starts[d][u] + params[d][u].size()); tensor k ends (exclusive) at tensor_ends[k] (flatten order).
// Each rank sums the squares of its elements of w and of g (LAMB: of its direction u) per tensor, the 2·T sums are
// all-reduced over the ranks (logged in `log` as "trust-ratio norms"), and each rank applies the whole-tensor
// trust ratio — the unsharded optimizer's numbers. Throws Error for other kinds, mismatched sizes, or t < 1.
void update_shards_layerwise(const OptimizerConfig& config, std::int64_t t,
                             const std::vector<std::uint64_t>& tensor_ends,
                             const std::vector<std::vector<std::uint64_t>>& starts,
                             std::vector<std::vector<Buffer>>& params, const std::vector<std::vector<Buffer>>& grads,
                             std::vector<std::vector<ShardMoments>>& moments, const std::string& algorithm,
                             CommLog* log);
// The same for any layout: tensor_of(d, u, k) is the tensor (< tensors) holding element k of rank d's unit u —
// FSDP × TP's units are a dp shard of a tp slice of a block's (w_in, w_out), no contiguous range of one flat model.
using TensorOfElement = std::function<std::size_t(std::size_t rank, std::size_t unit, std::size_t element)>;
void update_shards_layerwise(const OptimizerConfig& config, std::int64_t t, std::size_t tensors,
                             const TensorOfElement& tensor_of, std::vector<std::vector<Buffer>>& params,
                             const std::vector<std::vector<Buffer>>& grads,
                             std::vector<std::vector<ShardMoments>>& moments, const std::string& algorithm,
                             CommLog* log);

class Zero : public ParallelTrainer {
 public:
  // Throws Error on a bad grid (tp or pp ≠ 1), stage, config or bucket size.
  Zero(const RankGrid& grid, const MlpConfig& model, const OptimizerConfig& optimizer, const MlpParams& initial,
       const ZeroOptions& options = {});

  // One optimizer step on the global batch (B rows, B divisible by dp).
  ParallelStep step(const Batch& global_batch) override;

  // The full parameters. Stages 1 and 2: rank 0's replica. Stage 3: the shards concatenated (a read-back for
  // comparison; not part of any step's CommLog).
  MlpParams full_params() const override;
  const RankGrid& grid() const override { return grid_; }
  int stage() const { return options_.stage; }

 private:
  ParallelStep step_replicated(const Batch& global_batch);  // stages 1, 2 (zero.cpp)
  ParallelStep step_sharded(const Batch& global_batch);     // stage 3 (zero3.cpp)
  // Every rank d updates its shard of every unit: params[d][u] with grads[d][u] and moments_[d][u]; LARS and LAMB
  // first all-reduce their norms (logged in `log`).
  void update_all(std::vector<std::vector<Buffer>>& params, const std::vector<std::vector<Buffer>>& grads,
                  CommLog* log);
  MemoryBreakdown memory(int rank, double activation_bytes) const;

  RankGrid grid_;
  MlpConfig config_;
  OptimizerConfig optimizer_;
  ZeroOptions options_;
  std::int64_t steps_ = 0;
  std::vector<Bucket> buckets_;                        // stages 1, 2: the units, ranges of the flat model
  std::vector<std::size_t> units_;                     // flat size of each sharded unit (bucket or block)
  std::vector<MlpParams> replicas_;                    // stages 1, 2: [d] full parameters
  std::vector<std::vector<Buffer>> param_shards_;      // stage 3: [d][unit] rank d's shard of the unit
  std::vector<Buffer> full_grads_;                     // stage 1: [d] the whole gradient buffer, Ψ values
  std::vector<std::vector<Buffer>> grad_shards_;       // [d][unit] the averaged gradient of rank d's shards
  std::vector<std::vector<ShardMoments>> moments_;     // [d][unit]
};

// ---- communication (zero_comm.cpp) -------------------------------------------------------------------------
// Reduce-scatter the flat gradients (one unit: a bucket or a block) and divide by N; rank d gets shard d of the
// mean.
std::vector<Buffer> zero_reduce_scatter_gradients(const std::vector<Buffer>& flat_grads, const std::string& algorithm,
                                                  CommLog* log, const std::string& label);
// Every rank's shard of a unit to everyone (stages 1, 2 after the update; stage 3 before each block's use).
std::vector<Buffer> zero_gather_params(const std::vector<Buffer>& shards, const std::string& algorithm, CommLog* log,
                                       const std::string& label);

}  // namespace dsml
