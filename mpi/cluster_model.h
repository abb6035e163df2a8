// cluster_model.h — the α–β–γ model a collective's time is predicted with: given on the command line
// (--alpha with --beta or --bandwidth, --gamma), or measured on this cluster — α, β by the course's ping-pong
// between rank 0 and --peer, γ by timing a float32 reduction (ping_pong.h).
#pragma once

#include <string>
#include <vector>

#include "args.h"
#include "dsml/cost_model.h"
#include "world.h"

namespace dsml::mpi {

struct ModelChoice {
  bool given = false;        // --alpha and --beta/--bandwidth on the command line
  CostModel model;           // when given (γ from --gamma, default 0)
  bool gamma_given = false;  // --gamma on the command line
  double gamma = 0;
  int peer = 1;              // ping-pong partner of rank 0
  int repeats = 20;          // round trips per size
};

// The flags this adds to a command.
std::vector<std::string> model_flag_names();

// Reads and checks the flags; no communication.
ModelChoice model_choice(const cli::Args& args, const World& world);

struct ClusterModel {
  CostModel model;
  std::string source;      // "given", or "ping-pong rank 0 <-> rank 1"
  double r_squared = 0;    // of the ping-pong fit (NaN when given)
  double alpha_fitted = 0; // the fit's intercept before clamping at 0 (ping_pong.h)
};

// Collective over world.comm: measures what is not given.
ClusterModel cluster_model(const ModelChoice& choice, const World& world);

// {"alpha_s", "beta_s_per_byte", "gamma_s_per_byte", "source", "r_squared"}
std::string model_json(const ClusterModel& model);

}  // namespace dsml::mpi
