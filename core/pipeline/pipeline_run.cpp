// The sweep engine (pipeline_run.h), and the plain schedules run on it: a send sets the message's arrival at the
// neighbour (clock + p2p), a receive waits for it, a forward or backward computes for t_f or t_b.
#include "pipeline_run.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace dsml {
namespace pipeline_detail {
namespace {

constexpr double kNotYet = -1.0;  // an event that has not happened (times are ≥ 0)

}  // namespace

SweepRun run_programs(const std::vector<std::vector<TimedOp>>& programs, std::size_t events) {
  const std::size_t P = programs.size();
  std::vector<double> at(events, kNotYet);  // when each event happened
  SweepRun run;
  run.finish.assign(P, 0.0);
  run.busy.assign(P, 0.0);
  run.start.assign(P, {});
  run.stopped_at.assign(P, 0);
  for (bool moved = true; moved;) {
    moved = false;
    for (std::size_t d = 0; d < P; ++d) {
      const auto& ops = programs[d];
      std::size_t& pc = run.stopped_at[d];
      double& clock = run.finish[d];
      for (; pc < ops.size(); ++pc, moved = true) {
        const TimedOp& op = ops[pc];
        double start = clock;
        if (op.needs >= 0) {
          const double event = at[static_cast<std::size_t>(op.needs)];
          if (event == kNotYet) break;  // not happened yet: try again next sweep
          start = std::max(start, event + op.needs_delay);
        }
        run.start[d].push_back(start);
        clock = start + op.duration;
        if (op.compute) run.busy[d] += op.duration;
        if (op.sets >= 0) at[static_cast<std::size_t>(op.sets)] = clock + op.sets_delay;
      }
    }
  }
  return run;
}

PipelineRun run_pipeline(const PipelineSchedule& schedule, double forward_s, double backward_s, double p2p_s) {
  using Kind = PipelineOp::Kind;
  const auto P = static_cast<std::size_t>(schedule.stages);
  const auto m = static_cast<std::size_t>(schedule.micro_batches);
  // Events: micro-batch i's activation reaching stage s (from s − 1) is s·m + i; its output gradient reaching
  // stage s (from s + 1) is (P + s)·m + i.
  const auto activation = [m](std::size_t s, int i) { return static_cast<int>(s * m + static_cast<std::size_t>(i)); };
  const auto grad = [m, P](std::size_t s, int i) { return static_cast<int>((P + s) * m + static_cast<std::size_t>(i)); };
  std::vector<std::vector<TimedOp>> programs(P);
  for (std::size_t s = 0; s < P; ++s) {
    for (const PipelineOp& op : schedule.ops[s]) {
      TimedOp t;
      const int i = op.micro_batch;
      switch (op.kind) {
        case Kind::kRecvActivation: t.needs = activation(s, i); break;
        case Kind::kRecvGrad: t.needs = grad(s, i); break;
        case Kind::kSendActivation: t.sets = activation(s + 1, i), t.sets_delay = p2p_s; break;
        case Kind::kSendGrad: t.sets = grad(s - 1, i), t.sets_delay = p2p_s; break;
        case Kind::kForward: t.duration = forward_s, t.compute = true; break;
        case Kind::kBackward: t.duration = backward_s, t.compute = true; break;
      }
      programs[s].push_back(t);
    }
  }
  const SweepRun sweep = run_programs(programs, 2 * P * m);

  PipelineRun run;
  run.finish = sweep.finish;
  run.busy = sweep.busy;
  for (std::size_t s = 0; s < P; ++s) {
    for (std::size_t k = 0; k < sweep.start[s].size(); ++k) {
      const PipelineOp& op = schedule.ops[s][k];
      if (!programs[s][k].compute) continue;
      const double start = sweep.start[s][k];
      run.spans.push_back({static_cast<int>(s), op.kind, op.micro_batch, start, start + programs[s][k].duration});
    }
    if (sweep.stopped_at[s] == schedule.ops[s].size()) continue;
    const PipelineOp& op = schedule.ops[s][sweep.stopped_at[s]];
    const bool from_before = op.kind == Kind::kRecvActivation;
    run.deadlock += std::string(run.deadlock.empty() ? "deadlock: " : ", ") + "stage " + std::to_string(s) +
                    " waits for the " + (from_before ? "activation" : "gradient") + " of micro-batch " +
                    std::to_string(op.micro_batch) + " from stage " +
                    std::to_string(from_before ? s - 1 : s + 1);
  }
  return run;
}

IdleTime idle_time(const std::vector<double>& finish, const std::vector<double>& busy) {
  IdleTime out;
  out.makespan = *std::max_element(finish.begin(), finish.end());
  double total = 0;
  for (double b : busy) {
    out.idle.push_back(out.makespan - b);
    total += out.idle.back();
  }
  out.bubble_fraction = total / (static_cast<double>(busy.size()) * out.makespan);
  return out;
}

}  // namespace pipeline_detail
}  // namespace dsml
