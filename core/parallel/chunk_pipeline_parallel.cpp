// chunk_pipeline_parallel.cpp — executing a chunk schedule on real micro-batches (dsml/chunk_pipeline_parallel.h):
// the course's one pipeline engine. The plain pipeline (pipeline_parallel.cpp) is this engine with v = 1.
//
// The round-robin executor of parallel/round_robin.h: a device runs its next op once what it needs has arrived —
// F(i, c) the activation from chunk c − 1 (or the batch, for chunk 0), a backward of (i, c) the gradient from
// chunk c + 1 (or the loss, for the last chunk). The split into chunks, the micro-batches, their loss and the
// gradient accumulation are pipeline_parallel.h's and micro_batches.h's.
#include <algorithm>
#include <string>
#include <utility>

#include "dsml/chunk_pipeline_parallel.h"
#include "dsml/error.h"
#include "dsml/mlp_split_backward.h"
#include "dsml/pipeline_parallel.h"
#include "parallel/fp64_bytes.h"
#include "parallel/micro_batches.h"
#include "parallel/round_robin.h"

namespace dsml {
namespace {

using Kind = ChunkOp::Kind;
using micro_batches::accumulate;

// What forward keeps for backward for one micro-batch on one chunk: every block's input x (B_i, D) and
// pre-activation H (B_i, F) — mlp_block_activation_values per block. Held until the full backward, or until W.
double kept_bytes(const MlpForward& forward) {
  double bytes = 0;
  for (const Eigen::MatrixXd& x : forward.inputs) bytes += bytes_of(x);
  for (const Eigen::MatrixXd& h : forward.pre) bytes += bytes_of(h);
  return bytes;
}

// Per device, what it holds during a step: how many chunk activations and how many bytes of them, now and at
// the most.
struct Held {
  int now = 0, most = 0;
  double bytes = 0, most_bytes = 0;
  void take(double b) { most = std::max(most, ++now), most_bytes = std::max(most_bytes, bytes += b); }
  void free(double b) { --now, bytes -= b; }
};

// A chunk's working state during a step, indexed by micro-batch. An empty matrix means "not here (yet)".
struct ChunkWork {
  std::vector<Eigen::MatrixXd> input;     // activation (B_i, D) from chunk c − 1
  std::vector<Eigen::MatrixXd> d_output;  // ∂loss/∂(chunk output) (B_i, D) from chunk c + 1, or the loss's
  std::vector<MlpForward> kept;           // forward's stash, freed by the full backward or by W
  std::vector<MlpInputGradients> b_kept;  // B's stash (dY, dH per block), freed by W
  MlpParams grads;                        // accumulated over micro-batches

