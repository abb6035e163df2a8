// collective_convert.cpp — see collective_convert.h.
#include "collective_convert.h"

#include <limits>
#include <string>

#include "convert.h"
#include "dsml/error.h"
#include "js_object.h"

namespace dsml::bindings {

namespace {

const char* op_name(ScheduleStep::Kind kind) {
  switch (kind) {
    case ScheduleStep::Kind::kSend: return "send";
    case ScheduleStep::Kind::kRecvCopy: return "recv-copy";
    case ScheduleStep::Kind::kRecvReduce: return "recv-reduce";
  }
  return "send";
}

bool is_array(const val& v) { return val::global("Array").call<bool>("isArray", v); }

// A whole number in ±1e9: ranks, peers, roots, shapes. Out-of-range peers are the verifier's to report.
int int_field(const val& obj, const char* name, const std::string& context) {
  return static_cast<int>(whole_field(obj, name, context, -1000000000, 1000000000));
}

}  // namespace

val to_val(const Schedule& schedule) {
  val out = object_of({{"collective", schedule.collective}, {"algorithm", schedule.algorithm},
                       {"ranks", schedule.ranks}, {"root", schedule.root}});
  val slot_bytes = val::array(), owner = val::array(), steps = val::array();
  for (double b : schedule.slot_bytes) slot_bytes.call<void>("push", b);
  for (int o : schedule.owner) owner.call<void>("push", o);
  for (const auto& rank_steps : schedule.steps) {
    val list = val::array();
    for (const ScheduleStep& s : rank_steps) {
      val step = val::object(), slots = val::array();
      for (int slot : s.slots) slots.call<void>("push", slot);
      step.set("op", op_name(s.kind));
      step.set("peer", s.peer);
      step.set("slots", slots);
      list.call<void>("push", step);
    }
    steps.call<void>("push", list);
  }
  out.set("slotBytes", slot_bytes);
  out.set("owner", owner);
  out.set("steps", steps);
  return out;
}

Schedule to_schedule(const val& v) {
  const std::string ctx = "schedule";
  if (!is_object(v)) throw Error("schedule must be an object");
  Schedule s;
  s.collective = text_field(v, "collective", ctx);
  s.algorithm = v["algorithm"].isUndefined() ? "custom" : text_field(v, "algorithm", ctx);
  s.ranks = int_field(v, "ranks", ctx);
  s.root = v["root"].isUndefined() ? 0 : int_field(v, "root", ctx);
  s.slot_bytes = to_doubles(v["slotBytes"], "schedule.slotBytes");
  if (!v["owner"].isUndefined())
    for (double o : to_doubles(v["owner"], "schedule.owner")) s.owner.push_back(static_cast<int>(o));
  const val steps = v["steps"];
  if (!is_array(steps)) throw Error("schedule.steps must be an array with one list of steps per rank");
  const unsigned ranks = steps["length"].as<unsigned>();
  s.steps.resize(ranks);
  for (unsigned r = 0; r < ranks; ++r) {
    const val list = steps[r];
    const std::string where = "schedule.steps[" + std::to_string(r) + "]";
    if (!is_array(list)) throw Error(where + " must be an array of steps");
    const unsigned n = list["length"].as<unsigned>();
    for (unsigned i = 0; i < n; ++i) {
      const val step = list[i];
      const std::string at = where + "[" + std::to_string(i) + "]";
      const std::string op = text_field(step, "op", at);
      ScheduleStep out;
      if (op == "send") out.kind = ScheduleStep::Kind::kSend;
      else if (op == "recv-copy") out.kind = ScheduleStep::Kind::kRecvCopy;
      else if (op == "recv-reduce") out.kind = ScheduleStep::Kind::kRecvReduce;
      else throw Error(at + ": op must be \"send\", \"recv-copy\" or \"recv-reduce\"");
      out.peer = int_field(step, "peer", at);
      for (double slot : to_doubles(step["slots"], (at + ".slots").c_str())) out.slots.push_back(static_cast<int>(slot));
      s.steps[r].push_back(std::move(out));
    }
  }
  return s;
}

Topology to_topology(const val& t) {
  const std::string ctx = "topology";
  if (!is_object(t))
    throw Error("topology must be an object like {kind: \"ring\", alpha: 1e-6, beta: 1e-10}");
  const std::string kind = text_field(t, "kind", ctx);
  if (kind == "fully-connected") return Topology::fully_connected(int_field(t, "ranks", ctx), to_cost_model(t, ctx));
  if (kind == "ring") return Topology::ring(int_field(t, "ranks", ctx), to_cost_model(t, ctx));
  if (kind == "torus2d") return Topology::torus2d(int_field(t, "rows", ctx), int_field(t, "cols", ctx), to_cost_model(t, ctx));
  if (kind == "hierarchical")
    return Topology::hierarchical(int_field(t, "nodes", ctx), int_field(t, "perNode", ctx),
                                  to_cost_model(t["intra"], "topology.intra"), to_cost_model(t["inter"], "topology.inter"));
  throw Error("topology.kind must be \"fully-connected\", \"ring\", \"torus2d\" or \"hierarchical\", got \"" + kind + "\"");
}

std::vector<TraceRecord> to_trace(const val& trace) {
  if (!is_array(trace)) throw Error("trace must be an array of {src, dst, bytes, sendTime, recvTime}");
  const unsigned n = trace["length"].as<unsigned>();
  std::vector<TraceRecord> out(n);
  for (unsigned i = 0; i < n; ++i) {
    const val m = trace[i];
    const std::string at = "trace[" + std::to_string(i) + "]";
    out[i].src = int_field(m, "src", at);
    out[i].dst = int_field(m, "dst", at);
    out[i].bytes = number_field(m, "bytes", at);
    out[i].send_time = number_field(m, "sendTime", at);
    const val recv = m["recvTime"];
    out[i].recv_time = recv.isNull() || recv.isUndefined() ? std::numeric_limits<double>::quiet_NaN()
                                                           : number_field(m, "recvTime", at);
  }
  return out;
}

val sim_to_val(const SimResult& result) {
  val out = to_val(result);
  val busy = val::array();
  for (std::size_t i = 0; i < result.link_busy.size(); ++i) {
    val link = object_of({{"name", result.topology.link_name(static_cast<int>(i))}, {"busy", result.link_busy[i]}});
    busy.call<void>("push", link);
  }
  out.set("linkBusy", busy);
  out.set("busiestLink", busiest_link_to_val(result.topology, result.busiest_link, result.link_busy));
  return out;
}

}  // namespace dsml::bindings
