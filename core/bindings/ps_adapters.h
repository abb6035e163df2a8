// ps_adapters.h — Week 4's functions for JavaScript: speed models, the parameter server (simulated, and training
// the teacher task under it), Hogwild!, and the closed forms beside them. Same rules as adapters.h: convert
// (ps_convert.h), call the core, convert back. Their contract for JavaScript is core/bindings/dsml.d.ts.
#pragma once

#include <emscripten/val.h>

namespace dsml::bindings {

using emscripten::val;

// speedTimes(speed, workers, iterations) → Float64Array[] (one per worker)      = sample_iteration_times
val speed_times(const val& speed, double workers, double iterations);
// simulateParamServer(request) → the run (ps_convert.h)                          = simulate_param_server
val simulate_param_server(const val& request);
// trainParamServer(request) → {run, training}                                    = train_param_server
val train_param_server(const val& request);
// hogwild(request) → {support, updates, collisionRate, predictedCollisionRate, …} = simulate_hogwild
val hogwild(const val& request);

double harmonic_number(double n);
double expected_max_exponential(double workers, double mean_seconds);
double expected_order_statistic_exponential(double quota, double workers, double mean_seconds);
// expectedRoundCompute(speed, workers, quota)                                    = expected_round_compute
double expected_round_compute(const val& speed, double workers, double quota);
// sspStallFixedSpeeds(speed, workers, iterations, staleness)                     = ssp_stall_fixed_speeds
val ssp_stall_fixed_speeds(const val& speed, double workers, double iterations, double staleness);
// sspClockLimits(speed, workers) → {barrierSeconds, unboundedSeconds, absorbableSeconds, absorbableFraction}
//                                                                                 = ssp_clock_limits
val ssp_clock_limits(const val& speed, double workers);
// psBandwidth(network {alpha, beta}, workers, servers, parameterBytes)           = ps_bandwidth
val ps_bandwidth(const val& network, double workers, double servers, double parameter_bytes);
double ps_servers_to_balance(const val& network, double workers, double parameter_bytes);
double hogwild_collision_probability(double threads, double features, double support);

}  // namespace dsml::bindings
