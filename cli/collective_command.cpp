// collective_command.cpp — `dsml collective`: one collective algorithm, three ways at once —
// its closed-form α–β–γ time (Thakur, Rabenseifner & Gropp 2005), the lower bound (Chan et al. 2007), and the
// simulated time of its schedule on a network (default: the switch of --alpha/--beta; or any --topology).
//
//   $ dsml collective --collective all-reduce --algorithm ring --ranks 8 --bytes 1e9 --alpha 5e-6 --bandwidth 25e9
//   {"collective": "all-reduce", "algorithm": "ring", "ranks": 8, "bytes": 1000000000, "closed_form_s": 0.07007, …}
//
// At the planner's scale (bench/collective_16k.sh): 16,384 ranks, ring or hierarchical (8 GPUs a node), natively
//   $ dsml collective --collective all-reduce --algorithm hierarchical --devices-per-node 8 --ranks 16384 \
//       --bytes 1073741824 --alpha 5e-6 --bandwidth 25e9
//   $ dsml collective --collective all-reduce --algorithm hierarchical --topology hierarchical --nodes 2048 \
//       --per-node 8 --intra-alpha 5e-6 --intra-beta 3.33e-12 --inter-alpha 5e-6 --inter-beta 5e-12
//
// The pipelined broadcasts (pipelined-chain, pipelined-tree) take --segments K (default p) and also print the
// best K for the network's α and β and its time (best_segments in collective_cost.h).
#include <limits>
#include <string>
#include <vector>

#include "args.h"
#include "dsml/collective_cost.h"
#include "dsml/lazy_schedule.h"
#include "dsml/schedule.h"
#include "dsml/simulator.h"
#include "json_output.h"
#include "network_flags.h"

namespace dsml::cli {

namespace {

int list() {
  std::string out = "[";
  for (const AlgorithmName& a : list_algorithms()) {
    if (out.size() > 1) out += ", ";
    out += JsonObject().add_text("collective", a.collective).add_text("algorithm", a.algorithm).str();
  }
  std::printf("%s]\n", out.c_str());
  return 0;
}

}  // namespace

int collective(int argc, char** argv) {
  std::vector<std::string> valued = {"collective", "algorithm", "ranks", "bytes", "alpha", "beta", "bandwidth",
                                     "gamma", "root", "devices-per-node", "topology", "segments"};
  for (const std::string& flag : topology_flags("")) valued.push_back(flag);
  const Args args("collective", argc, argv, 2, valued, {"list"});
  if (args.has("list")) return list();

  const std::string name = args.text("collective"), algorithm = args.text("algorithm");
  const double bytes = args.number("bytes");
  const double gamma = args.number_or("gamma", 0.0);
  int ranks = args.whole_or("ranks", 2);
  // The network: a --topology, or the switch every closed form assumes.
  const bool hierarchical = args.has("topology") && args.text("topology") == "hierarchical";
  const Topology topology = args.has("topology") ? topology_from(args, ranks)
                                                 : Topology::fully_connected(ranks, model_from(args));
  // On a two-level cluster the hierarchical all-reduce groups ranks as the cluster does, unless told otherwise.
  const int devices = args.whole_or("devices-per-node", hierarchical ? args.whole_or("per-node", 0) : 0);
  // Made step by step as the simulator reaches each rank's next step (lazy_schedule.h): memory O(p + messages in
  // flight), so the ring family and the hierarchical all-reduce run up to kMaxRanksLazy (16,384) ranks.
  const int segments = args.whole_or("segments", 0);
  const bool pipelined = algorithm.rfind("pipelined-", 0) == 0;
  if (args.has("segments") && !pipelined)
    throw UsageError("--segments is for the pipelined broadcasts (pipelined-chain, pipelined-tree), not " + algorithm);
  if (args.has("segments") && segments < 1)  // 0 is the library's "p segments"; on the command line, leave it out
    throw UsageError("--segments takes k >= 1 segments, got " + args.text("segments") + " (leave it out for k = p)");
  const auto schedule = make_lazy_schedule(name, algorithm, ranks, bytes, args.whole_or("root", 0), devices, segments);
  const SimResult sim = simulate_schedule(topology, *schedule, gamma, SimOptions{false, false});

  JsonObject json;
  json.add_text("collective", name).add_text("algorithm", algorithm)
      .add("ranks", static_cast<double>(ranks)).add("bytes", bytes).add_text("topology", topology.kind());
  if (hierarchical) {  // two link speeds: a closed form only for the algorithm built for them, no lower bound
    const int nodes = args.whole("nodes"), per_node = args.whole("per-node");
    if (name == "all-reduce" && algorithm == "hierarchical" && devices == per_node) {
      const CostModel intra{args.number("intra-alpha"), args.number("intra-beta"), gamma};
      const CostModel inter{args.number("inter-alpha"), args.number("inter-beta"), 0.0};
      json.add("closed_form_s", hierarchical_allreduce_two_level(nodes, per_node, bytes, intra, inter).total());
    } else {
      json.add_null("closed_form_s");
    }
    json.add_null("lower_bound_s");
  } else {
    CostModel model = model_from(args);
    json.add("closed_form_s", closed_form_time(name, algorithm, ranks, bytes, model, devices, segments).total())
        .add("lower_bound_s", lower_bound_time(name, ranks, bytes, model).total());
    if (pipelined) {
      const BestSegments best = best_segments(algorithm, ranks, bytes, model);
      json.add("segments", static_cast<double>(schedule->header().slot_bytes.size()))
          .add("best_segments", static_cast<double>(best.segments)).add("best_segments_s", best.seconds);
    }
  }
  // Every send step posts one message; whole bytes, so the sum is exact in any order (below 2^53 B).
  json.add("simulated_s", sim.makespan).add("messages", static_cast<double>(sim.message_count))
      .add("bytes_moved", sim.total_bytes)
      .add("algbw_Bps", sim.makespan > 0 ? algbw(bytes, sim.makespan) : std::numeric_limits<double>::quiet_NaN())
      .add("busbw_Bps", sim.makespan > 0 ? busbw(name, ranks, bytes, sim.makespan) : std::numeric_limits<double>::quiet_NaN());
  if (sim.busiest_link < 0) {
    json.add_null("busiest_link");
  } else {
    json.add_object("busiest_link", JsonObject()
                                        .add_text("name", topology.link_name(sim.busiest_link))
                                        .add("busy_s", sim.link_busy[static_cast<std::size_t>(sim.busiest_link)]));
  }
  print(json);
  return 0;
}

}  // namespace dsml::cli
