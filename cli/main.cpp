// main.cpp — `dsml`, the native command-line face of the core: the α–β cost model, Amdahl and Gustafson,
// the α–β fit and the message-passing simulator, each printing one line of JSON on stdout.
//
//   $ dsml cost --alpha 1e-6 --beta 1e-11 --bytes 1000
//   {"message_time_s": 1.0099999999999999e-06, "crossover_bytes": 100000, "effective_bandwidth_Bps": 990099009.9009902}
//   (every number printed with the digits that read back as the exact double)
//
// Bad input of any kind — an unknown subcommand or flag, a missing value, a value that is not a number, or
// an argument the core rejects — prints one line "dsml: error: <message>" on stderr and exits with code 2.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#include "args.h"
#include "dsml/cost_model.h"
#include "dsml/error.h"
#include "dsml/fit.h"
#include "dsml/scaling_laws.h"
#include "dsml/scenarios.h"
#include "dsml/simulator.h"
#include "dsml/topology.h"
#include "json_output.h"

namespace {

using dsml::cli::Args;
using dsml::cli::JsonObject;
using dsml::cli::UsageError;

constexpr int kUsageExitCode = 2;

const char kUsage[] = R"(dsml — distributed systems for ML, from first principles: the native tool.

Usage:
  dsml cost --alpha S (--beta S_PER_B | --bandwidth B_PER_S) --bytes N [--gamma S_PER_B]
      T(n) = alpha + beta*n, n* = alpha/beta, n/T(n)
      -> {"message_time_s", "crossover_bytes", "effective_bandwidth_Bps"}
  dsml amdahl --serial S --procs N         -> {"speedup", "limit"}      1/(s + (1-s)/N), 1/s
  dsml amdahl --speedup X --procs N        -> {"serial_fraction"}       the s that gives speed-up X
  dsml gustafson --serial S --procs N      -> {"speedup"}               N - s(N-1)
  dsml fit --bytes N1,N2,... --seconds T1,T2,...
      least-squares alpha and beta -> {"alpha_s", "beta_s_per_byte", "bandwidth_Bps", "r_squared", "points"}
  dsml simulate --scenario NAME --bytes N --alpha S (--beta S_PER_B | --bandwidth B_PER_S)
                [--ranks P] [--rounds R] [--laps L] [--compute S] [--trace]
      NAME: ping-pong | token-ring | linear-broadcast | gather-to-root | compute-then-exchange
      -> {"makespan_s", "messages", "total_bytes", "events", "finish_time_s": [...]}
      --trace prints the timestamped event log instead (the golden-trace format).
    On a topology (default: Week 1's switch, the same as fully-connected), add
                [--topology fully-connected | ring]                      (--alpha, --beta as above)
                [--topology torus2d --rows R --cols C]                   (ranks = R*C)
                [--topology hierarchical --nodes N --per-node D --intra-alpha S --intra-beta S_PER_B
                                         --inter-alpha S --inter-beta S_PER_B]  (ranks = N*D; no --alpha/--beta)
      -> adds {"topology", "links", "busiest_link": {"name", "busy_s"} (null if no link was busy)}
  dsml --help

Units: seconds, bytes, bytes per second. --ranks defaults to 2, --rounds and --laps to 1, --compute to 0.
Errors: one line "dsml: error: ..." on stderr, exit code 2.
)";

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

int cost(int argc, char** argv) {
  const Args args("cost", argc, argv, 2, {"alpha", "beta", "bandwidth", "gamma", "bytes"});
  const dsml::CostModel model = model_from(args);
  const double bytes = args.number("bytes");
  const double time = dsml::message_time(model, bytes);  // validates bytes ≥ 0
  // n/T(n) is undefined for an empty message: JSON null.
  const double bandwidth =
      bytes > 0.0 ? dsml::effective_bandwidth(model, bytes) : std::numeric_limits<double>::quiet_NaN();
  print(JsonObject()
            .add("message_time_s", time)
            .add("crossover_bytes", dsml::crossover_size(model))
            .add("effective_bandwidth_Bps", bandwidth));
  return 0;
}

int amdahl(int argc, char** argv) {
  const Args args("amdahl", argc, argv, 2, {"serial", "procs", "speedup"});
  const double procs = args.number("procs");
  if (args.has("speedup")) {
    if (args.has("serial")) throw UsageError("give --serial (to get the speed-up) or --speedup (to get s), not both");
    print(JsonObject().add("serial_fraction", dsml::amdahl_serial_fraction(args.number("speedup"), procs)));
    return 0;
  }
  const double serial = args.number("serial");
  print(JsonObject()
            .add("speedup", dsml::amdahl_speedup(serial, procs))
            .add("limit", dsml::amdahl_limit(serial)));  // ∞ (s = 0) prints as null
  return 0;
}

int gustafson(int argc, char** argv) {
  const Args args("gustafson", argc, argv, 2, {"serial", "procs"});
  print(JsonObject().add("speedup", dsml::gustafson_speedup(args.number("serial"), args.number("procs"))));
  return 0;
}

int fit(int argc, char** argv) {
  const Args args("fit", argc, argv, 2, {"bytes", "seconds"});
  const dsml::AlphaBetaFit result = dsml::fit_alpha_beta(args.numbers("bytes"), args.numbers("seconds"));
  print(JsonObject()
            .add("alpha_s", result.alpha)
            .add("beta_s_per_byte", result.beta)
            .add("bandwidth_Bps", result.beta > 0.0 ? 1.0 / result.beta : std::numeric_limits<double>::quiet_NaN())
            .add("r_squared", result.r_squared)
            .add("points", static_cast<double>(result.points)));
  return 0;
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

  const auto shape = [&](long long size, const char* how) {
    if (args.has("ranks") && args.whole("ranks") != size)
      throw UsageError("--ranks " + args.text("ranks") + " does not match " + how + " = " + std::to_string(size));
    ranks = static_cast<int>(size);
  };
  if (name == "hierarchical") {
    dsml::CostModel intra, inter;
    intra.alpha = args.number("intra-alpha");
    intra.beta = args.number("intra-beta");
    inter.alpha = args.number("inter-alpha");
    inter.beta = args.number("inter-beta");
    const int nodes = args.whole("nodes"), per_node = args.whole("per-node");
    dsml::Topology topology = dsml::Topology::hierarchical(nodes, per_node, intra, inter);
    shape(static_cast<long long>(nodes) * per_node, "--nodes × --per-node");
    return topology;
  }
  const dsml::CostModel model = model_from(args);
  if (name == "torus2d") {
    const int rows = args.whole("rows"), cols = args.whole("cols");
    dsml::Topology topology = dsml::Topology::torus2d(rows, cols, model);
    shape(static_cast<long long>(rows) * cols, "--rows × --cols");
    return topology;
  }
  ranks = args.whole_or("ranks", 2);
  return name == "ring" ? dsml::Topology::ring(ranks, model) : dsml::Topology::fully_connected(ranks, model);
}

// The event log (--trace) or one line of JSON; `links` adds the topology's link report.
int report(const Args& args, const dsml::SimResult& result, bool links) {
  if (args.has("trace")) {
    std::fputs(dsml::format_trace(result).c_str(), stdout);
    return 0;
  }
  JsonObject json;
  json.add("makespan_s", result.makespan)
      .add("messages", static_cast<double>(result.messages.size()))
      .add("total_bytes", result.total_bytes)
      .add("events", static_cast<double>(result.events))
      .add("finish_time_s", result.finish_time);
  if (links) {
    json.add_text("topology", result.topology.kind()).add("links", static_cast<double>(result.topology.links()));
    if (result.busiest_link < 0) {
      json.add_null("busiest_link");
    } else {
      json.add_object("busiest_link", JsonObject()
                                          .add_text("name", result.topology.link_name(result.busiest_link))
                                          .add("busy_s", result.link_busy[result.busiest_link]));
    }
  }
  print(json);
  return 0;
}

int simulate(int argc, char** argv) {
  std::vector<std::string> valued = {"scenario", "ranks", "bytes", "alpha",   "beta",
                                     "bandwidth", "rounds", "laps", "compute", "topology"};
  for (const std::string& flag : topology_flags("")) valued.push_back(flag);
  const Args args("simulate", argc, argv, 2, valued, {"trace"});
  if (!args.has("topology"))
    for (const std::string& flag : topology_flags(""))
      if (args.has(flag)) throw UsageError("--" + flag + " needs a --topology (see dsml --help)");

  dsml::ScenarioOptions options;
  options.ranks = args.whole_or("ranks", 2);
  options.bytes = args.number("bytes");
  options.rounds = args.whole_or("rounds", 1);
  options.laps = args.whole_or("laps", 1);
  options.compute_seconds = args.number_or("compute", 0.0);
  if (!args.has("topology")) {
    // Week 1's network, with Week 1's output: unchanged.
    const std::vector<dsml::Program> programs = dsml::make_scenario(args.text("scenario"), options);
    dsml::Network network;
    network.ranks = static_cast<int>(programs.size());
    network.model = model_from(args);
    return report(args, dsml::simulate(network, programs), false);
  }
  const dsml::Topology topology = topology_from(args, options.ranks);
  const std::vector<dsml::Program> programs = dsml::make_scenario(args.text("scenario"), options);
  return report(args, dsml::simulate(topology, programs), true);
}

int run(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::fputs(kUsage, stdout);
      return 0;
    }
  }
  if (argc < 2) throw UsageError("missing subcommand; try dsml --help");
  const std::string command = argv[1];
  if (command == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (command == "cost") return cost(argc, argv);
  if (command == "amdahl") return amdahl(argc, argv);
  if (command == "gustafson") return gustafson(argc, argv);
  if (command == "fit") return fit(argc, argv);
  if (command == "simulate") return simulate(argc, argv);
  throw UsageError("unknown subcommand '" + command +
                   "'; expected cost, amdahl, gustafson, fit or simulate (see dsml --help)");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // UsageError, dsml::Error (incl. DeadlockError), std::bad_alloc
    std::fprintf(stderr, "dsml: error: %s\n", e.what());
    return kUsageExitCode;
  }
}
