// collective_adapters.cpp — see collective_adapters.h.
#include "collective_adapters.h"

#include <string>

#include "collective_convert.h"
#include "convert.h"
#include "dsml/collective_cost.h"
#include "dsml/collective_executor.h"
#include "dsml/error.h"
#include "dsml/lazy_schedule.h"
#include "dsml/schedule.h"
#include "dsml/simulator.h"
#include "dsml/trace_replay.h"
#include "js_object.h"

namespace dsml::bindings {

namespace {

// ranks, root, devicesPerNode: 0 when absent (make_schedule names what it needs).
int size_field(const val& obj, const char* name, const std::string& context) {
  return static_cast<int>(whole_field_or(obj, name, 0, context, 0, 1000000000));
}

// The request's topology, with `ranks` filled in, checked against the number of ranks the run needs.
Topology topology_for(const val& request, int ranks, const std::string& context) {
  const val given = request["topology"];
  if (given.isUndefined() || given.isNull()) throw Error(context + ": topology is missing");
  val topology = val::global("Object").call<val>("assign", val::object(), given);
  if (topology["ranks"].isUndefined()) topology.set("ranks", ranks);
  Topology t = to_topology(topology);
  in_context(context, [&] { check_topology_ranks(t, ranks); });
  return t;
}

}  // namespace

val list_algorithms() {
  val out = val::array();
  for (const AlgorithmName& a : dsml::list_algorithms()) {
    val entry = object_of({{"collective", a.collective}, {"algorithm", a.algorithm}});
    out.call<void>("push", entry);
  }
  return out;
}

val schedule(const std::string& collective, const std::string& algorithm, const val& options) {
  const std::string ctx = "schedule " + collective + "/" + algorithm;
  return to_val(make_schedule(collective, algorithm, size_field(options, "ranks", ctx),
                              number_field(options, "bytes", ctx), size_field(options, "root", ctx),
                              size_field(options, "devicesPerNode", ctx)));
}

val verify_schedule(const val& schedule) {
  const VerifyResult result = verify(to_schedule(schedule));
  return object_of({{"ok", result.ok}, {"message", result.message}});
}

double collective_cost(const std::string& collective, const std::string& algorithm, const val& options) {
  const std::string ctx = "collectiveCost " + collective + "/" + algorithm;
  const CostModel model = to_cost_model(options, ctx);
  return closed_form_time(collective, algorithm, size_field(options, "ranks", ctx), number_field(options, "bytes", ctx),
                          model, size_field(options, "devicesPerNode", ctx)).total();
}

double lower_bound(const std::string& collective, const val& options) {
  const std::string ctx = "lowerBound " + collective;
  const CostModel model = to_cost_model(options, ctx);
  return lower_bound_time(collective, size_field(options, "ranks", ctx), number_field(options, "bytes", ctx), model)
      .total();
}

val bus_bandwidth(const std::string& collective, double ranks, double bytes, double seconds) {
  const int p = static_cast<int>(whole_value(ranks, "busBandwidth: ranks", 1, 1000000000));
  return object_of({{"algbw", algbw(bytes, seconds)}, {"busbw", busbw(collective, p, bytes, seconds)}});
}

val simulate_collective(const val& request) {
  const std::string ctx = "simulateCollective";
  require_object(request, ctx, "{collective, algorithm, ranks, bytes, topology, …}");
  const std::string collective = text_field(request, "collective", ctx);
  const std::string algorithm = text_field(request, "algorithm", ctx);
  const int ranks = size_field(request, "ranks", ctx);
  // Made step by step as the simulator reaches each rank's next step (lazy_schedule.h): no schedule or programs
  // held in memory, so even the first call at 1024 ranks touches only a few MB of fresh wasm pages.
  const auto schedule = make_lazy_schedule(collective, algorithm, ranks, number_field(request, "bytes", ctx),
                                           size_field(request, "root", ctx), size_field(request, "devicesPerNode", ctx));
  const double gamma = gamma_field(request, ctx);  // α and β are the topology's links (topology_for)
  const bool record = flag_field_or(request, "record", true, ctx);
  const SimResult result =
      simulate_schedule(topology_for(request, ranks, ctx), *schedule, gamma, SimOptions{record, record});
  if (record) return sim_to_val(result);
  val out = summary_to_val(result);
  out.set("busiestLink", busiest_link_to_val(result.topology, result.busiest_link, result.link_busy));
  return out;
}

val simulate_trace(const val& request) {
  const std::string ctx = "simulateTrace";
  require_object(request, ctx, "{ranks, topology, trace}");
  const int ranks = size_field(request, "ranks", ctx);
  return sim_to_val(simulate(topology_for(request, ranks, ctx), programs_from_trace(ranks, to_trace(request["trace"]))));
}

}  // namespace dsml::bindings
