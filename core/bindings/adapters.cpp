// adapters.cpp — see adapters.h. Thin on purpose: convert, call the core, convert back.
#include "adapters.h"

#include "convert.h"
#include "dsml/cost_model.h"
#include "dsml/error.h"
#include "dsml/fit.h"
#include "dsml/scaling_laws.h"
#include "dsml/scenarios.h"
#include "dsml/simulator.h"
#include "dsml/step_time.h"
#include "dsml/topology.h"

namespace dsml::bindings {

namespace {

SimResult run(const val& scenario) {
  const Network network = to_network(scenario);
  return dsml::simulate(network, to_programs(scenario["programs"], network.ranks));
}

}  // namespace

std::string version() { return DSML_VERSION; }

double message_time(double alpha, double beta, double bytes) { return dsml::message_time(CostModel{alpha, beta, 0.0}, bytes); }
double crossover_size(double alpha, double beta) { return dsml::crossover_size(CostModel{alpha, beta, 0.0}); }
double effective_bandwidth(double alpha, double beta, double bytes) {
  return dsml::effective_bandwidth(CostModel{alpha, beta, 0.0}, bytes);
}
double messages_time(double alpha, double beta, double count, double bytes) {
  return dsml::messages_time(CostModel{alpha, beta, 0.0}, count, bytes);
}

double amdahl_speedup(double s, double n) { return dsml::amdahl_speedup(s, n); }
double gustafson_speedup(double s, double n) { return dsml::gustafson_speedup(s, n); }
double amdahl_limit(double s) { return dsml::amdahl_limit(s); }
double amdahl_serial_fraction(double speedup, double n) { return dsml::amdahl_serial_fraction(speedup, n); }

double step_time(double c, double m, double overlap) { return dsml::step_time(c, m, overlap); }
double partial_overlap_step(double c, double m, double o) { return dsml::partial_overlap_step_time(c, m, o); }
double probability_any_slow(double q, double workers) { return dsml::probability_any_slow(q, workers); }

val fit_alpha_beta(const val& bytes, const val& seconds) {
  return to_val(dsml::fit_alpha_beta(to_doubles(bytes, "bytes"), to_doubles(seconds, "seconds")));
}

val simulate(const val& scenario) { return to_val(run(scenario)); }

std::string trace_text(const val& scenario) { return format_trace(run(scenario)); }

namespace {

ScenarioOptions scenario_options(const std::string& name, const val& options) {
  const std::string where = "scenario " + name;
  require_object(options, where, "{ranks, bytes, rounds?, laps?, computeSeconds?}");
  constexpr std::int64_t kMax = 1000000;  // a scenario's programs are built in memory
  const ScenarioOptions d;                 // the core's defaults for what a request leaves out
  ScenarioOptions o;
  o.ranks = static_cast<int>(whole_field_or(options, "ranks", d.ranks, where, 1, kMax));
  o.bytes = number_field_or(options, "bytes", d.bytes, where);
  o.rounds = static_cast<int>(whole_field_or(options, "rounds", d.rounds, where, 1, kMax));
  o.laps = static_cast<int>(whole_field_or(options, "laps", d.laps, where, 1, kMax));
  o.compute_seconds = number_field_or(options, "computeSeconds", d.compute_seconds, where);
  return o;
}

}  // namespace

val scenario(const std::string& name, const val& options) { return to_val(make_scenario(name, scenario_options(name, options))); }

val simulate_scenario(const std::string& name, const val& options) {
  const bool record = flag_field_or(options, "record", true, "simulateScenario");
  const SimResult result = dsml::simulate_scenario(name, scenario_options(name, options),
                                                   to_cost_model(options, "simulateScenario"),
                                                   SimOptions{record, record});
  return record ? to_val(result) : summary_to_val(result);
}

}  // namespace dsml::bindings
