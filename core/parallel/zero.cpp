// zero.cpp — the algorithm of ZeRO stages 1 and 2 (and the state all three stages keep; stage 3's step is in
// zero3.cpp). A step, for each of the N data-parallel ranks simulated in turn:
//   1. local gradient on rows [d·B/N, (d+1)·B/N) of the full replica          (no communication)
//   2. stage 1: all-reduce the gradient; stage 2: reduce-scatter it           (zero_comm.cpp)
//   3. rank d updates ONLY shard d of the flat parameters, with its shard of the optimizer state
//   4. all-gather the updated shards: every replica is whole and equal again
#include "dsml/zero.h"

#include <string>

#include "dsml/error.h"
#include "parallel/local_gradient.h"

namespace dsml {

namespace {

Buffer flatten_block(const MlpBlock& block) { return flatten({&block.w_in, &block.w_out}); }

}  // namespace

Zero::Zero(const RankGrid& grid, const MlpConfig& config, const OptimizerConfig& optimizer, const MlpParams& initial,
           const ZeroOptions& options)
    : grid_(grid), config_(config), optimizer_(optimizer), options_(options) {
  validate(grid_);
  if (grid_.tp != 1 || grid_.pp != 1)
    throw Error("ZeRO here shards over data-parallel ranks only and needs tp = 1 and pp = 1, got tp = " +
                std::to_string(grid_.tp) + ", pp = " + std::to_string(grid_.pp));
  if (options_.stage < 1 || options_.stage > 3)
    throw Error("ZeRO stage must be 1, 2 or 3, got " + std::to_string(options_.stage));
  validate(config_);
  check_shapes(config_, initial, "initial params");
  validate(optimizer_);
  if (optimizer_.kind == OptimizerKind::lars || optimizer_.kind == OptimizerKind::lamb)
    throw Error(std::string("ZeRO shards cut tensors across ranks, but ") + optimizer_name(optimizer_.kind) +
                " needs each tensor's whole norm; use sgd, momentum or adam, whose updates are elementwise");

  const auto n = static_cast<std::size_t>(grid_.dp);
  const int N = grid_.dp;
  if (options_.stage < 3) {
    units_ = {parameter_count(config_)};                       // one unit: the whole flattened model
    replicas_.assign(n, initial);
  } else {
    units_.assign(initial.blocks.size(), flatten_block(initial.blocks[0]).size());  // one unit per block
    param_shards_.assign(n, {});
    for (int d = 0; d < N; ++d)
      for (const MlpBlock& block : initial.blocks)
        param_shards_[static_cast<std::size_t>(d)].push_back(shard_of(flatten_block(block), N, d));
  }
  if (options_.stage == 1) full_grads_.assign(n, Buffer(units_[0], 0.0));
  if (options_.stage >= 2) {
    grad_shards_.assign(n, {});
    for (int d = 0; d < N; ++d)
      for (std::size_t size : units_)
        grad_shards_[static_cast<std::size_t>(d)].push_back(
            Buffer(shard_sizes(size, N)[static_cast<std::size_t>(d)], 0.0));
  }
  moments_.assign(n, std::vector<ShardMoments>(units_.size()));
}

ParallelStep Zero::step(const Batch& global_batch) {
  const auto rows = static_cast<int>(global_batch.inputs.rows());
  if (rows % grid_.dp != 0)
    throw Error("global batch of " + std::to_string(rows) + " rows is not divisible by dp = " +
                std::to_string(grid_.dp) + "; use a multiple of " + std::to_string(grid_.dp));
  return options_.stage < 3 ? step_replicated(global_batch) : step_sharded(global_batch);
}

void Zero::update_all(std::vector<std::vector<Buffer>>& params, const std::vector<std::vector<Buffer>>& grads) {
  const double lr = warmup_lr(optimizer_.lr, steps_, optimizer_.warmup_steps);  // as Optimizer::current_lr()
  const std::int64_t t = steps_ + 1;                                             // 1-based, for Adam's bias correction
  for (std::size_t d = 0; d < params.size(); ++d)
    for (std::size_t u = 0; u < units_.size(); ++u)
      update_shard(optimizer_, lr, t, params[d][u], grads[d][u], moments_[d][u]);
  steps_ = t;
}

ParallelStep Zero::step_replicated(const Batch& global_batch) {
  const int N = grid_.dp;
  const auto n = static_cast<std::size_t>(N);
  ParallelStep out;
  // 1. Local gradients, full size on every rank (transient in stage 2).
  std::vector<Buffer> flat_grads(n);
  for (int d = 0; d < N; ++d) {
    const parallel::LocalGradient local =
        parallel::local_gradient(config_, replicas_[static_cast<std::size_t>(d)], batch_shard(global_batch, N, d), 1);
    out.loss += local.loss / N;
    flat_grads[static_cast<std::size_t>(d)] = flatten(local.grads);
  }
  // 2. Stage 1 keeps the whole mean gradient and takes its shard; stage 2 only ever receives its shard.
  std::vector<std::vector<Buffer>> grads(n, std::vector<Buffer>(1));
  if (options_.stage == 1) {
    zero_all_reduce_gradients(flat_grads, options_.algorithm, &out.comm, "grads");
    full_grads_ = std::move(flat_grads);
    for (int d = 0; d < N; ++d)
      grads[static_cast<std::size_t>(d)][0] = shard_of(full_grads_[static_cast<std::size_t>(d)], N, d);
  } else {
    std::vector<Buffer> shards = zero_reduce_scatter_gradients(flat_grads, options_.algorithm, &out.comm, "grads");
    for (std::size_t d = 0; d < n; ++d) grad_shards_[d][0] = std::move(shards[d]);
    grads = grad_shards_;
  }
  // 3. Rank d updates shard d of its replica's flat parameters, with shard d of the optimizer state.
  std::vector<std::vector<Buffer>> mine(n, std::vector<Buffer>(1));
  for (int d = 0; d < N; ++d)
    mine[static_cast<std::size_t>(d)][0] = shard_of(flatten(replicas_[static_cast<std::size_t>(d)]), N, d);
  update_all(mine, grads);
  // 4. All-gather the updated shards back into every replica.
  std::vector<Buffer> shards(n);
  for (std::size_t d = 0; d < n; ++d) shards[d] = std::move(mine[d][0]);
  const std::vector<Buffer> gathered = zero_gather_params(shards, options_.algorithm, &out.comm, "params");
  for (std::size_t d = 0; d < n; ++d) unflatten(gathered[d], replicas_[d]);
  return out;
}

MlpParams Zero::gather_params() const {
  if (options_.stage < 3) return replicas_[0];
  MlpParams params = zeros_like(config_);
  for (std::size_t l = 0; l < params.blocks.size(); ++l) {
    std::vector<Buffer> shards;
    for (const auto& rank_shards : param_shards_) shards.push_back(rank_shards[l]);
    unflatten(all_gather(shards, CommOptions{options_.algorithm, nullptr, "read-back"})[0],
              {&params.blocks[l].w_in, &params.blocks[l].w_out});
  }
  return params;
}

RankMemory Zero::memory(int rank) const {
  if (rank < 0 || rank >= grid_.dp)
    throw Error("rank must be in [0, " + std::to_string(grid_.dp) + "), got " + std::to_string(rank));
  const auto r = static_cast<std::size_t>(rank);
  auto values = [](const std::vector<Buffer>& buffers) {
    double total = 0;
    for (const Buffer& b : buffers) total += static_cast<double>(b.size());
    return total;
  };
  RankMemory m;
  if (options_.stage < 3) {
    for (const Eigen::MatrixXd* t : parameter_tensors(replicas_[r])) m.params += 8.0 * static_cast<double>(t->size());
  } else {
    m.params = 8.0 * values(param_shards_[r]);
  }
  m.grads = 8.0 * (options_.stage == 1 ? static_cast<double>(full_grads_[r].size()) : values(grad_shards_[r]));
  for (const ShardMoments& s : moments_[r])
    m.optimizer += 8.0 * static_cast<double>(s.first.size() + s.second.size());
  return m;
}

}  // namespace dsml
