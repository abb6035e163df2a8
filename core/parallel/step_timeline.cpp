// step_timeline.cpp — when each phase of a step runs, without and with overlap of compute and communication.
//
// Without overlap (bulk-synchronous): every phase starts when the one before it ends; the step is their sum.
// With overlap (what DDP's bucketed all-reduces during backward, FSDP's prefetch and Megatron's dependencies look
// like on a GPU with a compute stream and a communication stream, Li et al. 2020 §3.2.3, Zhao et al. 2023 §4):
//   compute stream   the compute phases, in order; one waits for the collectives it needs (a gathered block,
//                    a TP all-reduce's result)
//   comm stream      the collectives, one at a time, in the order they are issued — a collective is issued when
//                    the phases it needs have ended (its bucket's gradients), or at the start of the compute
//                    phase it prefetches for — and each starts when the stream is free
// A discrete-event walk: at each step take whichever stream can start its next phase earliest. Ties go to the
// compute stream, so a prefetch issued at that instant queues behind collectives issued before it.
#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "dsml/error.h"
#include "parallel/step_plan.h"

namespace dsml::step_plan {

namespace {

constexpr double kUnknown = -1;

// The time a phase may start as far as its dependencies go (they must all be placed).
double ready_time(const Phase& phase, const Timeline& t) {
  double ready = 0;
  for (int dep : phase.after) ready = std::max(ready, t.end[static_cast<std::size_t>(dep)]);
  if (phase.issued_at >= 0) ready = std::max(ready, t.start[static_cast<std::size_t>(phase.issued_at)]);
  return ready;
}

}  // namespace

Timeline time_phases(const std::vector<Phase>& phases, const std::vector<double>& seconds, bool overlap) {
  const std::size_t n = phases.size();
  Timeline t{std::vector<double>(n, kUnknown), std::vector<double>(n, kUnknown)};
  if (!overlap) {
    double now = 0;
    for (std::size_t i = 0; i < n; ++i) {
      t.start[i] = now;
      t.end[i] = now += seconds[i];
    }
    return t;
  }
  // Who waits for whom, so that a collective enters the issued queue the moment its last dependency is placed.
  std::vector<std::vector<std::size_t>> dependents(n);
  std::vector<int> waiting(n, 0);  // dependencies not yet placed
  std::vector<std::size_t> compute;  // the compute stream's queue, in order
  using Issued = std::pair<double, std::size_t>;  // (issue time, plan index): the comm stream's order
  std::priority_queue<Issued, std::vector<Issued>, std::greater<Issued>> issued;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<int> deps = phases[i].after;
    if (phases[i].issued_at >= 0) deps.push_back(phases[i].issued_at);
    for (int dep : deps) dependents[static_cast<std::size_t>(dep)].push_back(i);
    waiting[i] = static_cast<int>(deps.size());
    if (phases[i].is_compute()) compute.push_back(i);
    else if (deps.empty()) issued.emplace(0.0, i);
  }
  std::size_t next_compute = 0;
  double compute_free = 0, comm_free = 0;
  for (std::size_t done = 0; done < n; ++done) {
    constexpr double kNever = std::numeric_limits<double>::infinity();
    // The compute stream's candidate: its next phase, once what it needs has been placed.
    double compute_at = kNever;
    const std::size_t c = next_compute < compute.size() ? compute[next_compute] : n;
    if (c < n && waiting[c] == 0) compute_at = std::max(compute_free, ready_time(phases[c], t));
    // The comm stream's candidate: the earliest-issued collective not yet run.
    const double comm_at = issued.empty() ? kNever : std::max(comm_free, issued.top().first);
    if (compute_at == kNever && comm_at == kNever)
      throw Error("step plan: no phase can start (a dependency cycle in the plan)");
    const bool on_compute = compute_at <= comm_at;
    const std::size_t i = on_compute ? c : issued.top().second;
    if (!on_compute) issued.pop();
    t.start[i] = on_compute ? compute_at : comm_at;
    t.end[i] = t.start[i] + seconds[i];
    if (on_compute) compute_free = t.end[i], ++next_compute;
    else comm_free = t.end[i];
    for (std::size_t d : dependents[i])
      if (--waiting[d] == 0 && !phases[d].is_compute()) issued.emplace(ready_time(phases[d], t), d);
  }
  return t;
}

}  // namespace dsml::step_plan
