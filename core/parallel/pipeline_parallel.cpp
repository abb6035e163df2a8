// pipeline_parallel.cpp — the plain pipeline (GPipe or 1F1B, pipeline_schedule.h) trained on real micro-batches:
// the stages' split of the model, and a trainer that checks a schedule in its own terms (explicit sends and
// receives, check_pipeline_schedule) and runs its compute ops on the one pipeline engine — the chunk trainer of
// chunk_pipeline_parallel.h with v = 1 chunk per device, where a result that crosses to the next stage is the
// message the schedule's send and receive name.
#include <string>
#include <utility>

#include "dsml/error.h"
#include "dsml/pipeline_parallel.h"
#include "parallel/micro_batches.h"

namespace dsml {
namespace {

// The plain pipeline's own checks, in its own words, before its engine is built; returns `model`.
const MlpConfig& checked(const RankGrid& grid, const MlpConfig& model, const std::string& schedule) {
  validate(model);
  check_grid(schedule == "gpipe" ? Strategy::pp_gpipe : Strategy::pp_1f1b, grid);
  pipeline_stage_config(model, grid.pp);
  return model;
}

}  // namespace

PipelineSchedule pipeline_schedule_by_name(const std::string& name, int stages, int micro_batches) {
  if (name == "gpipe") return gpipe(stages, micro_batches);
  if (name == "1f1b" || name == "one-f-one-b") return one_f_one_b(stages, micro_batches);
  throw Error("unknown pipeline schedule \"" + name + "\"; choose gpipe or 1f1b");
}

MlpConfig pipeline_stage_config(const MlpConfig& model, int pp) {
  if (pp < 1) throw Error("pipeline-parallel size pp must be >= 1, got " + std::to_string(pp));
  if (model.layers % pp != 0)
    throw Error("L = " + std::to_string(model.layers) + " blocks cannot be split evenly into pp = " +
                std::to_string(pp) + " stages; choose pp dividing L");
  MlpConfig stage = model;
  stage.layers = model.layers / pp;
  return stage;
}

std::vector<MlpParams> split_pipeline_stages(const MlpParams& params, int pp) {
  MlpConfig shape;
  shape.layers = static_cast<int>(params.blocks.size());
  const int per_stage = pipeline_stage_config(shape, pp).layers;
  std::vector<MlpParams> stages(static_cast<std::size_t>(pp));
  for (int l = 0; l < shape.layers; ++l) stages[l / per_stage].blocks.push_back(params.blocks[l]);
  return stages;
}

MlpParams gather_pipeline_stages(const std::vector<MlpParams>& stages) {
  MlpParams full;
  for (const MlpParams& stage : stages) full.blocks.insert(full.blocks.end(), stage.blocks.begin(), stage.blocks.end());
  return full;
}

PipelineParallelTrainer::PipelineParallelTrainer(const RankGrid& grid, const MlpConfig& model,
                                                 const OptimizerConfig& optimizer, const MlpParams& initial,
                                                 const PipelineOptions& options)
    : grid_(grid),
      engine_(checked(grid, model, options.schedule), optimizer, initial, grid.pp, 1),
      schedule_(pipeline_schedule_by_name(options.schedule, grid.pp, options.micro_batches)) {}

PipelineParallelStep PipelineParallelTrainer::step(const Batch& batch, const PipelineSchedule& schedule) {
  if (schedule.stages != grid_.pp)
    throw Error("schedule \"" + schedule.name + "\" has " + std::to_string(schedule.stages) +
                " stages, the grid has pp = " + std::to_string(grid_.pp));
  micro_batches::require_valid_schedule(check_pipeline_schedule(schedule), schedule.name);
  ChunkPipelineStep run = engine_.run(batch, as_chunk_schedule(schedule));  // checked above, in its own terms
  PipelineParallelStep result;
  result.loss = run.loss;
  result.comm = std::move(run.comm);
  result.memory = std::move(run.memory);
  result.peak_in_flight = std::move(run.peak_in_flight);
  result.trace = std::move(run.trace);
  return result;
}

}  // namespace dsml
