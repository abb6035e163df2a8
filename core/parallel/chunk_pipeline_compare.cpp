// chunk_pipeline_compare.cpp — a chunk schedule trained beside one device (dsml/chunk_pipeline_parallel.h): the
// number a page shows next to "interleaved / ZB-H1 equal single-device training".
#include <string>

#include "dsml/chunk_pipeline_parallel.h"
#include "dsml/error.h"
#include "dsml/teacher_task.h"
#include "dsml/train_compare.h"

namespace dsml {

ChunkPipelineComparison compare_chunk_pipeline(const MlpConfig& model, const OptimizerConfig& optimizer,
                                               const ChunkSchedule& schedule, int batch, int steps,
                                               std::uint64_t seed) {
  if (batch < 1 || steps < 1)
    throw Error("batch and steps must be >= 1, got " + std::to_string(batch) + " and " + std::to_string(steps));
  const TeacherTask task(model, seed);
  MlpParams single = init_student(model, seed);
  Optimizer single_optimizer(optimizer);
  ChunkPipelineTrainer trainer(model, optimizer, single, schedule.devices, schedule.chunks_per_device);
  ChunkPipelineComparison out;
  for (int step = 0; step < steps; ++step) {
    const Batch b = task.make_batch(static_cast<std::uint64_t>(step), batch);
    const ChunkPipelineStep result = trainer.step(b, schedule);
    out.losses.push_back(result.loss);
    out.peak_in_flight = result.peak_in_flight;
    out.messages = static_cast<int>(result.comm.records().size());
    out.bytes_per_step = result.comm.bytes("send");
    const MlpForward fwd = mlp_forward(model, single, b.inputs);
    out.single_losses.push_back(mse_loss(fwd.output, b.targets));
    single_optimizer.step(single, mlp_backward(model, single, fwd, mse_loss_gradient(fwd.output, b.targets)).params);
  }
  out.max_relative_difference = max_relative_difference(trainer.full_params(), single);
  return out;
}

}  // namespace dsml
