// parallel/micro_batches.h — private to core/parallel: what the pipeline engine (chunk_pipeline_parallel.cpp)
// checks of a step's batch, how it cuts it into micro-batches of rows, the first stage's input and the last
// stage's loss of a micro-batch, and the gradient accumulation over micro-batches; and how both pipeline
// trainers (it, and the plain one of pipeline_parallel.cpp) refuse a schedule that is not valid.
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include "dsml/mlp.h"
#include "dsml/pipeline_schedule.h"
#include "dsml/teacher_task.h"

namespace dsml::micro_batches {

// Throws dsml::Error unless inputs and targets are both B × width with B >= 1.
void check_batch(const Batch& batch, int width);

// Throws dsml::Error("schedule \"<name>\" is not valid: <why>") unless the schedule's check passed.
void require_valid_schedule(const PipelineCheck& check, const std::string& name);

// Micro-batch i is rows [offset[i], offset[i] + rows[i]) of the global batch: shard_sizes(B, m), the first B mod m
// one row larger. Throws dsml::Error unless 1 <= m <= B.
struct Rows {
  std::vector<Eigen::Index> offset;
  std::vector<Eigen::Index> rows;
};
Rows cut(Eigen::Index batch_rows, int m);

// Micro-batch i's inputs (B_i, D): what the first stage (chunk 0) runs forward on.
Eigen::MatrixXd inputs(const Batch& batch, const Rows& cut, int i);

// The last stage's loss of micro-batch i on its output (B_i, D), weighted B_i/B so that the sum over the
// micro-batches is the global batch's mean, and its gradient ∂loss/∂output = weight·2(Y − T)/(B_i·D).
struct WeightedLoss {
  double loss = 0;
  Eigen::MatrixXd gradient;  // (B_i, D)
};
WeightedLoss weighted_loss(const Batch& batch, const Rows& cut, int i, const Eigen::MatrixXd& output);

// Forward of micro-batch i on one stage (or chunk) of `stage_model` holding `params`: on the batch's rows of
// micro-batch i when it is the first, else on `input` (the previous stage's activation, consumed: left empty). On
// the last, the weighted loss is added to `loss` and its gradient written to `d_output`. Returns forward's stash
// (every block's x and H), kept for the backward.
MlpForward forward(const MlpConfig& stage_model, const MlpParams& params, const Batch& batch, const Rows& cut, int i,
                   bool first, bool last, Eigen::MatrixXd& input, Eigen::MatrixXd& d_output, double& loss);

// into += add, tensor by tensor: gradient accumulation over micro-batches.
void accumulate(MlpParams& into, const MlpParams& add);

}  // namespace dsml::micro_batches
