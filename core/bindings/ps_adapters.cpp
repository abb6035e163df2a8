// ps_adapters.cpp — see ps_adapters.h. Convert, call the core, convert back.
#include "ps_adapters.h"

#include "dsml/error.h"
#include "dsml/ps_fields.h"
#include "dsml/run_limits.h"
#include "fields.h"
#include "js_object.h"
#include "ps_convert.h"
#include "training_convert.h"

namespace dsml::bindings {
namespace {

int whole(double x, const char* what, std::int64_t minimum = 1, std::int64_t maximum = 1000000) {
  return static_cast<int>(whole_value(x, what, minimum, maximum));
}

// A count of workers, shards, threads or a quota: 1 … what the course simulates (limits::kSimulatedWorkers).
int workers_arg(double x, const char* what) { return whole(x, what, 1, limits::kSimulatedWorkers); }

}  // namespace

val speed_times(const val& speed, double workers, double iterations) {
  const int w = workers_arg(workers, "speedTimes: workers");
  const int n = whole(iterations, "speedTimes: iterations", 0, 1000000);
  in_context("speedTimes", [&] { limits::check_speed_draws(w, n); });
  val out = val::array();
  for (const auto& times : sample_iteration_times(to_speed_model(speed, "speedTimes"), w, n))
    out.call<void>("push", to_float64_array(times));
  return out;
}

val simulate_param_server(const val& request) {
  const std::string ctx = "simulateParamServer";
  const ParamServerConfig c = to_param_server_config(request, ctx);
  return run_to_val(dsml::simulate_param_server(to_ps_topology(request, c, ctx), c),
                    flag_field_or(request, "spans", false, ctx));
}

val train_param_server(const val& request) {
  const std::string ctx = "trainParamServer";
  const StaleTrainingConfig t = to_stale_training_config(request, ctx);
  const ParamServerConfig c = to_param_server_config(request, ctx);  // the core sets its parameters to the model's
  in_context(ctx, [&] {
    limits::check_ps_training_size(c.workers, c.iterations, t.batch_per_worker,
                                   static_cast<double>(parameter_count(t.model)));
  });
  const ParamServerTraining out = dsml::train_param_server(to_ps_topology(request, c, ctx), c, t);
  return object_of({{"run", run_to_val(out.run, flag_field_or(request, "spans", false, ctx))},
                    {"training", fields_to_val(out.training)}});
}

val hogwild(const val& request) { return fields_to_val(simulate_hogwild(to_hogwild_config(request))); }

double harmonic_number(double n) { return dsml::harmonic_number(whole(n, "harmonicNumber: n", 0)); }

double expected_max_exponential(double workers, double mean_seconds) {
  return dsml::expected_max_exponential(whole(workers, "expectedMaxExponential: workers"), mean_seconds);
}

double expected_order_statistic_exponential(double quota, double workers, double mean_seconds) {
  return dsml::expected_order_statistic_exponential(whole(quota, "expectedOrderStatisticExponential: quota"),
                                                    whole(workers, "expectedOrderStatisticExponential: workers"),
                                                    mean_seconds);
}

double expected_round_compute(const val& speed, double workers, double quota) {
  return dsml::expected_round_compute(to_speed_model(speed, "expectedRoundCompute"),
                                      workers_arg(workers, "expectedRoundCompute: workers"),
                                      workers_arg(quota, "expectedRoundCompute: quota"));
}

val ssp_stall_fixed_speeds(const val& speed, double workers, double iterations, double staleness) {
  return fields_to_val(dsml::ssp_stall_fixed_speeds(to_speed_model(speed, "sspStallFixedSpeeds"),
                                             workers_arg(workers, "sspStallFixedSpeeds: workers"),
                                             whole(iterations, "sspStallFixedSpeeds: iterations"),
                                             whole(staleness, "sspStallFixedSpeeds: staleness", 0)));
}

val ssp_clock_limits(const val& speed, double workers) {
  return fields_to_val(dsml::ssp_clock_limits(to_speed_model(speed, "sspClockLimits"),
                                       workers_arg(workers, "sspClockLimits: workers")));
}

val ps_bandwidth(const val& network, double workers, double servers, double parameter_bytes) {
  return fields_to_val(dsml::ps_bandwidth(to_cost_model(network, "psBandwidth: network"),
                                   workers_arg(workers, "psBandwidth: workers"),
                                   workers_arg(servers, "psBandwidth: servers"), parameter_bytes));
}

double ps_servers_to_balance(const val& network, double workers, double parameter_bytes) {
  return dsml::ps_servers_to_balance(to_cost_model(network, "psServersToBalance: network"),
                                     workers_arg(workers, "psServersToBalance: workers"), parameter_bytes);
}

double hogwild_collision_probability(double threads, double features, double support) {
  const int n = whole(features, "hogwildCollisionProbability: features", 1, 10000000);
  return dsml::hogwild_collision_probability(workers_arg(threads, "hogwildCollisionProbability: threads"), n,
                                             whole(support, "hogwildCollisionProbability: support", 1, n));
}

}  // namespace dsml::bindings
