// dsml/chunk_pipeline_parallel.h — a chunk schedule (dsml/chunk_schedule.h: interleaved 1F1B, ZB-H1, or GPipe /
// 1F1B in that form) executed on the course's MLP, equal to single-device training. The course's one pipeline
// engine: the plain pipeline trainer (dsml/pipeline_parallel.h) runs its schedules on it with v = 1.
//
//   the L blocks are cut into C = P·v chunks of L/C consecutive blocks; chunk c lives on device c mod P
//   the global batch (B, D) is cut into m micro-batches of rows (shard_sizes(B, m)); the last chunk's loss
//   gradient for micro-batch i is weighted B_i/B, so the accumulated gradients are the full batch's
//   F runs mlp_forward on the chunk's blocks; a full backward runs mlp_backward; B and W run
//   mlp_backward_input and mlp_backward_weight (dsml/mlp_split_backward.h) — same products, same numbers
//   every chunk then steps its own optimizer over its own blocks
// An activation or gradient (B_i, D) that crosses devices is a point-to-point message, logged as a "send" of
// B_i·D·8 bytes with CommRecord::stage = the sending device; between two chunks on one device it is a call.
// Memory per device: its chunks' parameters, gradients and optimizer state, and the peak of forward stashes
// (every block's x and H per micro-batch) it kept — from F until the full backward, or until W.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsml/chunk_schedule.h"
#include "dsml/comm.h"
#include "dsml/memory_accountant.h"
#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/teacher_task.h"

namespace dsml {

// One op as the executor ran it. describe → "round 3 device 1: F(2, chunk 5)".
struct ExecutedOp {
  int round = 0;
  int device = 0;
  ChunkOp op;
};
std::string describe(const ExecutedOp& executed);

struct ChunkPipelineStep {
  double loss = 0;                  // mean loss over the global batch, before the step
  CommLog comm;                     // every point-to-point message of the step
  std::vector<int> peak_in_flight;  // per device: most chunk activations held at once (= peak_chunk_activations)
  std::vector<MemoryBreakdown> memory;  // per device: bytes of fp64 held (see above)
  std::vector<ExecutedOp> trace;    // the ops in executed order (a record each; text only on describe)
};

class ChunkPipelineTrainer {
 public:
  // Throws dsml::Error unless P, v ≥ 1, L is divisible by P·v and `initial` matches `model`.
  ChunkPipelineTrainer(const MlpConfig& model, const OptimizerConfig& optimizer, const MlpParams& initial,
                       int devices, int chunks_per_device);

  // One step on the global batch (B, D) running `schedule` (P and v as constructed, m ≤ B). Throws dsml::Error
  // with check_chunk_schedule's message if the schedule is not valid.
  ChunkPipelineStep step(const Batch& batch, const ChunkSchedule& schedule);

  MlpParams full_params() const;  // the chunks' blocks in model order
  const std::vector<MlpParams>& chunks() const { return chunks_; }  // chunk c's blocks, c = 0 … P·v − 1

 private:
  // step without checking the schedule: for one already checked for this trainer. The plain pipeline checks its
  // own schedule in its own terms (check_pipeline_schedule), and as_chunk_schedule of a valid one is valid.
  friend class PipelineParallelTrainer;
  ChunkPipelineStep run(const Batch& batch, const ChunkSchedule& schedule);

  MlpConfig model_;
  MlpConfig chunk_model_;  // layers = L / (P·v)
  int devices_;
  int chunks_per_device_;
  std::vector<MlpParams> chunks_;
  std::vector<Optimizer> optimizers_;  // per chunk
};

}  // namespace dsml

namespace dsml {

// `steps` steps of `schedule` on the teacher task (TeacherTask(model, seed), student init_student(model, seed),
// batch rows per step) beside one device from the same start on the same batches.
struct ChunkPipelineComparison {
  std::vector<double> losses;         // per step, the pipelined run's
  std::vector<double> single_losses;  // per step, one device's
  double max_relative_difference = 0; // final parameters: max over tensors of ‖W − W_single‖_F / ‖W_single‖_F
  std::vector<int> peak_in_flight;    // per device, chunk activations held at once
  int messages = 0;                   // point-to-point messages per step
  double bytes_per_step = 0;          // their bytes (8-byte doubles)
};
// Throws as ChunkPipelineTrainer and its step, and unless batch, steps ≥ 1.
ChunkPipelineComparison compare_chunk_pipeline(const MlpConfig& model, const OptimizerConfig& optimizer,
                                               const ChunkSchedule& schedule, int batch, int steps,
                                               std::uint64_t seed);

}  // namespace dsml
