// rank_trainer.h — one MPI rank of a dp × tp × pp training run: it holds only its part of the model
// (rank_model.h) and trains it with the core's explicit block kernels (dsml/block_kernels.h), Megatron's f and g
// all-reduces over its tp group, FSDP's gathers and reduce-scatters and the gradient sync over its dp group
// (rank_group.h), and point-to-point activations and gradients between pipeline stages (MPI_Isend / MPI_Recv),
// in the order the core's pipeline schedule gives (dsml/pipeline_schedule.h: GPipe or 1F1B).
//
// One step on rank (d, t, p), with b = B/(dp·m) rows per micro-batch:
//   for each op of stage p's schedule:
//     recv-activation(i)  the (b, D) input of micro-batch i from stage p − 1
//     forward(i)          per block: [FSDP: all-gather the slice] H = x·W_inᵀ, A = act(H), Y_t = A·W_outᵀ,
//                         g: all-reduce Y_t over tp, x ← x + Y; keeps x and H
//                         on the last stage: loss of its rows, dY = ∂loss/∂Y / m (the mean over micro-batches)
//     send-activation(i)  its output to stage p + 1
//     recv-grad(i)        ∂loss/∂(its output) from stage p + 1
//     backward(i)         per block, last first: [FSDP: all-gather again] dW_out, dA, dW_in, dx (the kernels),
//                         f's backward: all-reduce dx over tp, dx ← dx + dY; accumulate dW
//                         [FSDP: reduce-scatter dW over dp, keep this rank's shard]
//     send-grad(i)        dx to stage p − 1
//   then the dp axis (rank_gradient_sync.cpp): mean over dp — per tensor, per bucket, ZeRO-1, ZeRO-2 — and the
//   optimizer step on what this rank holds (the whole slice, or its shard: update_shard, dsml/zero.h).
// The data: the teacher batch of step s (dsml/teacher_task.h), rows [(d·m + i)·b, (d·m + i + 1)·b) for
// micro-batch i — the rows data parallelism gives replica d, cut into m.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <vector>

#include "dsml/optimizer.h"
#include "dsml/pipeline_schedule.h"
#include "dsml/teacher_task.h"
#include "dsml/zero.h"
#include "rank_clock.h"
#include "rank_group.h"
#include "rank_model.h"
#include "train_plan.h"
#include "world.h"

namespace dsml::mpi {

struct HeldBytes {  // what this rank keeps between steps, fp64
  double params = 0;
  double grads = 0;
  double optimizer = 0;
};

class RankTrainer {
 public:
  // Collective over world.comm (it splits the dp and tp groups); plan.grid.size() == world.size.
  RankTrainer(const TrainPlan& plan, const World& world);

  // One training step (0-based). Returns the mean loss over this rank's rows on the last stage, NaN elsewhere.
  double step(int step);

  const RankModel& model() const { return model_; }
  const RankClock& clock() const { return clock_; }
  RankCoord coord() const { return coord_; }
  HeldBytes held() const;

 private:
  struct BlockStash {
    Eigen::MatrixXd x;  // the block's input (b, D)
    Eigen::MatrixXd h;  // its pre-activation slice H_t (b, F/tp)
  };
  const MlpBlock& weights(int block, MlpBlock& gathered);
  Eigen::MatrixXd forward_block(int block, const Eigen::MatrixXd& x, BlockStash& stash);
  Eigen::MatrixXd backward_block(int block, const Eigen::MatrixXd& dy, const BlockStash& stash);
  void accumulate(int block, const Eigen::MatrixXd& d_w_in, const Eigen::MatrixXd& d_w_out);
  Eigen::MatrixXd receive(int from_stage, int tag);
  void sync_and_update(int step);  // rank_gradient_sync.cpp

  TrainPlan plan_;
  World world_;
  RankCoord coord_;
  RankClock clock_;
  std::unique_ptr<RankGroup> dp_;
  std::unique_ptr<RankGroup> tp_;
  TeacherTask task_;
  PipelineSchedule schedule_;
  RankModel model_;
  MlpParams grads_;                   // unsharded: accumulated gradient of the slices
  std::vector<Buffer> grad_shards_;   // ZeRO-3/FSDP: per block, this rank's shard of the gradient
  std::optional<Optimizer> optimizer_;  // replicated dp: the whole slices' optimizer
  std::vector<ShardMoments> moments_;   // ZeRO: per unit (one for stages 1, 2; one per block for stage 3)
};

}  // namespace dsml::mpi
