// teacher_task.cpp — seeded teacher network and deterministic batches.
//
// Batch `step` draws its inputs from its own stream, mt19937_64(mix_seed(seed, step)), so any batch can be
// regenerated on any rank, in any order, without replaying the previous ones.
#include "dsml/teacher_task.h"

#include <optional>
#include <string>

#include "dsml/error.h"
#include "nn/gaussian.h"

namespace dsml {

TeacherTask::TeacherTask(const MlpConfig& config, std::uint64_t seed)
    : config_(config), seed_(seed), teacher_(init_mlp(config, seed)) {}

Batch TeacherTask::make_batch(std::uint64_t step, int batch_size) const {
  if (batch_size < 1) throw Error("batch_size must be >= 1, got " + std::to_string(batch_size));
  nn_detail::Gaussian gaussian(nn_detail::mix_seed(seed_, step));
  Batch batch;
  batch.inputs = gaussian.matrix(batch_size, config_.width, 1.0);  // (B, D), N(0, 1)
  batch.targets = mlp_predict(config_, teacher_, batch.inputs);    // (B, D)
  return batch;
}

Batch teacher_batch(const MlpConfig& config, std::uint64_t seed, std::uint64_t step, int batch_size) {
  // The teacher of the latest call. Its weights are 2·L·D·F Gaussians (≈ 1.5 ms in wasm for the lab's model), more
  // than the batch costs; a run asks for batch after batch of one task. MlpConfig's == (mlp.h) covers every field.
  thread_local std::optional<TeacherTask> last;
  if (!last || last->seed() != seed || last->config() != config) last.emplace(config, seed);
  return last->make_batch(step, batch_size);
}

MlpParams init_student(const MlpConfig& config, std::uint64_t teacher_seed) {
  return init_mlp(config, student_seed(teacher_seed));
}

}  // namespace dsml
