// pipeline_parallel.cpp — executing a pipeline schedule (GPipe or 1F1B, pipeline_schedule.h) on real
// micro-batches, with each stage running the single-device mlp_forward / mlp_backward on its own blocks.
//
// The executor is the round-robin of parallel/round_robin.h, shared with the chunk trainer: a receive whose
// message has not been sent yet makes the stage skip the round.
#include <algorithm>
#include <string>
#include <utility>

#include "dsml/error.h"
#include "dsml/pipeline_parallel.h"
#include "parallel/micro_batches.h"
#include "parallel/fp64_bytes.h"
#include "parallel/round_robin.h"

namespace dsml {
namespace {

// What forward keeps for backward on one stage for one micro-batch: every block's input x (B_i, D) and
// pre-activation H (B_i, F) — mlp_block_activation_values per block.
double kept_bytes(const MlpForward& forward) {
  double bytes = 0;
  for (const Eigen::MatrixXd& x : forward.inputs) bytes += bytes_of(x);
  for (const Eigen::MatrixXd& h : forward.pre) bytes += bytes_of(h);
  return bytes;
}

// One stage's working state during a step, indexed by micro-batch.
struct StageWork {
  std::vector<Eigen::MatrixXd> input;    // received activation (B_i, D), waiting for forward
  std::vector<MlpForward> kept;          // forward's stash, freed by backward
  std::vector<Eigen::MatrixXd> d_output; // ∂loss/∂(stage output) (B_i, D): received, or the loss's (last stage)
  std::vector<Eigen::MatrixXd> d_input;  // backward's ∂loss/∂(stage input), waiting for send-grad
  MlpParams grads;                       // accumulated over micro-batches
  int in_flight = 0, peak_in_flight = 0;
  double kept_now = 0, kept_peak = 0;    // bytes

  // Nothing held yet for any of m micro-batches; zero gradients for the stage's blocks.
  StageWork(int m, const MlpConfig& stage) : input(m), kept(m), d_output(m), d_input(m), grads(zeros_like(stage)) {}
};

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
    : model_(model), grid_(grid) {
  validate(model);
  check_grid(options.schedule == "gpipe" ? Strategy::pp_gpipe : Strategy::pp_1f1b, grid);
  stage_model_ = pipeline_stage_config(model, grid.pp);
  schedule_ = pipeline_schedule_by_name(options.schedule, grid.pp, options.micro_batches);
  check_shapes(model, initial, "initial params");
  stages_ = split_pipeline_stages(initial, grid.pp);
  optimizers_.assign(static_cast<std::size_t>(grid.pp), Optimizer(optimizer));
}

PipelineParallelStep PipelineParallelTrainer::step(const Batch& batch, const PipelineSchedule& schedule) {
  using Kind = PipelineOp::Kind;
  const int pp = grid_.pp;
  micro_batches::check_batch(batch, model_.width);
  if (schedule.stages != pp)
    throw Error("schedule \"" + schedule.name + "\" has " + std::to_string(schedule.stages) +
                " stages, the grid has pp = " + std::to_string(pp));
  micro_batches::require_valid_schedule(check_pipeline_schedule(schedule), schedule.name);
  const int m = schedule.micro_batches;
  const micro_batches::Rows cut = micro_batches::cut(batch.inputs.rows(), m);  // micro-batch i's rows

  PipelineParallelStep result;
  PipelineMailboxes mail(pp, m, &result.comm);
  std::vector<StageWork> work(static_cast<std::size_t>(pp), StageWork(m, stage_model_));

  // Run one op of stage s (the executor has checked that a receive's message is there).
  auto run = [&](int s, const PipelineOp& op) {
    StageWork& w = work[s];
    const int i = op.micro_batch;
    switch (op.kind) {
      case Kind::kRecvActivation: w.input[i] = mail.recv_activation(s, i); break;
      case Kind::kRecvGrad: w.d_output[i] = mail.recv_grad(s, i); break;
      case Kind::kForward: {
        w.kept[i] = micro_batches::forward(stage_model_, stages_[s], batch, cut, i, s == 0, s == pp - 1, w.input[i],
                                           w.d_output[i], result.loss);
        w.kept_now += kept_bytes(w.kept[i]);
        w.kept_peak = std::max(w.kept_peak, w.kept_now);
        w.peak_in_flight = std::max(w.peak_in_flight, ++w.in_flight);
        break;
      }
      case Kind::kSendActivation: mail.send_activation(s, i, w.kept[i].output); break;
      case Kind::kBackward: {
        MlpGradients g = mlp_backward(stage_model_, stages_[s], w.kept[i], w.d_output[i]);
        micro_batches::accumulate(w.grads, g.params);
        w.kept_now -= kept_bytes(w.kept[i]);
        w.kept[i] = MlpForward{};  // activations freed
        --w.in_flight;
        w.d_output[i].resize(0, 0);
        if (s > 0) w.d_input[i] = std::move(g.d_input);
        break;
      }
      case Kind::kSendGrad:
        mail.send_grad(s, i, std::move(w.d_input[i]));
        break;
    }
  };

  // ---- the round-robin executor: a receive waits for its message -------------------------------------------
  round_robin::execute(
      schedule.ops,
      [&](int s, const PipelineOp& op) {
        if (op.kind == Kind::kRecvActivation) return mail.has_activation(s, op.micro_batch);
        if (op.kind == Kind::kRecvGrad) return mail.has_grad(s, op.micro_batch);
        return true;
      },
      [&](int s, const PipelineOp& op, int round) {
        run(s, op);
        result.trace.push_back("round " + std::to_string(round) + " stage " + std::to_string(s) + ": " +
                               describe(op, s));
      },
      "pipeline executor");

  // ---- each stage steps its own blocks; then the bytes each stage held -------------------------------------
  for (int s = 0; s < pp; ++s) {
    optimizers_[s].step(stages_[s], work[s].grads);
    MemoryBreakdown mem;
    for (const Eigen::MatrixXd* p : parameter_tensors(static_cast<const MlpParams&>(stages_[s])))
      mem.params += bytes_of(*p);
    for (const Eigen::MatrixXd* g : parameter_tensors(static_cast<const MlpParams&>(work[s].grads)))
      mem.grads += bytes_of(*g);
    for (const Eigen::MatrixXd& st : optimizers_[s].state().first) mem.optimizer += bytes_of(st);
    for (const Eigen::MatrixXd& st : optimizers_[s].state().second) mem.optimizer += bytes_of(st);
    mem.activations = work[s].kept_peak;
    mem.total = mem.params + mem.grads + mem.optimizer + mem.activations;
    result.memory.push_back(mem);
    result.peak_in_flight.push_back(work[s].peak_in_flight);
  }
  return result;
}

}  // namespace dsml