  // Nothing held yet for any of m micro-batches; zero gradients for the chunk's blocks.
  ChunkWork(int m, const MlpConfig& chunk) : input(m), d_output(m), kept(m), b_kept(m), grads(zeros_like(chunk)) {}
};

}  // namespace

ChunkPipelineTrainer::ChunkPipelineTrainer(const MlpConfig& model, const OptimizerConfig& optimizer,
                                           const MlpParams& initial, int devices, int chunks_per_device)
    : model_(model), devices_(devices), chunks_per_device_(chunks_per_device) {
  validate(model);
  if (devices < 1) throw Error("a pipeline needs at least 1 device, got " + std::to_string(devices));
  if (chunks_per_device < 1) throw Error("v must be >= 1 chunks per device, got " + std::to_string(chunks_per_device));
  const int C = devices * chunks_per_device;
  if (model.layers % C != 0)
    throw Error("L = " + std::to_string(model.layers) + " blocks cannot be cut into P·v = " + std::to_string(C) +
                " equal chunks; choose P·v dividing L");
  check_shapes(model, initial, "initial params");
  chunk_model_ = pipeline_stage_config(model, C);  // the blocks of C stages, each a chunk
  chunks_ = split_pipeline_stages(initial, C);
  optimizers_.assign(static_cast<std::size_t>(C), Optimizer(optimizer));
}

std::string describe(const ExecutedOp& executed) {
  return "round " + std::to_string(executed.round) + " device " + std::to_string(executed.device) + ": " +
         describe(executed.op);
}

MlpParams ChunkPipelineTrainer::full_params() const { return gather_pipeline_stages(chunks_); }

ChunkPipelineStep ChunkPipelineTrainer::step(const Batch& batch, const ChunkSchedule& schedule) {
  if (schedule.devices != devices_ || schedule.chunks_per_device != chunks_per_device_)
    throw Error("schedule \"" + schedule.name + "\" is for P = " + std::to_string(schedule.devices) + ", v = " +
                std::to_string(schedule.chunks_per_device) + "; the trainer has P = " + std::to_string(devices_) +
                ", v = " + std::to_string(chunks_per_device_));
  micro_batches::require_valid_schedule(check_chunk_schedule(schedule), schedule.name);
  return run(batch, schedule);
}

ChunkPipelineStep ChunkPipelineTrainer::run(const Batch& batch, const ChunkSchedule& schedule) {
  const int P = devices_, C = static_cast<int>(chunks_.size());
  micro_batches::check_batch(batch, model_.width);
  const int m = schedule.micro_batches;
  const micro_batches::Rows cut = micro_batches::cut(batch.inputs.rows(), m);  // micro-batch i's rows

  ChunkPipelineStep result;
  std::vector<ChunkWork> work(static_cast<std::size_t>(C), ChunkWork(m, chunk_model_));
  std::vector<Held> held(static_cast<std::size_t>(P));

  // Hand a (B_i, D) result from chunk `from` to chunk `to`: a logged message when they sit on different devices.
  auto hand = [&](int from, int to, const char* what, Eigen::MatrixXd value, std::vector<Eigen::MatrixXd>& slot_of_to,
                  int i) {
    if (from % P != to % P)
      result.comm.add({"send", std::string(what) + " " + std::to_string(i) + ": chunk " + std::to_string(from) +
                                   " -> " + std::to_string(to),
                       2, bytes_of(value), from % P});
    slot_of_to[i] = std::move(value);
  };
  auto ready = [&](int, const ChunkOp& op) {
    const ChunkWork& w = work[op.chunk];
    if (op.kind == Kind::kForward) return op.chunk == 0 || w.input[op.micro_batch].size() > 0;
    if (op.kind == Kind::kBackwardWeight) return true;  // its B ran earlier on this device
    return w.d_output[op.micro_batch].size() > 0;
  };
  auto run = [&](int d, const ChunkOp& op, int round) {
    result.trace.push_back({round, d, op});
    const int i = op.micro_batch, c = op.chunk;
    ChunkWork& w = work[c];
    switch (op.kind) {
      case Kind::kForward: {
        w.kept[i] = micro_batches::forward(chunk_model_, chunks_[c], batch, cut, i, c == 0, c == C - 1, w.input[i],
                                           w.d_output[i], result.loss);
        held[d].take(kept_bytes(w.kept[i]));
        if (c < C - 1) hand(c, c + 1, "activation", w.kept[i].output, work[c + 1].input, i);
        break;
      }
      case Kind::kBackward: {
        MlpGradients g = mlp_backward(chunk_model_, chunks_[c], w.kept[i], w.d_output[i]);
        accumulate(w.grads, g.params);
        held[d].free(kept_bytes(w.kept[i]));
        w.kept[i] = MlpForward{};
        w.d_output[i].resize(0, 0);
        if (c > 0) hand(c, c - 1, "gradient", std::move(g.d_input), work[c - 1].d_output, i);
        break;
      }
      case Kind::kBackwardInput: {
        w.b_kept[i] = mlp_backward_input(chunk_model_, chunks_[c], w.kept[i], w.d_output[i]);
        w.d_output[i].resize(0, 0);
        if (c > 0) hand(c, c - 1, "gradient", std::move(w.b_kept[i].d_input), work[c - 1].d_output, i);
        break;
      }
      case Kind::kBackwardWeight:
        accumulate(w.grads, mlp_backward_weight(chunk_model_, chunks_[c], w.kept[i], w.b_kept[i]));
        held[d].free(kept_bytes(w.kept[i]));
        w.kept[i] = MlpForward{};
        w.b_kept[i] = MlpInputGradients{};
        break;
    }
  };

  round_robin::execute(schedule.ops, ready, run, "pipeline executor");  // never stalls: checked above

  // ---- each chunk steps its own blocks; then the bytes each device held ------------------------------------
  result.memory.assign(static_cast<std::size_t>(P), MemoryBreakdown{});
  for (int c = 0; c < C; ++c) {
    optimizers_[c].step(chunks_[c], work[c].grads);
    MemoryBreakdown& mem = result.memory[c % P];
    for (const Eigen::MatrixXd* p : parameter_tensors(static_cast<const MlpParams&>(chunks_[c]))) mem.params += bytes_of(*p);
    for (const Eigen::MatrixXd* g : parameter_tensors(static_cast<const MlpParams&>(work[c].grads)))
      mem.grads += bytes_of(*g);
    for (const Eigen::MatrixXd& st : optimizers_[c].state().first) mem.optimizer += bytes_of(st);
    for (const Eigen::MatrixXd& st : optimizers_[c].state().second) mem.optimizer += bytes_of(st);
  }
  for (int d = 0; d < P; ++d) {
    MemoryBreakdown& mem = result.memory[d];
    mem.activations = held[d].most_bytes;
    mem.total = mem.params + mem.grads + mem.optimizer + mem.activations;
    result.peak_in_flight.push_back(held[d].most);
  }
  return result;
}

}  // namespace dsml
