// dsml/data_parallel.h — data parallelism over the MLP: every rank a full replica, gradients averaged.
//
// Each of the grid's dp ranks holds the whole model and its own optimizer, takes rows [d·B/dp, (d+1)·B/dp) of the
// global batch, computes the gradient of the mean loss over its rows, and the ranks all-reduce and divide by dp
// — so every replica applies the full-batch gradient and they stay identical (Li et al., "PyTorch Distributed",
// VLDB 2020). Two ways to synchronise, side by side (data_parallel_comm.cpp), to diff:
//   naive     one all-reduce per parameter tensor (2L messages), issued in the order backward finishes them:
//             the last block's w_out first
//   bucketed  gradients flattened and cut into buckets of bucket_bytes, one all-reduce per bucket (fewer, larger
//             messages: fewer α terms — what PyTorch DDP's 25 MiB buckets are for); as in DDP the buckets fill
//             from the last parameter backwards, so bucket 0 is the first one backward completes
// Gradient accumulation: micro_batches = k splits each rank's rows into k micro-batches whose gradients are
// summed (and divided by k) before the one all-reduce — the same step as one big batch, 1/k of the
// communication per sample.
//
// The grid is a value: only dp is used; tp and pp must be 1. Everything is fp64 (8 bytes per value).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsml/comm.h"
#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/rank_grid.h"
#include "dsml/single_device.h"
#include "dsml/strategy.h"
#include "dsml/teacher_task.h"

namespace dsml {

// Rows [d·B/parts, (d+1)·B/parts) of `batch`. Throws Error unless parts divides the batch size (a rank's mean
// loss must weigh the same number of rows as everyone else's for "average the gradients" to be exact).
Batch batch_shard(const Batch& batch, int parts, int index);

enum class GradientSync { naive, bucketed };

struct DataParallelOptions {
  GradientSync sync = GradientSync::naive;
  double bucket_bytes = 25.0 * 1024 * 1024;  // bucketed only: > 0; the last bucket may be smaller
  int micro_batches = 1;                     // k ≥ 1: gradient accumulation steps per optimizer step
  std::string algorithm = "ring";            // the all-reduce algorithm (make_schedule's names)
};

class DataParallel : public ParallelTrainer {
 public:
  // Every replica starts from `initial`. Throws Error on a bad grid (tp or pp ≠ 1), config or options.
  DataParallel(const RankGrid& grid, const MlpConfig& model, const OptimizerConfig& optimizer,
               const MlpParams& initial, const DataParallelOptions& options = {});

  // One optimizer step on the global batch (B rows, B divisible by dp·micro_batches). memory: per rank the full
  // model, its gradient and optimizer state, and one micro-batch's activations (B/(dp·k) rows).
  ParallelStep step(const Batch& global_batch) override;

  MlpParams full_params() const override { return replicas_[0]; }  // all replicas are equal after every step
  const MlpParams& params(int rank) const;                          // rank d's replica
  const RankGrid& grid() const override { return grid_; }

 private:
  MemoryBreakdown memory(int rank, double activation_bytes) const;

  RankGrid grid_;
  MlpConfig config_;
  DataParallelOptions options_;
  std::vector<MlpParams> replicas_;     // [d] full parameters
  std::vector<MlpParams> grads_;        // [d] full gradients (kept, like PyTorch's .grad)
  std::vector<Optimizer> optimizers_;   // [d] full optimizer state
};

// ---- communication (data_parallel_comm.cpp) -----------------------------------------------------------------
// DDP's buckets: the flat gradient of `values` elements (flatten() order) cut into buckets of `per_bucket` ≥ 1
// values, filled from the LAST value backwards (Li et al. 2020 §3.2.3: backward produces the last block's gradients
// first, so bucket 0 is ready first). The last bucket, which holds the model's first values, may be smaller.
// Dual use: the implementations (8-byte values) and the step cost model (element_bytes per value) cut alike.
struct Bucket {
  std::uint64_t begin = 0;  // flat index range [begin, end)
  std::uint64_t end = 0;
};
std::vector<Bucket> gradient_buckets(std::uint64_t values, std::uint64_t per_bucket);
// Values per bucket: ⌊bucket_bytes / element_bytes⌋, at least 1. Throws Error unless both are > 0.
std::uint64_t bucket_values(double bucket_bytes, double element_bytes);

// grads[d] is rank d's local gradient; afterwards every grads[d] is the mean over ranks.
// Naive: one all-reduce per tensor, last tensor first, labelled "blocks[l].w_out" / "blocks[l].w_in".
void average_gradients_naive(std::vector<MlpParams>& grads, const std::string& algorithm, CommLog* log);
// Bucketed: the flat gradients cut by gradient_buckets(Ψ, bucket_values(bucket_bytes, 8)), one all-reduce per
// bucket, labelled "bucket 0", "bucket 1", … Throws Error unless bucket_bytes > 0.
void average_gradients_bucketed(std::vector<MlpParams>& grads, double bucket_bytes, const std::string& algorithm,
                                CommLog* log);

}  // namespace dsml
