// test_planner_support.h — what the planner's tests share: the cluster they plan on.
#pragma once

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

}  // namespace dsml::planner_test
