// dsml/single_device.h — the single-device reference every parallel strategy must equal: one step, the same step
// behind the strategy interface (Strategy::single), and a whole deterministic run on the teacher task.
//
// Deterministic, as every strategy test and trainCompare use it: the teacher is TeacherTask(model, seed), the
// student starts from init_student(model, seed), and step s trains on make_batch(s, batch).
#pragma once

#include <cstdint>
#include <vector>

#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/rank_grid.h"
#include "dsml/strategy.h"
#include "dsml/teacher_task.h"

namespace dsml {

// Forward, mean loss, backward, one optimizer step on the whole model. Returns the loss before the update.
double reference_step(const MlpConfig& config, Optimizer& optimizer, MlpParams& params, const Batch& batch);

// reference_step behind the strategy interface, on a 1 × 1 × 1 grid.
class SingleDevice : public ParallelTrainer {
 public:
  // Throws dsml::Error unless the grid is 1 × 1 × 1 and `initial` matches `model`.
  SingleDevice(const RankGrid& grid, const MlpConfig& model, const OptimizerConfig& optimizer,
               const MlpParams& initial);

  ParallelStep step(const Batch& global_batch) override;  // comm is empty; memory has one rank
  MlpParams full_params() const override { return params_; }
  const Optimizer& optimizer() const { return optimizer_; }  // its trust ratios, for LARS and LAMB
  const RankGrid& grid() const override { return grid_; }

 private:
  RankGrid grid_;
  MlpConfig model_;
  Optimizer optimizer_;
  MlpParams params_;
};

// batches[s] = TeacherTask(model, seed).make_batch(s, batch), s = 0 … steps − 1.
std::vector<Batch> teacher_batches(const MlpConfig& model, std::uint64_t seed, int steps, int batch);

struct SingleDeviceRun {
  std::vector<double> losses;  // one per step, the loss before that step's update
  MlpParams params;            // after the last step taken
  int diverged_at = -1;        // the first step whose loss or gradient was not finite; -1 if none. From there on
                               // losses hold the non-finite loss (if the step computed one), then nan: not run.
  std::vector<std::vector<double>> trust_ratios;  // LARS, LAMB: per step taken, each tensor's trust ratio
};

// Trains `initial` on `batches` in order on one device; stops at the first non-finite loss or gradient (diverged_at)
// — divergence is a result, not an error.
SingleDeviceRun single_device_run(const MlpConfig& model, const OptimizerConfig& optimizer, const MlpParams& initial,
                                  const std::vector<Batch>& batches);

// The teacher task's one-device baseline, the run every strategy is set beside: init_student(model, seed) trained
// on teacher_batches(model, seed, steps, batch).
SingleDeviceRun teacher_task_run(const MlpConfig& model, const OptimizerConfig& optimizer, std::uint64_t seed,
                                 int steps, int batch);

}  // namespace dsml
