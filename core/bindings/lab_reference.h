// lab_reference.h — the single-device training run that trainCompare compares every strategy with and that
// trainSingle hands to the lab: one function, so the two cannot drift apart.
//
// Deterministic, as the C++ strategy tests do it: the teacher is TeacherTask(model, seed), the student starts from
// init_mlp(model, seed + 1), and step s trains on make_batch(s, batch) with reference_step (forward, MSE,
// backward, one optimizer step on the whole model).
#pragma once

#include <cstdint>
#include <vector>

#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/teacher_task.h"

namespace dsml::bindings {

// batches[s] = TeacherTask(model, seed).make_batch(s, batch), s = 0 … steps − 1.
std::vector<Batch> teacher_batches(const MlpConfig& model, std::uint64_t seed, int steps, int batch);

struct SingleDeviceRun {
  std::vector<double> losses;  // one per step, the loss before that step's update
  MlpParams params;            // after the last step
};

// Trains `initial` on `batches` in order on one device.
SingleDeviceRun single_device_run(const MlpConfig& model, const OptimizerConfig& optimizer, const MlpParams& initial,
                                  const std::vector<Batch>& batches);

}  // namespace dsml::bindings
