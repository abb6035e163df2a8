// dsml/pipelined_broadcast.h — one pipelined broadcast three ways at once, for a lesson's k slider: its schedule
// checked on buffers (collective_executor.h), timed by the simulator on the single-port switch (simulator.h), and
// its closed form T(k) = (a·k + c)(α + nβ/k) with the best k (collective_cost.h). The schedules are
// broadcast_pipelined_chain.cpp and broadcast_pipelined_tree.cpp.
#pragma once

#include <string>

#include "dsml/collective_cost.h"
#include "dsml/cost_model.h"

namespace dsml {

struct PipelinedBroadcastReport {
  int segments = 1;             // k as run (the request's, or p when it asked for 0)
  PipelineShape shape;          // a and c of T(k)
  CostTerms closed_form;        // T(k), s
  double simulated_s = 0.0;     // the schedule's makespan in the simulator, s
  double messages = 0.0;        // messages the simulation moved: k·(p − 1)
  bool verified = false;        // every rank ended with the root's segments (verify(), one element a segment)
  std::string verify_message;   // the executor's summary, or the first wrong rank and slot
  BestSegments best;            // the k that minimises T(k) on this model
};

// algorithm: "pipelined-chain" or "pipelined-tree"; segments 0 means p (make_schedule). Throws dsml::Error on bad
// arguments (make_schedule's and validate(model)'s messages).
PipelinedBroadcastReport run_pipelined_broadcast(const std::string& algorithm, int ranks, double bytes, int segments,
                                                 int root, const CostModel& model);

}  // namespace dsml
