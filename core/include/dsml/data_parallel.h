// dsml/data_parallel.h — data parallelism over the MLP: every rank a full replica, gradients averaged.
//
// Each of the grid's dp ranks holds the whole model and its own optimizer, takes rows [d·B/dp, (d+1)·B/dp) of the
// global batch, computes the gradient of the mean loss over its rows, and the ranks all-reduce and divide by dp
// — so every replica applies the full-batch gradient and they stay identical (Li et al., "PyTorch Distributed",
// VLDB 2020). Two ways to synchronise, side by side (data_parallel_comm.cpp), to diff:
//   naive     one all-reduce per parameter tensor (2L messages of very different sizes)
//   bucketed  gradients flattened into buckets of bucket_bytes, one all-reduce per bucket (fewer, larger
//             messages: fewer α terms — what PyTorch DDP's 25 MB buckets are for)
// Gradient accumulation: micro_batches = k splits each rank's rows into k micro-batches whose gradients are
// summed (and divided by k) before the one all-reduce — the same step as one big batch, 1/k of the
// communication per sample.
//
// The grid is a value: only dp is used; tp and pp must be 1. Everything is fp64 (8 bytes per value).
#pragma once

#include <string>
#include <vector>

#include "dsml/comm.h"
#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/rank_grid.h"
#include "dsml/teacher_task.h"

namespace dsml {

// What one training step of a parallel strategy reports.
struct ParallelStep {
  double loss = 0;  // mean over the global batch (what the single-device run reports)
  CommLog comm;     // every collective of this step, bytes per rank by kind
};

// Bytes one rank holds between steps, counted from the buffers it actually keeps (8-byte doubles).
struct RankMemory {
  double params = 0;     // parameters (full replica, or the rank's shard)
  double grads = 0;      // gradients kept for the update (full, or the shard)
  double optimizer = 0;  // optimizer state: momentum / Adam's m and v (full, or the shard)
  double total() const { return params + grads + optimizer; }
};

// Rows [d·B/parts, (d+1)·B/parts) of `batch`. Throws Error unless parts divides the batch size (a rank's mean
// loss must weigh the same number of rows as everyone else's for "average the gradients" to be exact).
Batch batch_shard(const Batch& batch, int parts, int index);

// The single-device reference every strategy is tested against: forward, mean loss, backward, one optimizer
// step. Returns the loss before the update.
double reference_step(const MlpConfig& config, Optimizer& optimizer, MlpParams& params, const Batch& batch);

enum class GradientSync { naive, bucketed };

struct DataParallelOptions {
  GradientSync sync = GradientSync::naive;
  double bucket_bytes = 25.0 * 1024 * 1024;  // bucketed only: > 0; the last bucket may be smaller
  int micro_batches = 1;                     // k ≥ 1: gradient accumulation steps per optimizer step
  std::string algorithm = "ring";            // the all-reduce algorithm (make_schedule's names)
};

class DataParallel {
 public:
  // Every replica starts from `initial`. Throws Error on a bad grid (tp or pp ≠ 1), config or options.
  DataParallel(const RankGrid& grid, const MlpConfig& config, const OptimizerConfig& optimizer,
               const MlpParams& initial, const DataParallelOptions& options = {});

  // One optimizer step on the global batch (B rows, B divisible by dp·micro_batches).
  ParallelStep step(const Batch& global_batch);

  const MlpParams& params(int rank = 0) const;  // rank d's replica (all replicas are equal after every step)
  RankMemory memory(int rank) const;
  int ranks() const { return grid_.dp; }

 private:
  RankGrid grid_;
  MlpConfig config_;
  DataParallelOptions options_;
  std::vector<MlpParams> replicas_;     // [d] full parameters
  std::vector<MlpParams> grads_;        // [d] full gradients (kept, like PyTorch's .grad)
  std::vector<Optimizer> optimizers_;   // [d] full optimizer state
};

// ---- communication (data_parallel_comm.cpp) -----------------------------------------------------------------
// grads[d] is rank d's local gradient; afterwards every grads[d] is the mean over ranks.
// Naive: one all-reduce per tensor, labelled "blocks[l].w_in" / "blocks[l].w_out".
void average_gradients_naive(std::vector<MlpParams>& grads, const std::string& algorithm, CommLog* log);
// Bucketed: tensors flattened in parameter order and cut into buckets of ⌊bucket_bytes/8⌋ values (at least 1),
// one all-reduce per bucket, labelled "bucket 0", "bucket 1", … Throws Error unless bucket_bytes > 0.
void average_gradients_bucketed(std::vector<MlpParams>& grads, double bucket_bytes, const std::string& algorithm,
                                CommLog* log);

}  // namespace dsml
