// tensor_parallel.cpp — one training step of the MLP with every block split over tp ranks (Megatron-LM,
// Shoeybi et al. 2019). The header draws the forward; here it is, rank by rank, followed by the backward.
//
// All tp ranks live in this one process: rank t's state is slices_[t] and optimizers_[t], its activations are
// element t of a RankMatrices. Only tp_f_backward and tp_g_forward (tensor_parallel_comm.cpp) let ranks see
// each other's numbers — everything else below is rank-local, which is the point of the method.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "dsml/error.h"
#include "dsml/tensor_parallel.h"
#include "parallel/fp64_bytes.h"

namespace dsml {
namespace {

void require_divisible(const MlpConfig& model, int tp) {
  if (tp < 1) throw Error("tensor-parallel size tp must be >= 1, got " + std::to_string(tp));
  if (model.hidden % tp != 0)
    throw Error("hidden width F = " + std::to_string(model.hidden) + " is not divisible by tp = " +
                std::to_string(tp) + ": each rank needs F/tp whole rows of W_in and columns of W_out");
}

}  // namespace

std::vector<MlpParams> split_tensor_parallel(const MlpParams& params, int tp) {
  if (tp < 1) throw Error("tensor-parallel size tp must be >= 1, got " + std::to_string(tp));
  std::vector<MlpParams> slices(static_cast<std::size_t>(tp));
  for (const MlpBlock& block : params.blocks) {
    const Eigen::Index hidden = block.w_in.rows();  // F
    if (hidden % tp != 0 || block.w_out.cols() != hidden)
      throw Error("hidden width F = " + std::to_string(hidden) + " is not divisible by tp = " + std::to_string(tp) +
                  ": each rank needs F/tp whole rows of W_in and columns of W_out");
    const Eigen::Index rows = hidden / tp;  // F/tp
    for (int t = 0; t < tp; ++t) {
      slices[t].blocks.push_back({block.w_in.middleRows(t * rows, rows),      // (F/tp, D): column-parallel
                                  block.w_out.middleCols(t * rows, rows)});   // (D, F/tp): row-parallel
    }
  }
  return slices;
}

MlpParams gather_tensor_parallel(const std::vector<MlpParams>& slices) {
  if (slices.empty()) throw Error("gather_tensor_parallel needs at least one slice");
  MlpParams full;
  for (std::size_t l = 0; l < slices[0].blocks.size(); ++l) {
    const Eigen::Index rows = slices[0].blocks[l].w_in.rows();  // F/tp
    const auto tp = static_cast<Eigen::Index>(slices.size());
    MlpBlock block{Eigen::MatrixXd(rows * tp, slices[0].blocks[l].w_in.cols()),
                   Eigen::MatrixXd(slices[0].blocks[l].w_out.rows(), rows * tp)};
    for (Eigen::Index t = 0; t < tp; ++t) {
      block.w_in.middleRows(t * rows, rows) = slices[t].blocks[l].w_in;
      block.w_out.middleCols(t * rows, rows) = slices[t].blocks[l].w_out;
    }
    full.blocks.push_back(std::move(block));
  }
  return full;
}

TensorParallelTrainer::TensorParallelTrainer(const RankGrid& grid, const MlpConfig& model,
                                             const OptimizerConfig& optimizer, const MlpParams& initial,
                                             const TensorParallelOptions& options)
    : model_(model), grid_(grid), algorithm_(options.algorithm) {
  validate(model);
  check_grid(Strategy::tp, grid);
  require_divisible(model, grid.tp);
  check_shapes(model, initial, "initial params");
  slices_ = split_tensor_parallel(initial, grid.tp);
  optimizers_.assign(static_cast<std::size_t>(grid.tp), Optimizer(optimizer));
  optimizer_ = optimizer;
  if (layerwise())
    moments_.assign(static_cast<std::size_t>(grid.tp), std::vector<ShardMoments>(2 * static_cast<std::size_t>(model.layers)));
}

bool TensorParallelTrainer::layerwise() const {
  return grid_.tp > 1 && (optimizer_.kind == OptimizerKind::lars || optimizer_.kind == OptimizerKind::lamb);
}

// LARS/LAMB on slices: in the flat model (parameter_tensors order, each tensor's values in order) tensor k holds
// [begin_k, begin_k + n_k) and rank t's slice of it is the t-th of tp equal runs — where its values sit in the
// tensor does not matter to a norm, only that every value is counted once. update_shards_layerwise all-reduces the
// per-tensor sums of squares over the tp ranks and applies the unsplit trust ratios.
void TensorParallelTrainer::update_layerwise(const std::vector<MlpParams>& grads, CommLog* log) {
  const std::size_t tp = slices_.size();
  std::vector<std::vector<std::uint64_t>> starts(tp);
  std::vector<std::vector<Buffer>> params(tp), grad_buffers(tp);
  std::vector<std::uint64_t> tensor_ends;
  for (std::size_t t = 0; t < tp; ++t) {
    const std::vector<const Eigen::MatrixXd*> w = parameter_tensors(static_cast<const MlpParams&>(slices_[t]));
    const std::vector<const Eigen::MatrixXd*> g = parameter_tensors(grads[t]);
    std::uint64_t begin = 0;
    for (std::size_t k = 0; k < w.size(); ++k) {
      const auto n = static_cast<std::uint64_t>(w[k]->size());  // one slice: 1/tp of the tensor
      if (!std::all_of(g[k]->data(), g[k]->data() + g[k]->size(), [](double x) { return std::isfinite(x); }))
        throw DivergedError("a gradient contains nan or inf");
      starts[t].push_back(begin + t * n);
      params[t].emplace_back(w[k]->data(), w[k]->data() + w[k]->size());
      grad_buffers[t].emplace_back(g[k]->data(), g[k]->data() + g[k]->size());
      begin += n * tp;
      if (t == 0) tensor_ends.push_back(begin);
    }
  }
  update_shards_layerwise(optimizer_, ++steps_, tensor_ends, starts, params, grad_buffers, moments_, algorithm_, log);
  for (std::size_t t = 0; t < tp; ++t) {
    std::vector<Eigen::MatrixXd*> w = parameter_tensors(slices_[t]);
    for (std::size_t k = 0; k < w.size(); ++k) std::copy(params[t][k].begin(), params[t][k].end(), w[k]->data());
  }
}

TpBlockStash tp_block_forward(const MlpConfig& model, const std::vector<const MlpBlock*>& slices, RankMatrices& x,
                              const CommOptions& g_options) {
  const std::size_t tp = slices.size();
  TpBlockStash stash;
  stash.x = tp_f_forward(x);  // f: identity — every rank already holds x (B, D)
  stash.h.resize(tp);
  RankMatrices y(tp);
  for (std::size_t t = 0; t < tp; ++t) {
    stash.h[t] = stash.x[t] * slices[t]->w_in.transpose();                            // (B, F/tp), no comm
    y[t] = activate(model.activation, stash.h[t]) * slices[t]->w_out.transpose();     // (B, D) partial sum
  }
  tp_g_forward(y, g_options);  // g: all-reduce (B, D) — now y[t] = Y on every rank
  for (std::size_t t = 0; t < tp; ++t)
    x[t] = model.residual ? Eigen::MatrixXd(stash.x[t] + y[t]) : std::move(y[t]);  // residual as in mlp.h
  return stash;
}

void tp_block_backward(const MlpConfig& model, const std::vector<const MlpBlock*>& slices, const TpBlockStash& stash,
                       RankMatrices& dy, std::vector<MlpBlock>& grads, const CommOptions& f_options) {
  const std::size_t tp = slices.size();
  const RankMatrices& dyin = tp_g_backward(dy);  // g: identity — every rank holds ∂loss/∂Y (B, D)
  RankMatrices dx(tp);
  grads.resize(tp);
  // mlp_backward's formulas, on each rank's slice of the hidden units
  for (std::size_t t = 0; t < tp; ++t) {
    const Eigen::MatrixXd& h = stash.h[t];                                                  // (B, F/tp)
    grads[t].w_out = dyin[t].transpose() * activate(model.activation, h);                  // (D, F/tp)
    const Eigen::MatrixXd dh =
        (dyin[t] * slices[t]->w_out).cwiseProduct(activate_derivative(model.activation, h));  // (B, F/tp)
    grads[t].w_in = dh.transpose() * stash.x[t];                                           // (F/tp, D)
    dx[t] = dh * slices[t]->w_in;                                                           // (B, D) partial
  }
  tp_f_backward(dx, f_options);  // f: all-reduce (B, D) — the full ∂loss/∂x through the branch
  for (std::size_t t = 0; t < tp; ++t) {
    if (model.residual) dx[t] += dyin[t];  // identity path, already replicated
  }
  dy = std::move(dx);
}

ParallelStep TensorParallelTrainer::step(const Batch& batch) {
  const auto tp = static_cast<std::size_t>(grid_.tp);
  const auto layers = static_cast<std::size_t>(model_.layers);
  if (batch.inputs.rows() < 1 || batch.inputs.cols() != model_.width || batch.targets.rows() != batch.inputs.rows() ||
      batch.targets.cols() != model_.width)
    throw Error("batch inputs and targets must both be B x D = B x " + std::to_string(model_.width) +
                " with B >= 1, got " + std::to_string(batch.inputs.rows()) + " x " +
                std::to_string(batch.inputs.cols()) + " and " + std::to_string(batch.targets.rows()) + " x " +
                std::to_string(batch.targets.cols()));
  ParallelStep result;
  auto options = [&](const std::string& label) { return CommOptions{algorithm_, &result.comm, label}; };
  auto block_slices = [&](std::size_t l) {
    std::vector<const MlpBlock*> slices;
    for (const MlpParams& rank : slices_) slices.push_back(&rank.blocks[l]);
    return slices;
  };

  // ---- forward: the batch (B, D) replicated on every rank, block by block ----------------------------------
  RankMatrices x(tp, batch.inputs);
  std::vector<TpBlockStash> stash;
  for (std::size_t l = 0; l < layers; ++l)
    stash.push_back(tp_block_forward(model_, block_slices(l), x, options("block " + std::to_string(l) +
                                                                          " g forward (Y)")));

  // ---- loss: every rank holds the full output, so every rank computes the same loss and ∂loss/∂Y ------------
  result.loss = mse_loss(x[0], batch.targets);
  RankMatrices dy(tp, mse_loss_gradient(x[0], batch.targets));  // (B, D)

  // ---- backward, last block first -------------------------------------------------------------------------
  std::vector<MlpParams> grads(tp);
  for (MlpParams& g : grads) g.blocks.resize(layers);
  for (std::size_t l = layers; l-- > 0;) {
    std::vector<MlpBlock> block_grads;
    tp_block_backward(model_, block_slices(l), stash[l], dy, block_grads,
                      options("block " + std::to_string(l) + " f backward (dX)"));
    for (std::size_t t = 0; t < tp; ++t) grads[t].blocks[l] = std::move(block_grads[t]);
  }

  // ---- optimizer: each rank updates its own slices with its own state — no communication ----------------------
  // (LARS/LAMB: one small all-reduce of the per-tensor sums of squares first, update_layerwise.)
  if (layerwise()) update_layerwise(grads, &result.comm);
  else for (std::size_t t = 0; t < tp; ++t) optimizers_[t].step(slices_[t], grads[t]);

  // ---- bytes held per rank (fp64), at the end of backward when everything below coexists ----------------------
  for (std::size_t t = 0; t < tp; ++t) {
    MemoryBreakdown m;
    for (const Eigen::MatrixXd* p : parameter_tensors(static_cast<const MlpParams&>(slices_[t])))
      m.params += bytes_of(*p);
    for (const Eigen::MatrixXd* g : parameter_tensors(static_cast<const MlpParams&>(grads[t])))
      m.grads += bytes_of(*g);
    for (const Eigen::MatrixXd& st : optimizers_[t].state().first) m.optimizer += bytes_of(st);
    for (const Eigen::MatrixXd& st : optimizers_[t].state().second) m.optimizer += bytes_of(st);
    if (layerwise())
      for (const ShardMoments& st : moments_[t]) m.optimizer += bytes_of(st.first) + bytes_of(st.second);
    for (const TpBlockStash& st : stash) m.activations += bytes_of(st.x[t]) + bytes_of(st.h[t]);
    m.total = m.params + m.grads + m.optimizer + m.activations;
    result.memory.push_back(m);
  }
  return result;
}

}  // namespace dsml
