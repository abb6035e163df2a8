// lab_reference.cpp — see lab_reference.h.
#include "lab_reference.h"

#include "dsml/data_parallel.h"

namespace dsml::bindings {

std::vector<Batch> teacher_batches(const MlpConfig& model, std::uint64_t seed, int steps, int batch) {
  const TeacherTask task(model, seed);
  std::vector<Batch> batches;
  batches.reserve(static_cast<std::size_t>(steps));
  for (int s = 0; s < steps; ++s) batches.push_back(task.make_batch(static_cast<std::uint64_t>(s), batch));
  return batches;
}

SingleDeviceRun single_device_run(const MlpConfig& model, const OptimizerConfig& optimizer, const MlpParams& initial,
                                  const std::vector<Batch>& batches) {
  SingleDeviceRun run{{}, initial};
  Optimizer step(optimizer);
  run.losses.reserve(batches.size());
  for (const Batch& b : batches) run.losses.push_back(reference_step(model, step, run.params, b));
  return run;
}

}  // namespace dsml::bindings
