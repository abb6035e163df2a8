// collective_adapters.cpp — see collective_adapters.h.
#include "collective_adapters.h"

#include <string>

#include "collective_convert.h"
#include "convert.h"
#include "dsml/collective_cost.h"
#include "dsml/collective_executor.h"
#include "dsml/error.h"
#include "dsml/schedule.h"
#include "dsml/simulator.h"
#include "dsml/trace_replay.h"

namespace dsml::bindings {

namespace {

int whole_field(const val& obj, const char* name, int fallback, const std::string& context) {
  const double x = number_field_or(obj, name, fallback, context);
  if (x != static_cast<double>(static_cast<long long>(x)) || x < 0 || x > 1e9)
    throw Error(context + ": " + name + " must be a whole number >= 0, got " + format_number(x));
  return static_cast<int>(x);
}

// The request's topology, with `ranks` filled in, checked against the number of ranks the run needs.
Topology topology_for(const val& request, int ranks, const std::string& context) {
  const val given = request["topology"];
  if (given.isUndefined() || given.isNull()) throw Error(context + ": topology is missing");
  val topology = val::global("Object").call<val>("assign", val::object(), given);
  if (topology["ranks"].isUndefined()) topology.set("ranks", ranks);
  Topology t = to_topology(topology);
  if (t.ranks() != ranks)
    throw Error(context + ": the topology has " + std::to_string(t.ranks()) + " ranks but the run needs " +
                std::to_string(ranks));
  return t;
}

}  // namespace

val list_algorithms() {
  val out = val::array();
  for (const AlgorithmName& a : dsml::list_algorithms()) {
    val entry = val::object();
    entry.set("collective", a.collective);
    entry.set("algorithm", a.algorithm);
    out.call<void>("push", entry);
  }
  return out;
}

val schedule(const std::string& collective, const std::string& algorithm, const val& options) {
  const std::string ctx = "schedule " + collective + "/" + algorithm;
  return to_val(make_schedule(collective, algorithm, whole_field(options, "ranks", 0, ctx),
                              number_field(options, "bytes", ctx), whole_field(options, "root", 0, ctx),
                              whole_field(options, "devicesPerNode", 0, ctx)));
}

val verify_schedule(const val& schedule) {
  const VerifyResult result = verify(to_schedule(schedule));
  val out = val::object();
  out.set("ok", result.ok);
  out.set("message", result.message);
  return out;
}

double collective_cost(const std::string& collective, const std::string& algorithm, const val& options) {
  const std::string ctx = "collectiveCost " + collective + "/" + algorithm;
  const CostModel model{number_field(options, "alpha", ctx), number_field(options, "beta", ctx),
                        number_field_or(options, "gamma", 0.0, ctx)};
  return closed_form_time(collective, algorithm, whole_field(options, "ranks", 0, ctx), number_field(options, "bytes", ctx),
                          model, whole_field(options, "devicesPerNode", 0, ctx)).total();
}

double lower_bound(const std::string& collective, const val& options) {
  const std::string ctx = "lowerBound " + collective;
  const CostModel model{number_field(options, "alpha", ctx), number_field(options, "beta", ctx),
                        number_field_or(options, "gamma", 0.0, ctx)};
  return lower_bound_time(collective, whole_field(options, "ranks", 0, ctx), number_field(options, "bytes", ctx), model).total();
}

val bus_bandwidth(const std::string& collective, double ranks, double bytes, double seconds) {
  if (ranks != static_cast<double>(static_cast<long long>(ranks)) || ranks < 1)
    throw Error("busBandwidth: ranks must be a whole number >= 1, got " + format_number(ranks));
  val out = val::object();
  out.set("algbw", algbw(bytes, seconds));
  out.set("busbw", busbw(collective, static_cast<int>(ranks), bytes, seconds));
  return out;
}

val simulate_collective(const val& request) {
  const std::string ctx = "simulateCollective";
  if (request.typeOf().as<std::string>() != "object" || request.isNull()) throw Error(ctx + ": expected an object");
  const val c = request["collective"], a = request["algorithm"];
  if (c.typeOf().as<std::string>() != "string" || a.typeOf().as<std::string>() != "string")
    throw Error(ctx + ": collective and algorithm must be strings");
  const int ranks = whole_field(request, "ranks", 0, ctx);
  // The schedule is dropped as soon as it has become programs: at 1024 ranks it holds 4 M steps, and freeing it
  // before the simulator allocates lets the wasm heap reuse that memory instead of growing for it.
  std::vector<Program> programs;
  {
    const Schedule s = make_schedule(c.as<std::string>(), a.as<std::string>(), ranks,
                                     number_field(request, "bytes", ctx), whole_field(request, "root", 0, ctx),
                                     whole_field(request, "devicesPerNode", 0, ctx));
    const double gamma = number_field_or(request, "gamma", 0.0, ctx);
    require_non_negative("gamma", gamma);
    programs = to_programs(s, gamma);
  }
  const bool record = request["record"].isUndefined() || request["record"].as<bool>();
  const SimResult result = simulate(topology_for(request, ranks, ctx), programs, SimOptions{record, record});
  if (record) return sim_to_val(result);
  val out = summary_to_val(result);
  out.set("busiestLink", sim_to_val(result)["busiestLink"]);
  return out;
}

val simulate_trace(const val& request) {
  const std::string ctx = "simulateTrace";
  if (request.typeOf().as<std::string>() != "object" || request.isNull()) throw Error(ctx + ": expected an object");
  const int ranks = whole_field(request, "ranks", 0, ctx);
  return sim_to_val(simulate(topology_for(request, ranks, ctx), programs_from_trace(ranks, to_trace(request["trace"]))));
}

}  // namespace dsml::bindings
