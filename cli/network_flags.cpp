// network_flags.cpp — see network_flags.h.
#include "network_flags.h"

#include <algorithm>
#include <cstdio>

#include "dsml/error.h"

namespace dsml::cli {

void print(const JsonObject& json) { std::printf("%s\n", json.str().c_str()); }

// α from --alpha; β from --beta (s/B) or, equivalently, --bandwidth (B/s).
dsml::CostModel model_from(const Args& args) {
  const double alpha = args.number("alpha");
  const double gamma = args.number_or("gamma", 0.0);
  if (args.has("beta") == args.has("bandwidth"))
    throw UsageError("give exactly one of --beta (seconds per byte) and --bandwidth (bytes per second)");
  if (args.has("bandwidth")) return dsml::CostModel::from_bandwidth(alpha, args.number("bandwidth"), gamma);
  dsml::CostModel model;
  model.alpha = alpha;
  model.beta = args.number("beta");
  model.gamma = gamma;
  dsml::validate(model);
  return model;
}

// The flags a --topology takes beyond the common ones; "" gives all of them. Any other is a mistake worth naming.
std::vector<std::string> topology_flags(const std::string& topology) {
  const std::vector<std::string> torus = {"rows", "cols"};
  const std::vector<std::string> nodes = {"nodes", "per-node", "intra-alpha", "intra-beta", "inter-alpha", "inter-beta"};
  if (topology == "torus2d") return torus;
  if (topology == "hierarchical") return nodes;
  if (!topology.empty()) return {};
  std::vector<std::string> all = torus;
  all.insert(all.end(), nodes.begin(), nodes.end());
  return all;
}

// --topology and its flags → the network; `ranks` is --ranks (default 2) or the torus/hierarchy's shape.
dsml::Topology topology_from(const Args& args, int& ranks) {
  const std::string name = args.text("topology");
  if (name != "fully-connected" && name != "ring" && name != "torus2d" && name != "hierarchical")
    throw UsageError("unknown topology '" + name + "'; expected fully-connected, ring, torus2d or hierarchical");
  const std::vector<std::string> own = topology_flags(name);
  for (const std::string& flag : topology_flags(""))
    if (args.has(flag) && std::find(own.begin(), own.end(), flag) == own.end())
      throw UsageError("--" + flag + " does not apply to --topology " + name);
  if (name == "hierarchical" && (args.has("alpha") || args.has("beta") || args.has("bandwidth")))
    throw UsageError("--topology hierarchical takes --intra-alpha/--intra-beta and --inter-alpha/--inter-beta, "
                     "not --alpha/--beta/--bandwidth");

  // A torus or a cluster has its own rank count; a --ranks given beside it must be that count.
  const auto shape = [&](const dsml::Topology& topology, const char* how) {
    if (args.has("ranks")) {
      try {
        dsml::check_topology_ranks(topology, args.whole("ranks"));
      } catch (const dsml::Error& e) {
        throw UsageError("--ranks " + args.text("ranks") + " and " + how + ": " + e.what());
      }
    }
    ranks = topology.ranks();
  };
  if (name == "hierarchical") {
    dsml::CostModel intra, inter;
    intra.alpha = args.number("intra-alpha");
    intra.beta = args.number("intra-beta");
    inter.alpha = args.number("inter-alpha");
    inter.beta = args.number("inter-beta");
    const int nodes = args.whole("nodes"), per_node = args.whole("per-node");
    dsml::Topology topology = dsml::Topology::hierarchical(nodes, per_node, intra, inter);
    shape(topology, "--nodes × --per-node");
    return topology;
  }
  const dsml::CostModel model = model_from(args);
  if (name == "torus2d") {
    const int rows = args.whole("rows"), cols = args.whole("cols");
    dsml::Topology topology = dsml::Topology::torus2d(rows, cols, model);
    shape(topology, "--rows × --cols");
    return topology;
  }
  ranks = args.whole_or("ranks", 2);
  return name == "ring" ? dsml::Topology::ring(ranks, model) : dsml::Topology::fully_connected(ranks, model);
}

}  // namespace dsml::cli
