// dsml/tensor_parallel.h — Megatron-style tensor parallelism of the MLP blocks (Shoeybi et al., "Megatron-LM:
// Training Multi-Billion Parameter Language Models Using Model Parallelism", 2019, §3 and Fig. 3).
//
// Each block's two matrices are cut so that the nonlinearity never needs communication:
//   W_in  (F, D)  split by ROWS    → rank t holds W_in_t  (F/tp, D)   "column-parallel" (columns of W_inᵀ)
//   W_out (D, F)  split by COLUMNS → rank t holds W_out_t (D, F/tp)   "row-parallel"    (rows of W_outᵀ)
// Forward, per block, x (B, D) on every rank:
//   f:  x                                 identity — every rank already holds x
//   H_t = x · W_in_tᵀ          (B, F/tp)  no communication: act() is elementwise, so act(H)_t = act(H_t)
//   Y_t = act(H_t) · W_out_tᵀ  (B, D)     a partial sum: Y = Σ_t Y_t
//   g:  Y = all-reduce(Y_t)               one all-reduce of (B, D)
//   x' = [x +] Y                          residual on every rank, as in mlp.h
// Backward mirrors it: g's backward is the identity (dY is already on every rank), f's backward all-reduces the
// partial input gradients dx_t = dH_t · W_in_t. So each block moves exactly two all-reduces of (B, D) per step.
// Every rank ends up with the gradient of its own slices only; the optimizer updates the slices in place, which
// equals the single-device update for every elementwise optimizer (SGD, momentum, Adam).
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "dsml/comm.h"
#include "dsml/memory_accountant.h"
#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/rank_grid.h"
#include "dsml/strategy.h"
#include "dsml/teacher_task.h"
#include "dsml/zero.h"

namespace dsml {

// One matrix per tensor-parallel rank: that rank's copy (or partial sum) of an activation.
using RankMatrices = std::vector<Eigen::MatrixXd>;

// ---- communication: Megatron's conjugate operators f and g (tensor_parallel_comm.cpp) ----------------------
// f sits before the column-parallel W_in, g after the row-parallel W_out.
//   f: forward identity,   backward all-reduce
//   g: forward all-reduce, backward identity
// The all-reduces run the core's collective schedules (comm.h) and log one "all-reduce" record each.
const RankMatrices& tp_f_forward(const RankMatrices& x);
void tp_f_backward(RankMatrices& partial_dx, const CommOptions& options);
void tp_g_forward(RankMatrices& partial_y, const CommOptions& options);
const RankMatrices& tp_g_backward(const RankMatrices& dy);

// ---- slicing (tensor_parallel.cpp) --------------------------------------------------------------------------
// Rank t's slices of every block: w_in rows and w_out columns [t·F/tp, (t+1)·F/tp). Throws dsml::Error unless
// tp ≥ 1 and F is divisible by tp.
std::vector<MlpParams> split_tensor_parallel(const MlpParams& params, int tp);
// The inverse: full (F, D) and (D, F) matrices from tp slices.
MlpParams gather_tensor_parallel(const std::vector<MlpParams>& slices);

// ---- one block on one tensor-parallel group (tensor_parallel.cpp) ------------------------------------------
// The building block the trainer below loops over, and that FSDP+TP (fsdp_tensor_parallel.h) wraps. slices[t]
// is rank t's slice of the block: w_in (F/tp, D), w_out (D, F/tp).
struct TpBlockStash {
  RankMatrices x;  // per rank: the block input (B, D), replicated — dW_in_t needs it
  RankMatrices h;  // per rank: its pre-activation slice H_t (B, F/tp)
};
// x: per rank (B, D) in, the block output out. One all-reduce (g) of (B, D), logged with `g_options`.
TpBlockStash tp_block_forward(const MlpConfig& model, const std::vector<const MlpBlock*>& slices, RankMatrices& x,
                              const CommOptions& g_options);
// dy: per rank ∂loss/∂(block output) (B, D) in, ∂loss/∂(block input) out; grads[t] receives the gradient of
// slices[t]. One all-reduce (f's backward) of (B, D), logged with `f_options`.
void tp_block_backward(const MlpConfig& model, const std::vector<const MlpBlock*>& slices, const TpBlockStash& stash,
                       RankMatrices& dy, std::vector<MlpBlock>& grads, const CommOptions& f_options);

struct TensorParallelOptions {
  std::string algorithm = "ring";  // the all-reduce algorithm make_schedule uses ("ring", "recursive-doubling", …)
};

// Trains one model on a grid with dp = pp = 1 and tp ≥ 1 ranks (the rank grid is a value, not a global).
class TensorParallelTrainer : public ParallelTrainer {
 public:
  // `initial` must match `model`; throws dsml::Error on a bad grid or F not divisible by tp. LARS and LAMB with
  // tp > 1: a trust ratio needs the norm of the whole tensor, which the tp ranks hold in slices — each rank sums
  // the squares of its slices and one all-reduce of 2 values per tensor ("trust-ratio norms", zero.h's
  // update_shards_layerwise) gives every rank the unsplit ratios.
  TensorParallelTrainer(const RankGrid& grid, const MlpConfig& model, const OptimizerConfig& optimizer,
                        const MlpParams& initial, const TensorParallelOptions& options = {});

  // Forward, loss, backward and optimizer step on the whole batch (inputs and targets (B, D), replicated on
  // every tp rank as f's input). comm: 2·L all-reduces of (B, D); memory per tp rank: its slices, their
  // gradients and optimizer state, and the activations kept for backward (x and H_t of every block).
  ParallelStep step(const Batch& batch) override;

  // Read-back of the full parameters (a copy assembled from the slices; no communication is logged).
  MlpParams full_params() const override { return gather_tensor_parallel(slices_); }
  const std::vector<MlpParams>& slices() const { return slices_; }  // per tp rank
  const RankGrid& grid() const override { return grid_; }

 private:
  MlpConfig model_;
  RankGrid grid_;
  std::string algorithm_;
  std::vector<MlpParams> slices_;        // per rank: w_in (F/tp, D), w_out (D, F/tp) per block
  std::vector<Optimizer> optimizers_;    // per rank, over its slices only (elementwise optimizers)
  // LARS/LAMB with tp > 1: the optimizer, its step count and each rank's state per slice (parameter_tensors order).
  OptimizerConfig optimizer_;
  std::int64_t steps_ = 0;
  std::vector<std::vector<ShardMoments>> moments_;
  bool layerwise() const;
  void update_layerwise(const std::vector<MlpParams>& grads, CommLog* log);
};

}  // namespace dsml
