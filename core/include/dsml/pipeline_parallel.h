// dsml/pipeline_parallel.h — pipeline parallelism of the MLP: contiguous blocks per stage, micro-batches,
// and a schedule from dsml/pipeline_schedule.h actually executed on real numbers.
//
//   stage s of pp holds blocks [s·L/pp, (s+1)·L/pp)          (L divisible by pp)
//   the global batch (B, D) is cut into m micro-batches of rows (shard_sizes(B, m): the first B mod m one larger)
//   the schedule (GPipe: Huang et al. 2019; 1F1B / PipeDream-Flush: Narayanan et al. 2021) says, per stage, in
//   which order to forward, backward, send and receive; check_pipeline_schedule checks it as written, and the
//   one pipeline engine (dsml/chunk_pipeline_parallel.h, v = 1) runs its forwards and backwards in each stage's
//   order, a stage waiting until what it needs has arrived — the message the send and receive name
//   stage s forwards micro-batch i with mlp_forward on its own blocks, and backwards it with mlp_backward —
//   exactly the single-device math, cut at block boundaries
//   the last stage's loss gradient for micro-batch i is scaled by B_i/B, so the gradients accumulated over the
//   micro-batches are those of the mean loss over the global batch; then each stage steps its own optimizer
// Communication is point to point: per micro-batch, an activation (B_i, D) to the next stage and a gradient
// (B_i, D) back — 2·(pp − 1)·B·D·8 bytes per step, logged as "send" with the sending stage in CommRecord::stage.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "dsml/chunk_pipeline_parallel.h"
#include "dsml/comm.h"
#include "dsml/memory_accountant.h"
#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/pipeline_schedule.h"
#include "dsml/rank_grid.h"
#include "dsml/strategy.h"
#include "dsml/teacher_task.h"

namespace dsml {

// "gpipe" or "1f1b" (also "one-f-one-b"); throws dsml::Error naming the choices otherwise.
PipelineSchedule pipeline_schedule_by_name(const std::string& name, int stages, int micro_batches);

// The blocks of each stage: stage s gets blocks [s·L/pp, (s+1)·L/pp). Throws dsml::Error unless pp ≥ 1 and
// L is divisible by pp. stage_config gives the MlpConfig of one stage (layers = L/pp).
std::vector<MlpParams> split_pipeline_stages(const MlpParams& params, int pp);
MlpParams gather_pipeline_stages(const std::vector<MlpParams>& stages);
MlpConfig pipeline_stage_config(const MlpConfig& model, int pp);

// What one training step reports: ParallelStep (memory per stage counts the PEAK activations it kept), plus the
// executor's own record.
struct PipelineParallelStep : ParallelStep {
  std::vector<int> peak_in_flight;  // per stage: most micro-batches forwarded and not yet backwarded at once
                                    // (equals peak_in_flight_activations(schedule))
  std::vector<ExecutedOp> trace;    // the compute ops in executed order (describe: "round 3 device 1: F(2, chunk 1)")
};

struct PipelineOptions {
  std::string schedule = "1f1b";  // what step(batch) runs: pipeline_schedule_by_name(schedule, pp, micro_batches)
  int micro_batches = 1;          // m ≥ 1
};

// Trains one model on a grid with dp = tp = 1 and pp ≥ 1 stages.
class PipelineParallelTrainer : public ParallelTrainer {
 public:
  // Throws dsml::Error on a bad grid, L not divisible by pp, `initial` not matching `model`, or a bad schedule
  // name or micro-batch count.
  PipelineParallelTrainer(const RankGrid& grid, const MlpConfig& model, const OptimizerConfig& optimizer,
                          const MlpParams& initial, const PipelineOptions& options = {});

  // One step on the global batch with the schedule of the options.
  ParallelStep step(const Batch& batch) override { return step(batch, schedule_); }
  // One step on the global batch, executing `schedule` (any valid schedule with schedule.stages == pp; its
  // micro_batches m ≤ B). Throws dsml::Error with check_pipeline_schedule's message if it is not valid.
  PipelineParallelStep step(const Batch& batch, const PipelineSchedule& schedule);

  MlpParams full_params() const override { return engine_.full_params(); }  // read-back, nothing logged
  const std::vector<MlpParams>& stages() const { return engine_.chunks(); }
  const RankGrid& grid() const override { return grid_; }

 private:
  RankGrid grid_;
  ChunkPipelineTrainer engine_;  // P = pp devices, v = 1: stage s is chunk s, with its own optimizer
  PipelineSchedule schedule_;
};

}  // namespace dsml
