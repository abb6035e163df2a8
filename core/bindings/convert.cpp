// convert.cpp — JS ⇄ core conversions (see convert.h). Validation messages name the field and the rank/step
// so a learner who builds a scenario by hand can find the mistake.
#include "convert.h"

#include "dsml/error.h"
#include "js_object.h"

namespace dsml::bindings {

namespace {

bool is_number(const val& v) { return v.typeOf().as<std::string>() == "number"; }

constexpr std::int64_t kMaxRank = 1 << 30;

const char* span_kind_name(Span::Kind kind) {
  switch (kind) {
    case Span::Kind::kCompute: return "compute";
    case Span::Kind::kSend: return "send";
    case Span::Kind::kWait: return "wait";
  }
  return "compute";
}

Step to_step(const val& step, const std::string& where) {
  if (!is_object(step)) throw Error(where + " must be an object like {op: \"send\", to: 1, bytes: 1024}");
  const val op = step["op"];
  const std::string name = op.typeOf().as<std::string>() == "string" ? op.as<std::string>() : "";
  const int tag = static_cast<int>(whole_field_or(step, "tag", 0, where, -kMaxRank, kMaxRank));
  if (name == "send") {
    const int to = static_cast<int>(whole_field(step, "to", where, -kMaxRank, kMaxRank));
    return Step::send(to, number_field(step, "bytes", where), tag);
  }
  if (name == "recv") return Step::recv(static_cast<int>(whole_field(step, "from", where, -kMaxRank, kMaxRank)), tag);
  if (name == "compute") return Step::compute(number_field(step, "seconds", where));
  throw Error(where + ": op must be \"send\", \"recv\" or \"compute\"");
}

}  // namespace

[[noreturn]] void throw_js_error(const std::string& message) {
  val error = val::global("Error").new_(message);
  error.set("name", val("DsmlError"));
  error.throw_();
}

std::vector<double> to_doubles(const val& array, const char* name) {
  const bool ok = val::global("Array").call<bool>("isArray", array) ||
                  val::global("ArrayBuffer").call<bool>("isView", array);
  if (!ok)
    throw Error(std::string(name) + " must be an array of numbers");
  const unsigned n = array["length"].as<unsigned>();
  std::vector<double> out(n);
  for (unsigned i = 0; i < n; ++i) {
    const val v = array[i];
    if (!is_number(v)) throw Error(std::string(name) + "[" + std::to_string(i) + "] must be a number");
    out[i] = v.as<double>();
  }
  return out;
}

Network to_network(const val& scenario) {
  require_object(scenario, "simulate", "{ranks, alpha, beta, programs}");
  Network network;
  network.ranks = static_cast<int>(whole_field(scenario, "ranks", "simulate", 1, kMaxRank));
  network.model = to_cost_model(scenario, "simulate");
  return network;
}

std::vector<Program> to_programs(const val& programs, int ranks) {
  if (!val::global("Array").call<bool>("isArray", programs))
    throw Error("simulate: programs must be an array with one list of steps per rank");
  const unsigned n = programs["length"].as<unsigned>();
  if (static_cast<int>(n) != ranks)
    throw Error("simulate: programs has " + std::to_string(n) + " entries but ranks is " + std::to_string(ranks));
  std::vector<Program> out(n);
  for (unsigned r = 0; r < n; ++r) {
    const val steps = programs[r];
    const std::string where = "simulate: programs[" + std::to_string(r) + "]";
    if (!val::global("Array").call<bool>("isArray", steps)) throw Error(where + " must be an array of steps");
    const unsigned m = steps["length"].as<unsigned>();
    out[r].reserve(m);
    for (unsigned i = 0; i < m; ++i) out[r].push_back(to_step(steps[i], where + "[" + std::to_string(i) + "]"));
  }
  return out;
}

val to_val(const std::vector<Program>& programs) {
  val out = val::array();
  for (const Program& program : programs) {
    val steps = val::array();
    for (const Step& s : program) {
      val step = val::object();
      switch (s.kind) {
        case Step::Kind::kSend:
          step.set("op", "send"); step.set("to", s.peer); step.set("bytes", s.bytes); break;
        case Step::Kind::kRecv:
          step.set("op", "recv"); step.set("from", s.peer); break;
        case Step::Kind::kCompute:
          step.set("op", "compute"); step.set("seconds", s.seconds); break;
      }
      if (s.kind != Step::Kind::kCompute && s.tag != 0) step.set("tag", s.tag);
      steps.call<void>("push", step);
    }
    out.call<void>("push", steps);
  }
  return out;
}

val to_val(const SimResult& result) {
  val out = object_of({{"makespan", result.makespan}, {"totalBytes", result.total_bytes},
                       {"events", static_cast<double>(result.events)}});
  val finish = val::array();
  for (double t : result.finish_time) finish.call<void>("push", t);
  out.set("finishTimes", finish);
  val spans = val::array();
  for (const Span& s : result.spans) {
    val span = val::object();
    span.set("rank", s.rank); span.set("kind", span_kind_name(s.kind));
    span.set("start", s.start); span.set("end", s.end);
    span.set("peer", s.peer); span.set("bytes", s.bytes);
    spans.call<void>("push", span);
  }
  out.set("spans", spans);
  val messages = val::array();
  for (const MessageRecord& m : result.messages) {
    val msg = val::object();
    msg.set("src", m.src); msg.set("dst", m.dst); msg.set("tag", m.tag); msg.set("bytes", m.bytes);
    msg.set("posted", m.posted); msg.set("started", m.started);
    msg.set("arrived", m.arrived); msg.set("received", m.received);
    messages.call<void>("push", msg);
  }
  out.set("messages", messages);
  return out;
}

val summary_to_val(const SimResult& result) {
  return object_of({{"makespan", result.makespan}, {"events", static_cast<double>(result.events)},
                    {"totalBytes", result.total_bytes}});
}

val to_val(const AlphaBetaFit& fit) {
  val out = val::object();
  out.set("alpha", fit.alpha); out.set("beta", fit.beta);
  out.set("rSquared", fit.r_squared); out.set("points", static_cast<double>(fit.points));
  return out;
}

val busiest_link_to_val(const Topology& topology, int link, const std::vector<double>& busy) {
  if (link < 0) return val::null();
  return object_of({{"name", topology.link_name(link)}, {"busy", busy[static_cast<std::size_t>(link)]}});
}

}  // namespace dsml::bindings
