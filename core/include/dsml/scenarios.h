// dsml/scenarios.h — small message-passing programs for Week 1, as simulator input.
//
// Each returns one Program per rank. The closed forms below hold on dsml::simulate's
// single-port network with every link at α, β (T(n) = α + β·n):
//   ping_pong(rounds, n):         2 ranks; rank 0 sends n B, rank 1 echoes it back; 2·rounds·T(n)
//   token_ring(p, n, laps):       rank 0 → 1 → … → p−1 → 0, `laps` times; laps·p·T(n)  (p ≥ 2)
//   linear_broadcast(p, n):       rank 0 sends n B to 1, 2, …, p−1 in turn; (p−1)·T(n)
//   gather_to_root(p, n):         every rank sends n B to rank 0 at once; its downlink serialises them: (p−1)·T(n)
//   compute_then_exchange(p, n, compute_s):  every rank computes for compute_s, then sends n B to its right
//                                 neighbour and receives from its left (one BSP superstep): compute_s + T(n)
#pragma once

#include <string>
#include <vector>

#include "dsml/simulator.h"

namespace dsml {

std::vector<Program> ping_pong(int rounds, double bytes);
std::vector<Program> token_ring(int ranks, double bytes, int laps = 1);
std::vector<Program> linear_broadcast(int ranks, double bytes);
std::vector<Program> gather_to_root(int ranks, double bytes);
std::vector<Program> compute_then_exchange(int ranks, double bytes, double compute_seconds);

// The same scenarios by name, for the CLI and the golden-trace tests.
// name: "ping-pong" (options.ranks must be 2), "token-ring", "linear-broadcast", "gather-to-root",
// "compute-then-exchange". Throws Error naming the valid choices on an unknown name.
struct ScenarioOptions {
  int ranks = 2;
  double bytes = 0.0;            // B per message
  int rounds = 1;                // ping-pong
  int laps = 1;                  // token-ring
  double compute_seconds = 0.0;  // compute-then-exchange
};
std::vector<Program> make_scenario(const std::string& name, const ScenarioOptions& options);
std::vector<std::string> scenario_names();

// The named scenario simulated on Week 1's network: every rank its own port, every link at `link`'s α and β
// (Topology::fully_connected). Throws as make_scenario and validate(CostModel).
SimResult simulate_scenario(const std::string& name, const ScenarioOptions& options, const CostModel& link,
                            const SimOptions& sim = {});

}  // namespace dsml
