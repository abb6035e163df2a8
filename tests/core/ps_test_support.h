// ps_test_support.h — what the parameter-server tests that check closed forms share.
#pragma once

#include "dsml/topology.h"

// A network that costs nothing measurable (α = 0, β = 1e-30 s/B): round times are compute alone.
inline dsml::Topology free_network(int ranks) {
  return dsml::Topology::fully_connected(ranks, dsml::CostModel{0.0, 1e-30, 0.0});
}
