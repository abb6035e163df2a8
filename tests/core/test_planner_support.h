// test_planner_support.h — what the planner's tests share: the cluster they plan on.
#pragma once

#include <string>

#include "dsml/error.h"
#include "dsml/planner.h"

namespace dsml::planner_test {

// `nodes` DGX A100 nodes: 8 A100-80GB each (the cluster of Narayanan et al. 2021).
inline ClusterSpec a100(int nodes) {
  ClusterSpec c;
  c.gpu = gpu_preset("a100-80gb");
  c.nodes = nodes;
  c.gpus_per_node = 8;
  return c;
}

// The sentence plan_step throws for this layout, or "" when it prices it.
inline std::string plan_error(const PlannerModel& m, const ClusterSpec& c, const PlannerLayout& l) {
  try {
    plan_step(m, c, l);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace dsml::planner_test
