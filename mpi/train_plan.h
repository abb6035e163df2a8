// train_plan.h — what `dsml-mpi train` will do, decided before any message is sent: the model, the optimizer,
// the dp × tp × pp grid of MPI ranks, the batch and its micro-batches, and how the strategy treats each axis.
//
// One rank program covers every strategy (as the lab's does, lessons/lab/programs/lab_train.js): rank
// (d, t, p) = rank_of(grid, …) holds pipeline stage p's blocks, tensor-parallel slice t of each, and — with
// ZeRO-3/FSDP — only its data-parallel shard d of that slice. The strategy (the core's names, dsml/strategy.h)
// says what the dp axis does and which pipeline schedule runs; --dp/--tp/--pp set the grid (by default every
// rank on the strategy's axis), and any strategy composes with the other two axes, as in the lab:
//   strategy        dp axis (gradient sync)                                           pipeline  default grid
//   single          —                                                                 —         1 × 1 × 1
//   dp              naive DDP: one all-reduce per tensor, last first; full optimizer  1f1b      P × 1 × 1
//   dp-accumulate   as dp, after m = 2 micro-batches (gradient accumulation)          1f1b      P × 1 × 1
//   dp-bucketed     DDP's buckets of --bucket-bytes from the last value, one all-reduce each       P × 1 × 1
//   zero1, zero2    per bucket: reduce-scatter, update own shard, all-gather          1f1b      P × 1 × 1
//                   (zero1 keeps the whole gradient buffer, zero2 only its shard)
//   zero3           params sharded per block: all-gather before each use, reduce-scatter gradients (FSDP)
//   tp              as dp-bucketed; Megatron slices over tp                           1f1b      1 × P × 1
//   fsdp-tp         as zero3 over dp, Megatron slices over tp                         1f1b      P/2 × 2 × 1
//   pp-gpipe        as dp-bucketed                                                    gpipe     1 × 1 × P
//   pp-1f1b         as dp-bucketed                                                    1f1b      1 × 1 × P
// So `--strategy pp-1f1b --dp 2 --tp 2 --pp 2` on 8 ranks is the lab's default run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "args.h"
#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/rank_grid.h"

namespace dsml::mpi {

enum class DpSync { naive, bucketed, zero1, zero2, zero3 };

struct TrainPlan {
  std::string strategy;
  MlpConfig model;
  OptimizerConfig optimizer;
  RankGrid grid;
  int batch = 32;          // B, global rows per step
  int micro_batches = 1;   // m, per dp replica; B divisible by dp·m
  int steps = 5;
  std::uint64_t seed = 7;  // the teacher task's seed; the student starts from init_student(model, seed)
  DpSync sync = DpSync::bucketed;
  std::string schedule = "1f1b";    // "gpipe" or "1f1b"
  std::string algorithm = "ring";   // of every collective (make_schedule's names)
  double bucket_bytes = 25.0 * 1024 * 1024;
  double tolerance = 1e-10;         // largest |parameter − single-device parameter| still "equal"

  bool sharded() const { return sync == DpSync::zero3; }  // params held as dp shards of each block
  int rows() const { return batch / (grid.dp * micro_batches); }  // rows of one micro-batch on one rank
};

// The flags `train` takes.
std::vector<std::string> train_flag_names();
std::vector<std::string> train_switch_names();

// Reads and checks everything; throws dsml::Error / cli::UsageError naming the problem (a grid that needs
// another rank count, a width that does not divide, an unknown algorithm, …). No communication.
TrainPlan train_plan(const cli::Args& args, int world_size);

const char* sync_name(DpSync sync);

}  // namespace dsml::mpi
