// data_parallel.cpp — the algorithm of data parallelism: replicate, split the batch, average, update everywhere.
//
// All dp ranks are simulated in one process, one after another; nothing is shared between replicas except
// through the all-reduce in data_parallel_comm.cpp, so a replica that drifted would show in the tests.
#include "dsml/data_parallel.h"

#include <string>

#include "dsml/error.h"
#include "parallel/local_gradient.h"

namespace dsml {

DataParallel::DataParallel(const RankGrid& grid, const MlpConfig& model, const OptimizerConfig& optimizer,
                           const MlpParams& initial, const DataParallelOptions& options)
    : grid_(grid), config_(model), options_(options) {
  check_grid(options.sync == GradientSync::bucketed ? Strategy::dp_bucketed : Strategy::dp, grid_);
  validate(config_);
  check_shapes(config_, initial, "initial params");
  validate(optimizer);
  if (options_.micro_batches < 1)
    throw Error("micro_batches must be >= 1, got " + std::to_string(options_.micro_batches));
  if (options_.sync == GradientSync::bucketed) require_positive("bucket_bytes", options_.bucket_bytes);
  replicas_.assign(static_cast<std::size_t>(grid_.dp), initial);  // every rank starts from the same weights
  grads_.assign(static_cast<std::size_t>(grid_.dp), zeros_like(config_));
  optimizers_.assign(static_cast<std::size_t>(grid_.dp), Optimizer(optimizer));
}

ParallelStep DataParallel::step(const Batch& global_batch) {
  const int dp = grid_.dp;
  const auto rows = static_cast<int>(global_batch.inputs.rows());
  if (rows % (dp * options_.micro_batches) != 0)
    throw Error("global batch of " + std::to_string(rows) + " rows is not divisible by dp x micro_batches = " +
                std::to_string(dp) + " x " + std::to_string(options_.micro_batches) +
                "; use a batch that is a multiple of " + std::to_string(dp * options_.micro_batches));
  ParallelStep out;
  // 1. Local: rank d, rows [d·B/dp, (d+1)·B/dp), k micro-batches accumulated. No communication.
  std::vector<double> activations(static_cast<std::size_t>(dp));
  for (int d = 0; d < dp; ++d) {
    parallel::LocalGradient local = parallel::local_gradient(
        config_, replicas_[static_cast<std::size_t>(d)], batch_shard(global_batch, dp, d), options_.micro_batches);
    out.loss += local.loss / dp;  // equal shards: the global mean is the mean of the ranks' means
    grads_[static_cast<std::size_t>(d)] = std::move(local.grads);
    activations[static_cast<std::size_t>(d)] = local.activation_bytes;
  }
  // 2. Communication: every rank ends with the mean gradient (data_parallel_comm.cpp).
  if (options_.sync == GradientSync::naive)
    average_gradients_naive(grads_, options_.algorithm, &out.comm);
  else
    average_gradients_bucketed(grads_, options_.bucket_bytes, options_.algorithm, &out.comm);
  // 3. Every rank applies the same update to its replica with its own optimizer state.
  for (int d = 0; d < dp; ++d)
    optimizers_[static_cast<std::size_t>(d)].step(replicas_[static_cast<std::size_t>(d)],
                                                  grads_[static_cast<std::size_t>(d)]);
  for (int d = 0; d < dp; ++d) out.memory.push_back(memory(d, activations[static_cast<std::size_t>(d)]));
  return out;
}

const MlpParams& DataParallel::params(int rank) const {
  if (rank < 0 || rank >= grid_.dp)
    throw Error("rank must be in [0, " + std::to_string(grid_.dp) + "), got " + std::to_string(rank));
  return replicas_[static_cast<std::size_t>(rank)];
}

MemoryBreakdown DataParallel::memory(int rank, double activation_bytes) const {
  const auto r = static_cast<std::size_t>(rank);
  MemoryBreakdown m;
  m.params = 8.0 * static_cast<double>(flatten(replicas_[r]).size());
  m.grads = 8.0 * static_cast<double>(flatten(grads_[r]).size());
  const OptimizerState& state = optimizers_[r].state();
  for (const auto* moments : {&state.first, &state.second})
    for (const Eigen::MatrixXd& t : *moments) m.optimizer += 8.0 * static_cast<double>(t.size());
  m.activations = activation_bytes;
  m.total = m.params + m.grads + m.optimizer + m.activations;
  return m;
}

}  // namespace dsml
