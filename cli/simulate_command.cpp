// simulate_command.cpp — `dsml simulate` (usage in main.cpp): one of Week 1's message-passing scenarios
// (dsml/scenarios.h) run on the discrete-event simulator, on Week 1's switch or on a --topology, printed as one line
// of JSON or, with --trace, as the timestamped event log of the golden traces.
//
//   $ dsml simulate --scenario ping-pong --bytes 1000 --alpha 1e-6 --beta 1e-9 --trace
#include <cstdio>
#include <string>
#include <vector>

#include "args.h"
#include "dsml/scenarios.h"
#include "dsml/simulator.h"
#include "dsml/topology.h"
#include "foundations_commands.h"
#include "json_output.h"
#include "network_flags.h"

namespace dsml::cli {

namespace {

// The event log (--trace) or one line of JSON; `links` adds the topology's link report.
int report(const Args& args, const SimResult& result, bool links) {
  if (args.has("trace")) {
    std::fputs(format_trace(result).c_str(), stdout);
    return 0;
  }
  JsonObject json;
  json.add("makespan_s", result.makespan)
      .add("messages", static_cast<double>(result.message_count))
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

}  // namespace

int simulate(int argc, char** argv) {
  std::vector<std::string> valued = {"scenario", "ranks", "bytes", "alpha",   "beta",
                                     "bandwidth", "rounds", "laps", "compute", "topology"};
  for (const std::string& flag : topology_flags("")) valued.push_back(flag);
  const Args args("simulate", argc, argv, 2, valued, {"trace"});
  if (!args.has("topology"))
    for (const std::string& flag : topology_flags(""))
      if (args.has(flag)) throw UsageError("--" + flag + " needs a --topology (see dsml --help)");

  ScenarioOptions options;
  options.ranks = args.whole_or("ranks", 2);
  options.bytes = args.number("bytes");
  options.rounds = args.whole_or("rounds", 1);
  options.laps = args.whole_or("laps", 1);
  options.compute_seconds = args.number_or("compute", 0.0);
  const bool trace = args.has("trace");  // every message and span kept only for the event log
  if (!args.has("topology")) {
    // Week 1's network, with Week 1's output: unchanged.
    const std::vector<Program> programs = make_scenario(args.text("scenario"), options);
    Network network;
    network.ranks = static_cast<int>(programs.size());
    network.model = model_from(args);
    return report(args, simulate(network, programs, SimOptions{trace, trace}), false);
  }
  const Topology topology = topology_from(args, options.ranks);
  const std::vector<Program> programs = make_scenario(args.text("scenario"), options);
  return report(args, simulate(topology, programs, SimOptions{trace, trace}), true);
}

}  // namespace dsml::cli
