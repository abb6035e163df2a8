// zero.cpp — the algorithm of ZeRO stages 1 and 2 (and the state all three stages keep; stage 3's step is in
// zero3.cpp). A step, for each of the N data-parallel ranks simulated in turn:
//   1. local gradient on rows [d·B/N, (d+1)·B/N) of the full replica          (no communication)
//   2. per bucket, reduce-scatter it: rank d gets shard d of the mean        (zero_comm.cpp)
//      (stage 1 keeps the whole gradient buffer, its shards averaged; stage 2 only the shards)
//   3. rank d updates ONLY shard d of every bucket of the flat parameters, with its shard of the optimizer state
//   4. per bucket, all-gather the updated shards: every replica is whole and equal again
#include "dsml/zero.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "dsml/error.h"
#include "parallel/local_gradient.h"

namespace dsml {

namespace {

Buffer flatten_block(const MlpBlock& block) { return flatten({&block.w_in, &block.w_out}); }

}  // namespace

Zero::Zero(const RankGrid& grid, const MlpConfig& model, const OptimizerConfig& optimizer, const MlpParams& initial,
           const ZeroOptions& options)
    : grid_(grid), config_(model), optimizer_(optimizer), options_(options) {
  if (options_.stage < 1 || options_.stage > 3)
    throw Error("ZeRO stage must be 1, 2 or 3, got " + std::to_string(options_.stage));
  check_grid(options_.stage == 1 ? Strategy::zero1 : options_.stage == 2 ? Strategy::zero2 : Strategy::zero3, grid_);
  validate(config_);
  check_shapes(config_, initial, "initial params");
  validate(optimizer_);

  const auto n = static_cast<std::size_t>(grid_.dp);
  const int N = grid_.dp;
  if (options_.stage < 3) {
    buckets_ = gradient_buckets(parameter_count(config_), bucket_values(options_.bucket_bytes, 8.0));
    for (const Bucket& b : buckets_) units_.push_back(static_cast<std::size_t>(b.end - b.begin));
    replicas_.assign(n, initial);
  } else {
    units_.assign(initial.blocks.size(), flatten_block(initial.blocks[0]).size());  // one unit per block
    param_shards_.assign(n, {});
    for (int d = 0; d < N; ++d)
      for (const MlpBlock& block : initial.blocks)
        param_shards_[static_cast<std::size_t>(d)].push_back(shard_of(flatten_block(block), N, d));
  }
  if (options_.stage == 1) full_grads_.assign(n, Buffer(parameter_count(config_), 0.0));
  grad_shards_.assign(n, {});
  for (int d = 0; d < N; ++d)
    for (std::size_t size : units_)
      grad_shards_[static_cast<std::size_t>(d)].emplace_back(shard_sizes(size, N)[static_cast<std::size_t>(d)], 0.0);
  moments_.assign(n, std::vector<ShardMoments>(units_.size()));
}

ParallelStep Zero::step(const Batch& global_batch) {
  const auto rows = static_cast<int>(global_batch.inputs.rows());
  if (rows % grid_.dp != 0)
    throw Error("global batch of " + std::to_string(rows) + " rows is not divisible by dp = " +
                std::to_string(grid_.dp) + "; use a multiple of " + std::to_string(grid_.dp));
  return options_.stage < 3 ? step_replicated(global_batch) : step_sharded(global_batch);
}

void Zero::update_all(std::vector<std::vector<Buffer>>& params, const std::vector<std::vector<Buffer>>& grads,
                      CommLog* log) {
  const std::int64_t t = steps_ + 1;  // 1-based, for the warm-up and Adam's bias correction
  for (const std::vector<Buffer>& rank : grads)  // as Optimizer::step: a non-finite gradient is divergence
    for (const Buffer& shard : rank)
      for (double x : shard)
        if (!std::isfinite(x)) throw DivergedError("a gradient shard contains nan or inf");
  if (optimizer_.kind == OptimizerKind::lars || optimizer_.kind == OptimizerKind::lamb) {
    // Where each shard sits in the flat model, and where each tensor ends: the norm all-reduce needs both.
    const int N = grid_.dp;
    std::vector<std::vector<std::uint64_t>> starts(params.size());
    for (std::size_t d = 0; d < params.size(); ++d)
      for (std::size_t u = 0; u < units_.size(); ++u)
        starts[d].push_back((options_.stage < 3 ? buckets_[u].begin : u * units_[u]) +
                            shard_offset(units_[u], N, static_cast<int>(d)));
    std::vector<std::uint64_t> tensor_ends;
    std::uint64_t end = 0;
    const MlpParams shapes = zeros_like(config_);
    for (const Eigen::MatrixXd* w : parameter_tensors(shapes))
      tensor_ends.push_back(end += static_cast<std::uint64_t>(w->size()));
    update_shards_layerwise(optimizer_, t, tensor_ends, starts, params, grads, moments_, options_.algorithm, log);
  } else {
    for (std::size_t d = 0; d < params.size(); ++d)
      for (std::size_t u = 0; u < units_.size(); ++u)
        update_shard(optimizer_, t, params[d][u], grads[d][u], moments_[d][u]);
  }
  steps_ = t;
}

ParallelStep Zero::step_replicated(const Batch& global_batch) {
  const int N = grid_.dp;
  const auto n = static_cast<std::size_t>(N);
  ParallelStep out;
  // 1. Local gradients, full size on every rank (transient in stage 2).
  std::vector<Buffer> flat_grads(n);
  std::vector<double> activations(n);
  for (int d = 0; d < N; ++d) {
    const parallel::LocalGradient local =
        parallel::local_gradient(config_, replicas_[static_cast<std::size_t>(d)], batch_shard(global_batch, N, d), 1);
    out.loss += local.loss / N;
    flat_grads[static_cast<std::size_t>(d)] = flatten(local.grads);
    activations[static_cast<std::size_t>(d)] = local.activation_bytes;
  }
  // 2. Per bucket, in backward's order: reduce-scatter; rank d receives the mean of its shard d of the bucket.
  const auto at = [](auto& flat, std::uint64_t i) { return flat.begin() + static_cast<std::ptrdiff_t>(i); };
  const auto slice = [&](const Buffer& flat, const Bucket& b) { return Buffer(at(flat, b.begin), at(flat, b.end)); };
  for (std::size_t u = 0; u < buckets_.size(); ++u) {
    std::vector<Buffer> per_rank(n);
    for (std::size_t d = 0; d < n; ++d) per_rank[d] = slice(flat_grads[d], buckets_[u]);
    std::vector<Buffer> mean = zero_reduce_scatter_gradients(per_rank, options_.algorithm, &out.comm,
                                                             "bucket " + std::to_string(u) + " grads");
    for (std::size_t d = 0; d < n; ++d) grad_shards_[d][u] = std::move(mean[d]);
  }
  if (options_.stage == 1) {  // the whole buffer stays; its shards now hold the mean
    for (std::size_t d = 0; d < n; ++d) {
      for (std::size_t u = 0; u < buckets_.size(); ++u) {
        const std::uint64_t start = buckets_[u].begin + shard_offset(units_[u], N, static_cast<int>(d));
        std::copy(grad_shards_[d][u].begin(), grad_shards_[d][u].end(), at(flat_grads[d], start));
      }
    }
    full_grads_ = std::move(flat_grads);
  }
  // 3. Rank d updates shard d of every bucket of its replica's flat parameters, with its shard of the optimizer state.
  std::vector<Buffer> flat_params(n);
  std::vector<std::vector<Buffer>> mine(n, std::vector<Buffer>(buckets_.size()));
  for (std::size_t d = 0; d < n; ++d) {
    flat_params[d] = flatten(replicas_[d]);
    for (std::size_t u = 0; u < buckets_.size(); ++u)
      mine[d][u] = shard_of(slice(flat_params[d], buckets_[u]), N, static_cast<int>(d));
  }
  update_all(mine, grad_shards_, &out.comm);
  // 4. Per bucket, all-gather the updated shards back into every replica.
  for (std::size_t u = 0; u < buckets_.size(); ++u) {
    std::vector<Buffer> shards(n);
    for (std::size_t d = 0; d < n; ++d) shards[d] = std::move(mine[d][u]);
    const std::vector<Buffer> gathered =
        zero_gather_params(shards, options_.algorithm, &out.comm, "bucket " + std::to_string(u) + " params");
    for (std::size_t d = 0; d < n; ++d)
      std::copy(gathered[d].begin(), gathered[d].end(), at(flat_params[d], buckets_[u].begin));
  }
  for (std::size_t d = 0; d < n; ++d) {
    unflatten(flat_params[d], replicas_[d]);
    out.memory.push_back(memory(static_cast<int>(d), activations[d]));
  }
  return out;
}

MlpParams Zero::full_params() const {
  if (options_.stage < 3) return replicas_[0];
  MlpParams params = zeros_like(config_);
  for (std::size_t l = 0; l < params.blocks.size(); ++l) {
    Buffer flat;  // the shards in rank order are the block's flat (w_in, w_out)
    for (const auto& rank_shards : param_shards_) flat.insert(flat.end(), rank_shards[l].begin(), rank_shards[l].end());
    unflatten(flat, {&params.blocks[l].w_in, &params.blocks[l].w_out});
  }
  return params;
}

MemoryBreakdown Zero::memory(int rank, double activation_bytes) const {
  const auto r = static_cast<std::size_t>(rank);
  auto values = [](const std::vector<Buffer>& buffers) {
    double total = 0;
    for (const Buffer& b : buffers) total += static_cast<double>(b.size());
    return total;
  };
  MemoryBreakdown m;
  m.params = 8.0 * (options_.stage < 3 ? static_cast<double>(parameter_count(config_)) : values(param_shards_[r]));
  m.grads = 8.0 * (options_.stage == 1 ? static_cast<double>(full_grads_[r].size()) : values(grad_shards_[r]));
  for (const ShardMoments& s : moments_[r])
    m.optimizer += 8.0 * static_cast<double>(s.first.size() + s.second.size());
  m.activations = activation_bytes;
  m.total = m.params + m.grads + m.optimizer + m.activations;
  return m;
}

}  // namespace dsml
