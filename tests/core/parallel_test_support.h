// parallel_test_support.h — what the strategy-equality tests share: the optimizer settings they train with, the
// single-device reference they train beside, the distance between a parallel run's parameters and it, and the
// communication records a step logged under one label.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dsml/comm.h"
#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/single_device.h"
#include "dsml/teacher_task.h"
#include "dsml/train_compare.h"
#include "test_support.h"  // error_of, expect_error

// SGD-family at lr 0.05, Adam at lr 0.01: large enough that 20 steps move the parameters visibly.
inline dsml::OptimizerConfig test_optimizer(const std::string& kind) {
  dsml::OptimizerConfig c;
  c.kind = dsml::parse_optimizer(kind);
  c.lr = kind == "adam" ? 0.01 : 0.05;
  return c;
}

// The distance between a parallel run's parameters and the single device's is dsml::max_relative_difference
// (train_compare.h): max over tensors of ‖a − ref‖_F / ‖ref‖_F. Runs that do the same arithmetic in another order
// land within kSameModel of each other after 20 steps (measured: ≤ 1e-15 for every strategy, SGD and Adam,
// with `dsml train … --steps 20`).
constexpr double kSameModel = 1e-12;

// The single-device run a strategy trains beside: the teacher task of `task_seed`, parameters init_mlp(init_seed)
// (the strategy starts from the same initial()), one dsml::reference_step per global batch.
class SingleDeviceReference {
 public:
  SingleDeviceReference(const dsml::MlpConfig& model, const dsml::OptimizerConfig& optimizer,
                        std::uint64_t task_seed = 7, std::uint64_t init_seed = 42)
      : model_(model), task_(model, task_seed), params_(dsml::init_mlp(model, init_seed)), optimizer_(optimizer) {}

  // The parameters before the first step(), for the strategy to start from.
  const dsml::MlpParams& initial() const { return initial_; }
  const dsml::MlpParams& params() const { return params_; }

  struct Step {
    dsml::Batch batch;  // the global batch of this step (`rows` rows)
    double loss;        // the reference's loss on it, before its update
  };
  // Trains the reference on global batch `step` of `rows` rows and returns that batch and its loss.
  Step step(int step, int rows) {
    dsml::Batch batch = task_.make_batch(static_cast<std::uint64_t>(step), rows);
    const double loss = dsml::reference_step(model_, optimizer_, params_, batch);
    return {std::move(batch), loss};
  }

 private:
  dsml::MlpConfig model_;
  dsml::TeacherTask task_;
  dsml::MlpParams params_;
  dsml::MlpParams initial_ = params_;
  dsml::Optimizer optimizer_;
};

// `trainer` (started from reference.initial()) and `reference` trained side by side for `steps` global batches of
// `rows` rows, `step(trainer, batch)` running the trainer's step and returning its loss: expects the same loss at
// every step; returns the worst relative difference of the parameters after the first and after the last step.
template <typename Trainer, typename StepFn>
double difference_beside_single_device(Trainer& trainer, SingleDeviceReference& reference, int rows, int steps,
                                       StepFn step) {
  double worst = 0;
  for (int s = 0; s < steps; ++s) {
    const SingleDeviceReference::Step want = reference.step(s, rows);
    EXPECT_NEAR(step(trainer, want.batch), want.loss, 1e-12 * want.loss) << "step " << s;
    if (s == 0 || s == steps - 1)
      worst = std::max(worst, dsml::max_relative_difference(trainer.full_params(), reference.params()));
  }
  return worst;
}

// The same for a strategy behind the ParallelTrainer interface: parameters within kSameModel of the reference.
inline void expect_matches_single_device(dsml::ParallelTrainer& trainer, SingleDeviceReference& reference, int rows,
                                         int steps = 20) {
  const auto step = [](dsml::ParallelTrainer& t, const dsml::Batch& batch) { return t.step(batch).loss; };
  EXPECT_LT(difference_beside_single_device(trainer, reference, rows, steps, step), kSameModel);
}

// The records `comm` logged under `label` (e.g. "trust-ratio norms").
inline std::vector<dsml::CommRecord> records_labelled(const dsml::CommLog& comm, const std::string& label) {
  std::vector<dsml::CommRecord> out;
  for (const dsml::CommRecord& r : comm.records())
    if (r.label == label) out.push_back(r);
  return out;
}
