// step_cost.cpp — one training step as a sequence of phases, timed on paper or on a simulated network.
//
// plan() writes down, strategy by strategy, what the implementations in core/parallel/ do in one step: compute
// phases (FLOPs per rank) and collective phases (a collective of n values run by every group at once). Then
// one loop times the phases one after another (no overlap: see step_cost.h), draws every rank's spans, sums
// the breakdown and logs each group call the way comm.h does (bytes the busiest rank of the schedule sends).
// Pipelines are different enough — stages at different points of the schedule at once — to be timed by
// time_pipeline_schedule instead (pipeline_cost below).
#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "dsml/collective_cost.h"
#include "dsml/error.h"
#include "dsml/pipeline_schedule.h"
#include "dsml/schedule.h"
#include "dsml/simulator.h"
#include "dsml/step_cost.h"

namespace dsml {

namespace {

constexpr double kScheduleElementBytes = 4;  // make_schedule counts float32 elements (see comm.h)

struct Phase {
  std::string kind;   // "compute" or a collective
  std::string label;
  double flops = 0;                        // compute: per rank
  std::size_t values = 0;                  // collective: n elements per group call
  const std::vector<std::vector<int>>* groups = nullptr;  // collective: disjoint groups of global ranks
};

// A collective phase's duration, seconds.
using CommTimer = std::function<double(const Phase&)>;

bool is_pipeline(const std::string& s) { return s == "pp-gpipe" || s == "pp-1f1b"; }

Schedule schedule_of(const StepCostConfig& c, const std::string& collective, int p, std::size_t values) {
  Schedule s = make_schedule(collective, c.algorithm, p, kScheduleElementBytes * static_cast<double>(values));
  for (double& b : s.slot_bytes) b *= c.element_bytes / kScheduleElementBytes;  // elements of element_bytes
  return s;
}

// What the busiest rank of the schedule sends — the bytes_per_rank of comm.h's CommLog.
double busiest_send_bytes(const Schedule& s) {
  double busiest = 0;
  for (const auto& steps : s.steps) {
    double sent = 0;
    for (const ScheduleStep& step : steps)
      if (step.kind == ScheduleStep::Kind::kSend) sent += step_bytes(s, step);
    busiest = std::max(busiest, sent);
  }
  return busiest;
}

// The phases of one step of a non-pipeline strategy, in the implementation's order.
std::vector<Phase> plan(const StepCostConfig& c, const std::vector<std::vector<int>>& dp_groups,
                        const std::vector<std::vector<int>>& tp_groups) {
  const RankGrid& g = c.grid;
  const std::string& s = c.strategy;
  const int L = c.model.layers;
  const std::size_t DF = static_cast<std::size_t>(c.model.width) * static_cast<std::size_t>(c.model.hidden);
  const std::size_t psi = 2 * static_cast<std::size_t>(L) * DF;
  // Per rank and block: B/dp rows, F/tp hidden units.
  const double fwd = block_forward_flops(static_cast<double>(c.batch) / g.dp, c.model.width,
                                         static_cast<double>(c.model.hidden) / g.tp);
  const double bwd = 2 * fwd + (c.recompute ? fwd / 2 : 0);  // recompute x·W_inᵀ: half a forward
  const std::size_t activation = static_cast<std::size_t>(c.batch / g.dp) * static_cast<std::size_t>(c.model.width);
  const std::size_t slice = 2 * DF / static_cast<std::size_t>(g.tp);  // one block's (tp slice's) values

  std::vector<Phase> phases;
  auto compute = [&](const std::string& label, double flops) { phases.push_back({"compute", label, flops, 0, nullptr}); };
  auto collective = [&](const std::string& kind, const std::string& label, std::size_t n,
                        const std::vector<std::vector<int>>& groups) { phases.push_back({kind, label, 0, n, &groups}); };
  const std::string block = "block ";

  if (s == "zero3" || s == "fsdp-tp") {
    const bool tp = s == "fsdp-tp";
    for (int l = 0; l < L; ++l) {
      collective("all-gather", block + std::to_string(l) + " params forward", slice, dp_groups);
      compute(block + std::to_string(l) + " forward", fwd);
      if (tp) collective("all-reduce", block + std::to_string(l) + " g forward (Y)", activation, tp_groups);
    }
    for (int l = L; l-- > 0;) {
      collective("all-gather", block + std::to_string(l) + " params backward", slice, dp_groups);
      compute(block + std::to_string(l) + " backward", bwd);
      if (tp) collective("all-reduce", block + std::to_string(l) + " f backward (dX)", activation, tp_groups);
      collective("reduce-scatter", block + std::to_string(l) + " grads", slice, dp_groups);
    }
    return phases;
  }
  if (s == "tp") {
    for (int l = 0; l < L; ++l) {
      compute(block + std::to_string(l) + " forward", fwd);
      collective("all-reduce", block + std::to_string(l) + " g forward (Y)", activation, tp_groups);
    }
    for (int l = L; l-- > 0;) {
      compute(block + std::to_string(l) + " backward", bwd);
      collective("all-reduce", block + std::to_string(l) + " f backward (dX)", activation, tp_groups);
    }
    return phases;
  }
  // single, dp, dp-bucketed, zero1, zero2: the whole forward and backward, then the gradients' collectives.
  compute("forward", L * fwd);
  compute("backward", L * bwd);
  if (s == "dp") {
    for (int i = 0; i < 2 * L; ++i)
      collective("all-reduce", "blocks[" + std::to_string(i / 2) + "]." + (i % 2 == 0 ? "w_in" : "w_out"), DF,
                 dp_groups);
  } else if (s == "dp-bucketed") {
    const std::size_t per_bucket = std::max<std::size_t>(1, static_cast<std::size_t>(c.bucket_bytes / c.element_bytes));
    int bucket = 0;
    for (std::size_t begin = 0; begin < psi; begin += per_bucket, ++bucket)
      collective("all-reduce", "bucket " + std::to_string(bucket), std::min(psi, begin + per_bucket) - begin,
                 dp_groups);
  } else if (s == "zero1" || s == "zero2") {
    collective(s == "zero1" ? "all-reduce" : "reduce-scatter", "grads", psi, dp_groups);
    collective("all-gather", "params", psi, dp_groups);
  }
  return phases;
}

// The groups of a dp × tp grid (pp = 1): dp groups are the tp columns {(d, t) : d}, tp groups the replicas.
std::vector<std::vector<int>> groups_along(const RankGrid& g, bool along_dp) {
  std::vector<std::vector<int>> groups;
  for (int outer = 0; outer < (along_dp ? g.tp : g.dp); ++outer) {
    groups.emplace_back();
    for (int inner = 0; inner < (along_dp ? g.dp : g.tp); ++inner)
      groups.back().push_back(rank_of(g, along_dp ? RankCoord{inner, outer, 0} : RankCoord{outer, inner, 0}));
  }
  return groups;
}

StepCost phased_cost(const StepCostConfig& c, const CommTimer& timer) {
  const std::vector<std::vector<int>> dp_groups = groups_along(c.grid, true), tp_groups = groups_along(c.grid, false);
  StepCost out;
  double now = 0;
  // Blocks repeat the same collectives: build and time each (collective, n, groups) once — a ring schedule on
  // 1024 ranks has millions of steps.
  std::map<std::tuple<std::string, std::size_t, const void*>, std::pair<double, double>> seen;  // bytes, seconds
  for (const Phase& phase : plan(c, dp_groups, tp_groups)) {
    double seconds = 0;
    if (phase.kind == "compute") {
      seconds = phase.flops / c.flops_per_s;
      out.compute_s += seconds;
    } else {
      const int p = static_cast<int>(phase.groups->front().size());
      const auto key = std::make_tuple(phase.kind, phase.values, static_cast<const void*>(phase.groups));
      auto known = seen.find(key);
      if (known == seen.end()) {
        const double bytes = busiest_send_bytes(schedule_of(c, phase.kind, p, phase.values));
        known = seen.emplace(key, std::make_pair(bytes, p > 1 ? timer(phase) : 0.0)).first;
      }
      for (std::size_t i = 0; i < phase.groups->size(); ++i)
        out.comm.add(CommRecord{phase.kind, phase.label, p, known->second.first});
      seconds = known->second.second;
      out.comm_s[phase.kind] += seconds;
    }
    for (int r = 0; r < c.grid.size(); ++r) out.spans.push_back(StepSpan{r, phase.kind, phase.label, now, now + seconds});
    now += seconds;
  }
  out.total_s = now;
  return out;
}

// Pipelines: t_f, t_b per stage and micro-batch; p2p_s the time of one (B/m, D) message.
StepCost pipeline_cost(const StepCostConfig& c, double p2p_s) {
  const int P = c.grid.pp, m = c.micro_batches;
  const double rows = static_cast<double>(c.batch) / m;
  const double fwd = (c.model.layers / P) * block_forward_flops(rows, c.model.width, c.model.hidden);
  const double t_f = fwd / c.flops_per_s;
  const double t_b = (2 * fwd + (c.recompute ? fwd / 2 : 0)) / c.flops_per_s;
  const PipelineSchedule schedule = c.strategy == "pp-gpipe" ? gpipe(P, m) : one_f_one_b(P, m);
  const PipelineTiming timing = time_pipeline_schedule(schedule, t_f, t_b, p2p_s);
  const double without_messages = time_pipeline_schedule(schedule, t_f, t_b, 0).makespan;

  StepCost out;
  for (const PipelineSpan& s : timing.spans) {
    const bool forward = s.kind == PipelineOp::Kind::kForward;
    out.spans.push_back(StepSpan{s.stage, forward ? "forward" : "backward",
                                 "micro-batch " + std::to_string(s.micro_batch), s.start, s.end});
  }
  out.compute_s = timing.busy.front();  // m·(t_f + t_b) on every stage
  out.bubble_s = without_messages - out.compute_s;
  out.comm_s["send"] = timing.makespan - without_messages;
  out.total_s = timing.makespan;
  const double bytes = rows * c.model.width * c.element_bytes;
  for (int i = 0; i < m; ++i)
    for (int s = 0; s + 1 < P; ++s) {
      out.comm.add(CommRecord{"send", "activation " + std::to_string(i) + " stage " + std::to_string(s), 2, bytes});
      out.comm.add(CommRecord{"send", "grad " + std::to_string(i) + " stage " + std::to_string(s + 1), 2, bytes});
    }
  return out;
}

}  // namespace

const std::vector<std::string>& step_cost_strategies() {
  static const std::vector<std::string> names = {"single", "dp",  "dp-bucketed", "zero1",    "zero2",
                                                 "zero3",  "tp",  "fsdp-tp",     "pp-gpipe", "pp-1f1b"};
  return names;
}

double block_forward_flops(double rows, double width, double hidden) { return 2 * (2 * rows * width * hidden); }

void validate(const StepCostConfig& c) {
  validate(c.model);
  validate(c.grid);
  const auto& names = step_cost_strategies();
  const std::string& s = c.strategy;
  if (std::find(names.begin(), names.end(), s) == names.end())
    throw Error("unknown strategy '" + s + "'; expected single, dp, dp-bucketed, zero1, zero2, zero3, tp, fsdp-tp, "
                "pp-gpipe or pp-1f1b");
  const RankGrid& g = c.grid;
  const bool uses_dp = s != "single" && s != "tp" && !is_pipeline(s);
  const bool uses_tp = s == "tp" || s == "fsdp-tp";
  if ((!uses_dp && g.dp != 1) || (!uses_tp && g.tp != 1) || (!is_pipeline(s) && g.pp != 1))
    throw Error("strategy " + s + " runs on a grid with " +
                (s == "single" ? std::string("dp = tp = pp = 1") : uses_dp && uses_tp ? "pp = 1" : uses_dp ? "tp = pp = 1"
                 : uses_tp ? "dp = pp = 1" : "dp = tp = 1") +
                ", got dp " + std::to_string(g.dp) + ", tp " + std::to_string(g.tp) + ", pp " + std::to_string(g.pp));
  if (c.batch < 1 || c.batch % g.dp != 0)
    throw Error("batch must be a positive multiple of dp = " + std::to_string(g.dp) + ", got " + std::to_string(c.batch));
  if (c.model.hidden % g.tp != 0)
    throw Error("hidden width " + std::to_string(c.model.hidden) + " is not divisible by tp = " + std::to_string(g.tp));
  if (c.model.layers % g.pp != 0)
    throw Error("layers " + std::to_string(c.model.layers) + " are not divisible by pp = " + std::to_string(g.pp));
  if (c.micro_batches < 1 || (!is_pipeline(s) && c.micro_batches != 1))
    throw Error("micro-batches must be 1 for strategy " + s + " (≥ 1 for pipelines), got " +
                std::to_string(c.micro_batches));
  if (c.batch % c.micro_batches != 0)
    throw Error("batch " + std::to_string(c.batch) + " is not divisible by " + std::to_string(c.micro_batches) +
                " micro-batches");
  require_positive("flops_per_s", c.flops_per_s);
  require_positive("element_bytes", c.element_bytes);
  require_positive("bucket_bytes", c.bucket_bytes);
  if (c.optimizer_states < 0) throw Error("optimizer_states must be ≥ 0, got " + std::to_string(c.optimizer_states));
}

StepCost step_cost(const StepCostConfig& config, const CostModel& model) {
  validate(config);
  validate(model);
  StepCost out;
  if (is_pipeline(config.strategy)) {
    const double message = static_cast<double>(config.batch) / config.micro_batches * config.model.width *
                           config.element_bytes;
    out = pipeline_cost(config, config.grid.pp > 1 ? message_time(model, message) : 0.0);
  } else {
    out = phased_cost(config, [&](const Phase& phase) {
      const int p = static_cast<int>(phase.groups->front().size());
      return closed_form_time(phase.kind, config.algorithm, p, static_cast<double>(phase.values) * config.element_bytes,
                              model).total();
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
    const double message = static_cast<double>(config.batch) / config.micro_batches * config.model.width *
                           config.element_bytes;
    double p2p = 0;
    for (int s = 0; s + 1 < config.grid.pp; ++s)
      p2p = std::max({p2p, topology.route(s, s + 1).time(message), topology.route(s + 1, s).time(message)});
    out = pipeline_cost(config, p2p);
  } else {
    // Every group's schedule at once on the shared network: groups that share links contend.
    out = phased_cost(config, [&](const Phase& phase) {
      std::vector<Program> programs(static_cast<std::size_t>(topology.ranks()));
      for (const std::vector<int>& group : *phase.groups) {
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
