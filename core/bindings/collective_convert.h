// collective_convert.h — JS ⇄ core conversions for schedules, topologies and traces (Embind layer only).
#pragma once

#include <emscripten/val.h>

#include <vector>

#include "dsml/schedule.h"
#include "dsml/simulator.h"
#include "dsml/topology.h"
#include "dsml/trace_replay.h"

namespace dsml::bindings {

using emscripten::val;

val to_val(const Schedule& schedule);
Schedule to_schedule(const val& schedule);
// {kind: "fully-connected"|"ring", alpha, beta} | {kind: "torus2d", rows, cols, alpha, beta}
// | {kind: "hierarchical", nodes, perNode, intra: {alpha, beta}, inter: {alpha, beta}}
Topology to_topology(const val& topology);
std::vector<TraceRecord> to_trace(const val& trace);
// A SimResult as JS sees it (convert.h) plus linkBusy [{name, busy}] and busiestLink {name, busy} | null.
val sim_to_val(const SimResult& result);

}  // namespace dsml::bindings
