// tensor_parallel.cpp — one training step of the MLP with every block split over tp ranks (Megatron-LM,
// Shoeybi et al. 2019). The header draws the forward; here it is, rank by rank, followed by the backward.
//
// All tp ranks live in this one process: rank t's state is slices_[t] and optimizers_[t], its activations are
// element t of a RankMatrices. Only tp_f_backward and tp_g_forward (tensor_parallel_comm.cpp) let ranks see
// each other's numbers — everything else below is rank-local, which is the point of the method.
#include <string>
#include <utility>

#include "dsml/error.h"
#include "dsml/tensor_parallel.h"

namespace dsml {
namespace {

void require_divisible(const MlpConfig& model, int tp) {
  if (tp < 1) throw Error("tensor-parallel size tp must be >= 1, got " + std::to_string(tp));
  if (model.hidden % tp != 0)
    throw Error("hidden width F = " + std::to_string(model.hidden) + " is not divisible by tp = " +
                std::to_string(tp) + ": each rank needs F/tp whole rows of W_in and columns of W_out");
}

double bytes_of(const Eigen::MatrixXd& m) { return 8.0 * static_cast<double>(m.size()); }

// What rank t keeps for backward from one block: x (B, D) — replicated, every rank needs it for dW_in_t — and
// its own pre-activation slice H_t (B, F/tp).
struct BlockStash {
  RankMatrices x;  // per rank (B, D)
  RankMatrices h;  // per rank (B, F/tp)
};

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

TensorParallelTrainer::TensorParallelTrainer(const MlpConfig& model, const OptimizerConfig& optimizer,
                                             const RankGrid& grid, const MlpParams& initial,
                                             const std::string& algorithm)
    : model_(model), grid_(grid), algorithm_(algorithm) {
  validate(model);
  validate(grid);
  if (grid.dp != 1 || grid.pp != 1)
    throw Error("the tensor-parallel trainer runs on a grid with dp = 1 and pp = 1, got dp = " +
                std::to_string(grid.dp) + ", pp = " + std::to_string(grid.pp));
  require_divisible(model, grid.tp);
  if (grid.tp > 1 && (optimizer.kind == OptimizerKind::lars || optimizer.kind == OptimizerKind::lamb))
    throw Error(std::string(optimizer_name(optimizer.kind)) +
                " needs the norm of each whole tensor, which tensor parallelism splits over ranks; use sgd, "
                "momentum or adam with tp > 1");
  check_shapes(model, initial, "initial params");
  slices_ = split_tensor_parallel(initial, grid.tp);
  optimizers_.assign(static_cast<std::size_t>(grid.tp), Optimizer(optimizer));
}

TensorParallelStep TensorParallelTrainer::step(const Batch& batch) {
  const int tp = grid_.tp;
  const auto layers = static_cast<std::size_t>(model_.layers);
  if (batch.inputs.rows() < 1 || batch.inputs.cols() != model_.width || batch.targets.rows() != batch.inputs.rows() ||
      batch.targets.cols() != model_.width)
    throw Error("batch inputs and targets must both be B x D = B x " + std::to_string(model_.width) +
                " with B >= 1, got " + std::to_string(batch.inputs.rows()) + " x " +
                std::to_string(batch.inputs.cols()) + " and " + std::to_string(batch.targets.rows()) + " x " +
                std::to_string(batch.targets.cols()));
  TensorParallelStep result;
  auto options = [&](const std::string& label) { return CommOptions{algorithm_, &result.comm, label}; };

  // ---- forward -------------------------------------------------------------------------------------------
  RankMatrices x(static_cast<std::size_t>(tp), batch.inputs);  // (B, D) on every rank
  std::vector<BlockStash> stash(layers);
  for (std::size_t l = 0; l < layers; ++l) {
    const RankMatrices& xin = tp_f_forward(x);  // f: identity
    RankMatrices y(static_cast<std::size_t>(tp));
    stash[l].x = xin;
    stash[l].h.resize(static_cast<std::size_t>(tp));
    for (int t = 0; t < tp; ++t) {
      const MlpBlock& w = slices_[t].blocks[l];
      stash[l].h[t] = xin[t] * w.w_in.transpose();                                  // (B, F/tp), no comm
      y[t] = activate(model_.activation, stash[l].h[t]) * w.w_out.transpose();      // (B, D) partial sum
    }
    tp_g_forward(y, options("block " + std::to_string(l) + " g forward (Y)"));  // g: all-reduce (B, D)
    for (int t = 0; t < tp; ++t) x[t] = model_.residual ? Eigen::MatrixXd(xin[t] + y[t]) : std::move(y[t]);
  }

  // ---- loss: every rank holds the full output, so every rank computes the same loss and ∂loss/∂Y ------------
  result.loss = mse_loss(x[0], batch.targets);
  RankMatrices dy(static_cast<std::size_t>(tp), mse_loss_gradient(x[0], batch.targets));  // (B, D)

  // ---- backward, last block first (mlp_backward's formulas on each rank's slices) -----------------------------
  std::vector<MlpParams> grads(static_cast<std::size_t>(tp));
  for (auto& g : grads) g.blocks.resize(layers);
  for (std::size_t l = layers; l-- > 0;) {
    const RankMatrices& dyin = tp_g_backward(dy);  // g: identity
    RankMatrices dx(static_cast<std::size_t>(tp));
    for (int t = 0; t < tp; ++t) {
      const MlpBlock& w = slices_[t].blocks[l];
      const Eigen::MatrixXd& h = stash[l].h[t];                                             // (B, F/tp)
      grads[t].blocks[l].w_out = dyin[t].transpose() * activate(model_.activation, h);     // (D, F/tp)
      const Eigen::MatrixXd dh =
          (dyin[t] * w.w_out).cwiseProduct(activate_derivative(model_.activation, h));       // (B, F/tp)
      grads[t].blocks[l].w_in = dh.transpose() * stash[l].x[t];                            // (F/tp, D)
      dx[t] = dh * w.w_in;                                                                  // (B, D) partial
    }
    tp_f_backward(dx, options("block " + std::to_string(l) + " f backward (dX)"));  // f: all-reduce (B, D)
    for (int t = 0; t < tp; ++t) {
      if (model_.residual) dx[t] += dyin[t];  // identity path, already replicated
    }
    dy = std::move(dx);
  }

  // ---- optimizer: each rank updates its own slices with its own state — no communication ----------------------
  for (int t = 0; t < tp; ++t) optimizers_[t].step(slices_[t], grads[t]);

  // ---- bytes held per rank (fp64), at the end of backward when everything below coexists ----------------------
  for (int t = 0; t < tp; ++t) {
    MemoryBreakdown m;
    for (const Eigen::MatrixXd* p : parameter_tensors(slices_[t])) m.params += bytes_of(*p);
    for (const Eigen::MatrixXd* g : parameter_tensors(grads[t])) m.grads += bytes_of(*g);
    for (const Eigen::MatrixXd& s : optimizers_[t].state().first) m.optimizer += bytes_of(s);
    for (const Eigen::MatrixXd& s : optimizers_[t].state().second) m.optimizer += bytes_of(s);
    for (const BlockStash& s : stash) m.activations += bytes_of(s.x[t]) + bytes_of(s.h[t]);
    m.total = m.params + m.grads + m.optimizer + m.activations;
    result.memory.push_back(m);
  }
  return result;
}

}  // namespace dsml
