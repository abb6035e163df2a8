// layout_3d.cpp — every (t, p, d) factorisation of a cluster for a transformer, each priced by plan_step with its
// optimizer state replicated and with ZeRO-1 (dsml/parallel_design.h). Nothing is priced here: the step, its terms,
// the memory and whether it fits are the planner's (dsml/planner.h), and so are the rules a layout must meet.
#include <vector>

#include "dsml/error.h"
#include "dsml/parallel_design.h"

namespace dsml {

std::vector<LayoutRow> price_3d_layouts(const LayoutConfig& c) {
  if (c.cluster.nodes < 1 || c.cluster.gpus_per_node < 1) throw Error("nodes and GPUs per node must be >= 1");
  planner_parameters(c.model);  // throws on a bad model before any layout is tried
  const int N = c.cluster.nodes * c.cluster.gpus_per_node;
  std::vector<LayoutRow> rows;
  for (int t = 1; t <= N; ++t) {
    if (N % t != 0) continue;
    for (int p = 1; p <= N / t; ++p) {
      if ((N / t) % p != 0 || c.model.layers % p != 0) continue;  // Week 5 prices equal stages
      PlannerLayout l;  // v = c = e = 1; no overlap: every term of the step is exposed
      l.t = t;
      l.p = p;
      l.d = N / (t * p);
      l.micro_batch = c.micro_batch;
      l.global_batch = c.global_batch;
      l.sequence_parallel = c.sequence_parallel;
      l.recomputation = c.recomputation;
      l.attention = c.attention;
      l.overlap_dp = false;
      l.zero_stage = 0;
      if (!layout_error(c.model, c.cluster, l).empty()) continue;  // t ∤ heads, t > a node, d·b ∤ B
      LayoutRow r;
      r.t = t;
      r.p = p;
      r.d = l.d;
      r.replicated = plan_step(c.model, c.cluster, l);
      l.zero_stage = 1;
      r.zero1 = plan_step(c.model, c.cluster, l);
      rows.push_back(r);
    }
  }
  return rows;
}

}  // namespace dsml
