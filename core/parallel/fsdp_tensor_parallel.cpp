// fsdp_tensor_parallel.cpp — one training step on a dp × tp grid: FSDP wrapped around tensor parallelism.
//
// The strategies stack: the tensor-parallel block (tp_block_forward / tp_block_backward, tensor_parallel.cpp)
// is used unchanged inside each data-parallel replica d; FSDP only decides where its weights come from (an
// all-gather of shards just before use) and where its gradients go (a reduce-scatter just after).
#include <string>
#include <utility>

#include "dsml/error.h"
#include "dsml/fsdp_tensor_parallel.h"
#include "parallel/fp64_bytes.h"

namespace dsml {
namespace {

Buffer to_buffer(const Eigen::MatrixXd& column) { return Buffer(column.data(), column.data() + column.size()); }

Eigen::MatrixXd to_column(const Buffer& values) {
  return Eigen::Map<const Eigen::MatrixXd>(values.data(), static_cast<Eigen::Index>(values.size()), 1);
}

}  // namespace

FsdpTensorParallelTrainer::FsdpTensorParallelTrainer(const RankGrid& grid, const MlpConfig& model,
                                                     const OptimizerConfig& optimizer, const MlpParams& initial,
                                                     const TensorParallelOptions& options)
    : model_(model), grid_(grid), algorithm_(options.algorithm) {
  validate(model);
  check_grid(Strategy::fsdp_tp, grid);
  optimizer_ = optimizer;
  check_shapes(model, initial, "initial params");
  const std::vector<MlpParams> slices = split_tensor_parallel(initial, grid.tp);  // throws unless tp | F
  shards_.assign(static_cast<std::size_t>(grid.size()), {});
  for (int d = 0; d < grid.dp; ++d) {
    for (int t = 0; t < grid.tp; ++t) {
      for (const MlpBlock& slice : slices[t].blocks) {
        const Buffer flat = flatten(std::vector<const Eigen::MatrixXd*>{&slice.w_in, &slice.w_out});
        shards_[rank_of(grid, {d, t, 0})].push_back(to_column(shard_of(flat, grid.dp, d)));
      }
    }
  }
  optimizers_.assign(static_cast<std::size_t>(grid.size()), Optimizer(optimizer));
  if (layerwise())
    moments_.assign(static_cast<std::size_t>(grid.size()), std::vector<ShardMoments>(static_cast<std::size_t>(model.layers)));
}

bool FsdpTensorParallelTrainer::layerwise() const {
  // (even on one rank: a unit is a block's (w_in, w_out) flattened together, and the ratios are per tensor)
  return optimizer_.kind == OptimizerKind::lars || optimizer_.kind == OptimizerKind::lamb;
}

// LARS/LAMB: rank (d, t)'s unit l is shard d of tp slice t of block l's flattened (w_in, w_out) — its first
// F·D/tp values are w_in's, the rest w_out's. Tensor 2l is w_in, 2l + 1 w_out; every rank sums the squares of its
// elements per tensor and one all-reduce over all dp·tp ranks gives the whole tensors' norms.
void FsdpTensorParallelTrainer::update_layerwise(const std::vector<std::vector<Eigen::MatrixXd>>& grad_shards,
                                                 CommLog* log) {
  const std::size_t slice_in = static_cast<std::size_t>(model_.hidden / grid_.tp) * static_cast<std::size_t>(model_.width);
  const std::size_t slice = 2 * slice_in;  // w_in and w_out slices have F·D/tp values each
  std::vector<std::vector<Buffer>> params(shards_.size()), grads(shards_.size());
  std::vector<std::size_t> offset(shards_.size());  // where rank r's shard starts in its slice
  for (std::size_t r = 0; r < shards_.size(); ++r) {
    offset[r] = shard_offset(slice, grid_.dp, coord(grid_, static_cast<int>(r)).d);
    for (std::size_t l = 0; l < shards_[r].size(); ++l) {
      params[r].push_back(to_buffer(shards_[r][l]));
      grads[r].push_back(to_buffer(grad_shards[r][l]));
    }
  }
  const auto tensor_of = [&](std::size_t r, std::size_t l, std::size_t k) { return 2 * l + (offset[r] + k >= slice_in); };
  update_shards_layerwise(optimizer_, ++steps_, 2 * shards_[0].size(), tensor_of, params, grads, moments_, algorithm_, log);
  for (std::size_t r = 0; r < shards_.size(); ++r)
    for (std::size_t l = 0; l < shards_[r].size(); ++l) shards_[r][l] = to_column(params[r][l]);
}

MlpParams FsdpTensorParallelTrainer::full_params() const {
  const int hidden_per_rank = model_.hidden / grid_.tp;
  std::vector<MlpParams> slices(static_cast<std::size_t>(grid_.tp));
  for (int l = 0; l < model_.layers; ++l) {
    for (int t = 0; t < grid_.tp; ++t) {
      Buffer flat;
      for (int d = 0; d < grid_.dp; ++d) {
        const Buffer shard = to_buffer(shards_[rank_of(grid_, {d, t, 0})][l]);
        flat.insert(flat.end(), shard.begin(), shard.end());
      }
      MlpBlock slice{Eigen::MatrixXd(hidden_per_rank, model_.width), Eigen::MatrixXd(model_.width, hidden_per_rank)};
      unflatten(flat, std::vector<Eigen::MatrixXd*>{&slice.w_in, &slice.w_out});
      slices[t].blocks.push_back(std::move(slice));
    }
  }
  return gather_tensor_parallel(slices);
}

ParallelStep FsdpTensorParallelTrainer::step(const Batch& batch) {
  const int dp = grid_.dp, tp = grid_.tp, layers = model_.layers;
  const Eigen::Index rows = batch.inputs.rows();
  if (rows < 1 || batch.inputs.cols() != model_.width || batch.targets.rows() != rows ||
      batch.targets.cols() != model_.width)
    throw Error("batch inputs and targets must both be B x D = B x " + std::to_string(model_.width) +
                " with B >= 1");
  if (rows % dp != 0)
    throw Error("a batch of B = " + std::to_string(rows) + " rows does not split evenly over dp = " +
                std::to_string(dp) + " replicas");
  const Eigen::Index local = rows / dp;  // B/dp rows per replica
  ParallelStep result;
  auto options = [&](const std::string& label) { return CommOptions{algorithm_, &result.comm, label}; };
  auto rank = [&](int d, int t) { return static_cast<std::size_t>(rank_of(grid_, {d, t, 0})); };

  // FSDP: gather block l's slices, one all-gather per tp column; gathered[t][d] is rank (d, t)'s copy.
  auto gather_block = [&](int l, const std::string& why) {
    std::vector<std::vector<MlpBlock>> gathered(static_cast<std::size_t>(tp));
    for (int t = 0; t < tp; ++t) {
      std::vector<Buffer> shards;
      for (int d = 0; d < dp; ++d) shards.push_back(to_buffer(shards_[rank(d, t)][l]));
      const std::string label = "block " + std::to_string(l) + " slice " + std::to_string(t) + " " + why;
      gathered[t] = fsdp_gather_slice(shards, model_.hidden / tp, model_.width, options(label));
    }
    return gathered;
  };
  auto replica_slices = [&](const std::vector<std::vector<MlpBlock>>& gathered, int d) {
    std::vector<const MlpBlock*> slices;
    for (int t = 0; t < tp; ++t) slices.push_back(&gathered[t][d]);
    return slices;
  };

  // ---- forward: replica d's rows, replicated over its tp ranks --------------------------------------------
  std::vector<RankMatrices> x(static_cast<std::size_t>(dp));
  for (int d = 0; d < dp; ++d) x[d].assign(static_cast<std::size_t>(tp), batch.inputs.middleRows(d * local, local));
  std::vector<std::vector<TpBlockStash>> stash(static_cast<std::size_t>(layers));  // [l][d]
  for (int l = 0; l < layers; ++l) {
    const auto gathered = gather_block(l, "forward");  // freed at the end of this iteration (FSDP reshards)
    for (int d = 0; d < dp; ++d)
      stash[l].push_back(tp_block_forward(model_, replica_slices(gathered, d), x[d],
                                          options("replica " + std::to_string(d) + " block " + std::to_string(l) +
                                                  " g forward (Y)")));
  }

  // ---- loss: the mean of the replicas' means (equal row counts); each replica backpropagates its own mean ------
  std::vector<RankMatrices> dy(static_cast<std::size_t>(dp));
  for (int d = 0; d < dp; ++d) {
    const Eigen::MatrixXd target = batch.targets.middleRows(d * local, local);
    result.loss += mse_loss(x[d][0], target) / dp;
    dy[d].assign(static_cast<std::size_t>(tp), mse_loss_gradient(x[d][0], target));  // (B/dp, D)
  }

  // ---- backward: gather again, TP backward per replica, reduce-scatter each slice's gradient ----------------
  std::vector<std::vector<Eigen::MatrixXd>> grad_shards(  // [rank][block]: (shard length, 1)
      shards_.size(), std::vector<Eigen::MatrixXd>(static_cast<std::size_t>(layers)));
  for (int l = layers; l-- > 0;) {
    const auto gathered = gather_block(l, "backward");
    std::vector<std::vector<MlpBlock>> grads(static_cast<std::size_t>(tp));  // [t][d]
    for (int d = 0; d < dp; ++d) {
      std::vector<MlpBlock> replica_grads;  // [t]
      tp_block_backward(model_, replica_slices(gathered, d), stash[l][d], dy[d], replica_grads,
                        options("replica " + std::to_string(d) + " block " + std::to_string(l) + " f backward (dX)"));
      for (int t = 0; t < tp; ++t) grads[t].push_back(std::move(replica_grads[t]));
    }
    for (int t = 0; t < tp; ++t) {
      const std::vector<Buffer> mean = fsdp_reduce_scatter_slice(
          grads[t], options("block " + std::to_string(l) + " slice " + std::to_string(t) + " grads"));
      for (int d = 0; d < dp; ++d) grad_shards[rank(d, t)][l] = to_column(mean[d]);
    }
  }

  // ---- every rank updates its own shards; then what each rank holds ----------------------------------------
  if (layerwise()) update_layerwise(grad_shards, &result.comm);
  for (std::size_t r = 0; r < shards_.size(); ++r) {
    std::vector<Eigen::MatrixXd*> params;
    std::vector<const Eigen::MatrixXd*> grads;
    for (int l = 0; l < layers; ++l) {
      params.push_back(&shards_[r][l]);
      grads.push_back(&grad_shards[r][l]);
    }
    if (!layerwise()) optimizers_[r].step(params, grads);
    const RankCoord c = coord(grid_, static_cast<int>(r));
    MemoryBreakdown mem;
    for (int l = 0; l < layers; ++l) {
      mem.params += bytes_of(shards_[r][l]);
      mem.grads += bytes_of(grad_shards[r][l]);
      mem.activations += bytes_of(stash[l][c.d].x[c.t]) + bytes_of(stash[l][c.d].h[c.t]);
    }
    for (const Eigen::MatrixXd& st : optimizers_[r].state().first) mem.optimizer += bytes_of(st);
    for (const Eigen::MatrixXd& st : optimizers_[r].state().second) mem.optimizer += bytes_of(st);
    if (layerwise())
      for (const ShardMoments& st : moments_[r]) mem.optimizer += bytes_of(st.first) + bytes_of(st.second);
    mem.total = mem.params + mem.grads + mem.optimizer + mem.activations;
    result.memory.push_back(mem);
  }
  return result;
}

}  // namespace dsml
