// rank_model.h — the part of the model one rank holds, and the whole model put back together from every rank's
// part (for the comparison with single-device training).
//
// Rank (d, t, p) of a dp × tp × pp grid (dsml/rank_grid.h) holds, of the L blocks:
//   its stage's blocks       l = p·L/pp … (p + 1)·L/pp − 1          (split_pipeline_stages, pipeline_parallel.h)
//   of each, its Megatron slice: W_in rows and W_out columns [t·F/tp, (t + 1)·F/tp)   (split_tensor_parallel)
//   with ZeRO-3/FSDP, of each slice only shard d over dp of its flattening (W_in_t then W_out_t, column-major,
//   flatten() in dsml/comm.h) — FSDP's unit is one block, so one block can be gathered alone.
// Every rank draws the whole initial model from the seed and keeps its part (a real job would read only its
// shard from a checkpoint); the model here is small.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "dsml/comm.h"
#include "dsml/mlp.h"
#include "dsml/rank_grid.h"
#include "train_plan.h"

namespace dsml::mpi {

struct RankModel {
  int blocks = 0;                // L/pp
  int hidden = 0;                // F/tp: this rank's hidden units per block
  int width = 0;                 // D
  MlpParams slices;              // unsharded: blocks × {w_in (F/tp, D), w_out (D, F/tp)}; empty when sharded
  std::vector<Buffer> shards;    // sharded: per block, shard d of the flattened slice
  std::size_t unit = 0;          // values in one block's flattened slice: 2·D·F/tp

  // Everything this rank holds, flattened (slices, or the shards one after another).
  Buffer flat() const;
};

RankModel rank_model(const TrainPlan& plan, const MlpParams& full, RankCoord coord);

// A block's slice (w_in (F/tp, D), w_out (D, F/tp)) from its flattening, and back.
MlpBlock unflatten_block(const Buffer& flat, int hidden, int width);
Buffer flatten_block(const Eigen::MatrixXd& w_in, const Eigen::MatrixXd& w_out);

// The whole model from every rank's flat() (indexed by rank), as rank 0 receives them. `replica_gap` gets the
// largest difference between dp replicas of an unsharded part (0 in a correct run: they must stay identical).
MlpParams assemble_model(const TrainPlan& plan, const std::vector<Buffer>& flat_by_rank, double& replica_gap);

}  // namespace dsml::mpi
