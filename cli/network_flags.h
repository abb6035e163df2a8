// network_flags.h — the flags that describe a network, shared by `dsml simulate` and `dsml collective`:
// the α–β(–γ) model (--alpha, --beta or --bandwidth, --gamma) and --topology with its shape flags.
#pragma once

#include <string>
#include <vector>

#include "args.h"
#include "dsml/cost_model.h"
#include "dsml/topology.h"
#include "json_output.h"

namespace dsml::cli {

// α from --alpha; β from --beta (s/B) or, equivalently, --bandwidth (B/s); γ from --gamma (default 0).
dsml::CostModel model_from(const Args& args);

// The flags a --topology takes beyond the common ones; "" gives all of them.
std::vector<std::string> topology_flags(const std::string& topology);

// --topology and its flags → the network; `ranks` is --ranks (default 2) or the torus/hierarchy's shape.
dsml::Topology topology_from(const Args& args, int& ranks);

// One line of JSON on stdout.
void print(const JsonObject& json);

// `dsml collective` (collective_command.cpp).
int collective(int argc, char** argv);

}  // namespace dsml::cli
