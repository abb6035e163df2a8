// dsml/train_compare.h — train a parallel strategy beside the single-device reference and compare them: the two
// loss curves, how far apart the final parameters are, the bytes the busiest rank sent in the last step, and
// what each rank held. What `dsml train` prints and what trainCompare hands to JavaScript.
//
// Deterministic (single_device.h): the teacher is TeacherTask(model, seed), both runs start from
// init_student(model, seed), and step s of both trains on make_batch(s, batch).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "dsml/comm.h"
#include "dsml/memory_accountant.h"
#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/rank_grid.h"
#include "dsml/strategy.h"

namespace dsml {

struct TrainConfig {
  Strategy strategy = Strategy::dp;
  RankGrid grid;
  MlpConfig model;
  OptimizerConfig optimizer;
  StrategyOptions options;  // micro-batches, bucket bytes, collective algorithm
  int batch = 8;            // B, global batch rows, ≥ 1
  int steps = 1;            // ≥ 1
  std::uint64_t seed = 0;
};

struct TrainComparison {
  std::vector<double> losses;           // the strategy's loss before each step's update (nan: a step not run)
  std::vector<double> single_losses;    // the single device's
  // Divergence is a result, not an error: the first step whose loss was not finite or whose gradient held inf
  // or nan (Optimizer's DivergedError); -1 if the run never diverged. From that step on the run stops:
  // losses[diverged_at] is the non-finite loss if that step computed one, every later loss is nan.
  int diverged_at = -1;                 // the strategy's
  int single_diverged_at = -1;          // the single device's (the same step for an exact strategy)
  // LARS, LAMB: the single device's trust ratio of every tensor (parameter_tensors order) at every step taken;
  // empty for the other optimizers. An exact strategy applies the same ratios.
  std::vector<std::vector<double>> trust_ratios;
  double max_loss_relative_difference = 0;  // max over steps where both losses are finite of |loss − single| / |single|
  double max_relative_difference = 0;   // final parameters: max over tensors of ‖W − W_single‖_F / ‖W_single‖_F
                                        // (nan if either run diverged)
  std::map<std::string, double> comm_bytes;  // busiest_rank_bytes of the LAST step, by kind
  std::vector<MemoryBreakdown> memory;  // per rank, the last step's ParallelStep::memory (fp64 bytes)
};

// Throws dsml::Error if the configuration does not fit the strategy (make_trainer's checks) or steps < 1 — never
// because training diverged.
TrainComparison train_compare(const TrainConfig& config);

// Bytes (8-byte doubles) the busiest rank sends in one step, by kind. Collectives: Σ over records of each record's
// busiest-rank bytes × (its group size / the grid's size) — groups that run side by side (fsdp-tp's per-column
// all-gathers) are counted once, since a rank is in one of them. Sends: the stage (CommRecord::stage) that sends
// the most.
std::map<std::string, double> busiest_rank_bytes(const CommLog& log, const RankGrid& grid);

// max over tensors of ‖a − ref‖_F / ‖ref‖_F (‖a − ref‖_F where ‖ref‖_F = 0). Throws Error if the shapes differ.
double max_relative_difference(const MlpParams& a, const MlpParams& ref);

}  // namespace dsml
