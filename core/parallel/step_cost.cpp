// step_cost.cpp — one training step timed on paper or on a simulated network (see dsml/step_cost.h).
//
// plan_step (step_plan.cpp) writes down, strategy by strategy, the phases the implementations run; here each phase
// gets its duration — FLOPs at the device's speed, or a collective's closed form or simulated makespan — and
// time_phases (step_timeline.cpp) places them on the timeline, one after another or on two streams. Every group
// call is logged the way comm.h does (bytes the busiest rank of the schedule sends). Pipelines are different
// enough — stages at different points of the schedule at once — to be timed by time_pipeline_schedule instead.
#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "dsml/collective_cost.h"
#include "dsml/data_parallel.h"
#include "dsml/error.h"
#include "dsml/pipeline_schedule.h"
#include "dsml/schedule.h"
#include "dsml/simulator.h"
#include "dsml/step_cost.h"
#include "parallel/step_plan.h"

namespace dsml {

namespace {

using step_plan::Groups;
using step_plan::Phase;

// A collective phase's duration on its groups, seconds.
using CommTimer = std::function<double(const Phase&, const Groups&)>;

Schedule schedule_of(const StepCostConfig& c, const std::string& collective, int p, double values) {
  Schedule s = make_schedule(collective, c.algorithm, p, kScheduleElementBytes * values);
  for (double& b : s.slot_bytes) b *= c.element_bytes / double{kScheduleElementBytes};  // elements of element_bytes
  return s;
}

StepCost phased_cost(const StepCostConfig& c, const CommTimer& timer) {
  const step_plan::Plan plan = step_plan::plan_step(c);
  StepCost out;
  std::vector<double> seconds;
  seconds.reserve(plan.phases.size());
  // Blocks and buckets repeat the same collectives: build and time each (collective, n, axis) once — a ring
  // schedule on 1024 ranks has millions of steps.
  std::map<std::tuple<std::string, double, step_plan::Axis>, std::pair<double, double>> seen;  // bytes, seconds
  for (const Phase& phase : plan.phases) {
    if (phase.is_compute()) {
      seconds.push_back(phase.flops / c.flops_per_s);
      out.compute_s += seconds.back();
      continue;
    }
    const Groups& groups = plan.groups(phase);
    const int p = static_cast<int>(groups.front().size());
    const auto key = std::make_tuple(phase.kind, phase.values, phase.axis);
    auto known = seen.find(key);
    if (known == seen.end()) {
      const double bytes = busiest_rank_send_bytes(schedule_of(c, phase.kind, p, phase.values));
      known = seen.emplace(key, std::make_pair(bytes, p > 1 ? timer(phase, groups) : 0.0)).first;
    }
    for (std::size_t i = 0; i < groups.size(); ++i)
      out.comm.add(CommRecord{phase.kind, phase.label, p, known->second.first});
    seconds.push_back(known->second.second);
    out.comm_s[phase.kind] += seconds.back();
  }
  const step_plan::Timeline t = step_plan::time_phases(plan.phases, seconds, c.overlap);
  for (std::size_t i = 0; i < plan.phases.size(); ++i) {
    const Phase& phase = plan.phases[i];
    for (int r = 0; r < c.grid.size(); ++r)
      out.spans.push_back(StepSpan{r, phase.kind, phase.label, t.start[i], t.end[i],
                                   phase.is_compute() ? "compute" : "comm"});
    out.total_s = std::max(out.total_s, t.end[i]);
  }
  return out;
}

// Pipelines: t_f, t_b per stage and micro-batch; p2p_s the time of one (B/m, D) message.
StepCost pipeline_cost(const StepCostConfig& c, double p2p_s) {
  const int P = c.grid.pp, m = c.micro_batches;
  const double rows = static_cast<double>(c.batch) / m;
  const double fwd = (c.model.layers / P) * block_forward_flops(rows, c.model.width, c.model.hidden);
  const double t_f = fwd / c.flops_per_s;
  const double t_b = (2 * fwd + (c.recompute ? fwd / 2 : 0)) / c.flops_per_s;
  const PipelineSchedule schedule = c.strategy == Strategy::pp_gpipe ? gpipe(P, m) : one_f_one_b(P, m);
  const PipelineTiming timing = time_pipeline_schedule(schedule, t_f, t_b, p2p_s);
  const double without_messages = time_pipeline_schedule(schedule, t_f, t_b, 0).makespan;

  StepCost out;
  for (const PipelineSpan& s : timing.spans) {
    const bool forward = s.kind == PipelineOp::Kind::kForward;
    const std::string micro_batch = std::to_string(s.micro_batch);
    out.spans.push_back(StepSpan{s.stage, forward ? "forward" : "backward", "micro-batch " + micro_batch, s.start,
                                 s.end, "compute"});
    // gpipe and one_f_one_b send right after the op that produced the message (add_forward, add_backward).
    const bool sends = forward ? s.stage + 1 < P : s.stage > 0;
    if (c.overlap && sends)
      out.spans.push_back(StepSpan{s.stage, "send",
                                   (forward ? "activation " : "gradient ") + micro_batch + " to stage " +
                                       std::to_string(forward ? s.stage + 1 : s.stage - 1),
                                   s.end, s.end + p2p_s, "comm"});
  }
  out.compute_s = timing.busy.front();  // m·(t_f + t_b) on every stage
  out.bubble_s = without_messages - out.compute_s;
  out.comm_s["send"] = timing.makespan - without_messages;
  out.total_s = timing.makespan;
  const double bytes = rows * c.model.width * c.element_bytes;
  for (int i = 0; i < m; ++i)
    for (int s = 0; s + 1 < P; ++s) {
      const std::string from = std::to_string(i) + ": stage ";
      out.comm.add(CommRecord{"send", "activation " + from + std::to_string(s) + " -> " + std::to_string(s + 1), 2,
                              bytes, s});
      out.comm.add(CommRecord{"send", "gradient " + from + std::to_string(s + 1) + " -> " + std::to_string(s), 2,
                              bytes, s + 1});
    }
  return out;
}

double pipeline_message_bytes(const StepCostConfig& c) {
  return static_cast<double>(c.batch) / c.micro_batches * c.model.width * c.element_bytes;
}

}  // namespace

double block_forward_flops(double rows, double width, double hidden) { return 2 * (2 * rows * width * hidden); }

void validate(const StepCostConfig& c) {
  validate(c.model);
  check_grid(c.strategy, c.grid);
  const RankGrid& g = c.grid;
  const std::string name = strategy_name(c.strategy);
  if (c.micro_batches < 1 || (!takes_micro_batches(c.strategy) && c.micro_batches != 1))
    throw Error("micro-batches must be 1 for strategy " + name + " (≥ 1 for the dp family and the pipelines), got " +
                std::to_string(c.micro_batches));
  if (c.batch < 1 || c.batch % g.dp != 0)
    throw Error("batch must be a positive multiple of dp = " + std::to_string(g.dp) + ", got " +
                std::to_string(c.batch));
  if (c.batch % (g.dp * c.micro_batches) != 0)
    throw Error("batch " + std::to_string(c.batch) + " is not divisible by dp · micro-batches = " +
                std::to_string(g.dp) + " · " + std::to_string(c.micro_batches));
  if (c.model.hidden % g.tp != 0)
    throw Error("hidden width " + std::to_string(c.model.hidden) + " is not divisible by tp = " + std::to_string(g.tp));
  if (c.model.layers % g.pp != 0)
    throw Error("layers " + std::to_string(c.model.layers) + " are not divisible by pp = " + std::to_string(g.pp));
  require_positive("flops_per_s", c.flops_per_s);
  require_positive("element_bytes", c.element_bytes);
  require_positive("bucket_bytes", c.bucket_bytes);
  const double psi = 2.0 * c.model.layers * c.model.width * c.model.hidden;
  if (is_bucketed(c.strategy) && psi / static_cast<double>(bucket_values(c.bucket_bytes, c.element_bytes)) > 1e4)
    throw Error("bucket_bytes = " + format_number(c.bucket_bytes) + " cuts the " + format_number(psi) +
                " gradients into more than 10000 buckets; use larger buckets");
  if (c.optimizer_states < 0) throw Error("optimizer_states must be ≥ 0, got " + std::to_string(c.optimizer_states));
}

StepCost step_cost(const StepCostConfig& config, const CostModel& model) {
  validate(config);
  validate(model);
  StepCost out;
  if (is_pipeline(config.strategy)) {
    out = pipeline_cost(config, config.grid.pp > 1 ? message_time(model, pipeline_message_bytes(config)) : 0.0);
  } else {
    out = phased_cost(config, [&](const Phase& phase, const Groups& groups) {
      return closed_form_time(phase.kind, config.algorithm, static_cast<int>(groups.front().size()),
                              phase.values * config.element_bytes, model).total();
    });
  }
  out.memory = step_memory(config);
  return out;
}

StepCost step_cost(const StepCostConfig& config, const Topology& topology, double gamma) {
  validate(config);
  if (topology.ranks() != config.grid.size())
    throw Error("the topology has " + std::to_string(topology.ranks()) + " ranks, the grid " +
                std::to_string(config.grid.size()));
  if (!(gamma >= 0)) throw Error("gamma must be ≥ 0");
  StepCost out;
  if (is_pipeline(config.strategy)) {
    // Stage s is rank s (dp = tp = 1). One message size; the slowest neighbour route sets p2p_s.
    const double message = pipeline_message_bytes(config);
    double p2p = 0;
    for (int s = 0; s + 1 < config.grid.pp; ++s)
      p2p = std::max({p2p, topology.route(s, s + 1).time(message), topology.route(s + 1, s).time(message)});
    out = pipeline_cost(config, p2p);
  } else {
    // Every group's schedule at once on the shared network: groups that share links contend.
    out = phased_cost(config, [&](const Phase& phase, const Groups& groups) {
      std::vector<Program> programs(static_cast<std::size_t>(topology.ranks()));
      for (const std::vector<int>& group : groups) {
        const std::vector<Program> local =
            to_programs(schedule_of(config, phase.kind, static_cast<int>(group.size()), phase.values), gamma);
        for (std::size_t i = 0; i < group.size(); ++i) {
          Program& global = programs[static_cast<std::size_t>(group[i])];
          for (Step step : local[i]) {
            if (step.kind != Step::Kind::kCompute) step.peer = group[static_cast<std::size_t>(step.peer)];
            global.push_back(step);
          }
        }
      }
      return simulate(topology, programs, SimOptions{false, false}).makespan;
    });
  }
  out.memory = step_memory(config);
  return out;
}

}  // namespace dsml
