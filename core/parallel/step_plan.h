// parallel/step_plan.h — private to core/parallel: one training step of a non-pipeline strategy written down as
// phases (step_plan.cpp), and the timeline of those phases with or without overlap (step_timeline.cpp). The public
// face is dsml/step_cost.h.
#pragma once

#include <string>
#include <vector>

#include "dsml/step_cost.h"

namespace dsml::step_plan {

using Groups = std::vector<std::vector<int>>;  // disjoint groups of global ranks

enum class Axis { dp, tp, all };  // which groups a collective runs over (all: one group of every rank)

struct Phase {
  std::string kind;         // "compute" or a collective: "all-reduce", "all-gather", "reduce-scatter"
  std::string label;        // "block 1 backward", "bucket 0", "block 2 params forward"
  double flops = 0;         // compute: per rank
  double values = 0;        // collective: n elements per group call
  Axis axis = Axis::dp;     // collective: over the dp groups (tp columns), the tp groups (replicas) or all ranks
  std::vector<int> after;   // overlap: the phases whose END this one needs (its data, or its input)
  int issued_at = -1;       // overlap, collectives: the compute phase at whose START it is issued — a prefetch
                            // (FSDP gathers the next block while this one runs); -1: issued when `after` ends
  bool is_compute() const { return kind == "compute"; }
};

struct Plan {
  Groups dp_groups;            // the tp columns {(d, t) : d}
  Groups tp_groups;            // the replicas {(d, t) : t}
  Groups all_ranks;            // one group: every rank
  std::vector<Phase> phases;   // in the order the implementation runs them (its CommLog order)
  const Groups& groups(const Phase& p) const {
    return p.axis == Axis::dp ? dp_groups : p.axis == Axis::tp ? tp_groups : all_ranks;
  }
};

// The phases of one step of any strategy but the pipelines, for a validated config.
Plan plan_step(const StepCostConfig& config);

struct Timeline {
  std::vector<double> start;  // per phase, seconds from the start of the step
  std::vector<double> end;
};

// Without overlap every phase starts when the one before it ends: the step is the sum of the phases. With overlap,
// compute phases run in order on the compute stream and collectives on the communication stream, one at a time,
// in the order they are issued; a phase starts when its stream is free and its `after` phases have ended; a
// collective is issued when its `after` phases end, or at the start of its `issued_at` phase.
Timeline time_phases(const std::vector<Phase>& phases, const std::vector<double>& seconds, bool overlap);

}  // namespace dsml::step_plan
