// Running the stages of a pipeline schedule together.
//
// Each stage has a clock and a program counter. A sweep advances every stage as far as it can: compute ops
// move the clock on by t_f or t_b; a send stamps its message with an arrival time (clock + p2p) at the
// neighbour; a receive whose message has not been sent yet stops the stage until a later sweep. Because a
// stage's ops run in order and each message has exactly one sender, the times do not depend on the order of
// the sweeps. When a sweep moves nobody and some stage is unfinished, every unfinished stage waits on a
// receive that can never be satisfied: a deadlock, reported as the list of who waits for what.
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "pipeline_run.h"

namespace dsml {
namespace pipeline_detail {
namespace {

constexpr double kNotSent = -1.0;

}  // namespace

PipelineRun run_pipeline(const PipelineSchedule& schedule, double forward_s, double backward_s, double p2p_s) {
  using Kind = PipelineOp::Kind;
  const auto P = static_cast<std::size_t>(schedule.stages);
  const auto m = static_cast<std::size_t>(schedule.micro_batches);
  // activation_at[s][i]: when micro-batch i's activation reaches stage s (from s − 1);
  // grad_at[s][i]: when its output gradient reaches stage s (from s + 1). kNotSent until sent.
  std::vector<std::vector<double>> activation_at(P, std::vector<double>(m, kNotSent));
  std::vector<std::vector<double>> grad_at(P, std::vector<double>(m, kNotSent));
  std::vector<std::size_t> pc(P, 0);
  std::vector<std::vector<PipelineSpan>> spans(P);
  PipelineRun run;
  run.finish.assign(P, 0.0);
  run.busy.assign(P, 0.0);

  bool moved = true;
  while (moved) {
    moved = false;
    for (std::size_t s = 0; s < P; ++s) {
      const auto& ops = schedule.ops[s];
      double& clock = run.finish[s];
      for (; pc[s] < ops.size(); ++pc[s], moved = true) {
        const PipelineOp& op = ops[pc[s]];
        const auto i = static_cast<std::size_t>(op.micro_batch);
        if (op.kind == Kind::kRecvActivation || op.kind == Kind::kRecvGrad) {
          const double arrival = op.kind == Kind::kRecvActivation ? activation_at[s][i] : grad_at[s][i];
          if (arrival == kNotSent) break;  // not sent yet: try again next sweep
          clock = std::max(clock, arrival);
        } else if (op.kind == Kind::kSendActivation) {
          activation_at[s + 1][i] = clock + p2p_s;
        } else if (op.kind == Kind::kSendGrad) {
          grad_at[s - 1][i] = clock + p2p_s;
        } else {
          const double duration = op.kind == Kind::kForward ? forward_s : backward_s;
          spans[s].push_back({static_cast<int>(s), op.kind, op.micro_batch, clock, clock + duration});
          clock += duration;
          run.busy[s] += duration;
        }
      }
    }
  }

  for (std::size_t s = 0; s < P; ++s) {
    run.spans.insert(run.spans.end(), spans[s].begin(), spans[s].end());
    if (pc[s] == schedule.ops[s].size()) continue;
    const PipelineOp& op = schedule.ops[s][pc[s]];
    const bool activation = op.kind == PipelineOp::Kind::kRecvActivation;
    run.deadlock += std::string(run.deadlock.empty() ? "deadlock: " : ", ") + "stage " + std::to_string(s) +
                    " waits for the " + (activation ? "activation" : "gradient") + " of micro-batch " +
                    std::to_string(op.micro_batch) + " from stage " +
                    std::to_string(activation ? s - 1 : s + 1);
  }
  return run;
}

}  // namespace pipeline_detail
}  // namespace dsml
