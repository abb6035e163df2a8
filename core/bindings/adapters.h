// adapters.h — the functions JavaScript calls, with JS-friendly signatures (plain numbers and objects).
// Each converts its arguments (convert.h), calls the core, and converts the result back. No logic lives here.
#pragma once

#include <emscripten/val.h>

#include <string>

namespace dsml::bindings {

using emscripten::val;

std::string version();

double message_time(double alpha, double beta, double bytes);
double crossover_size(double alpha, double beta);
double effective_bandwidth(double alpha, double beta, double bytes);
double messages_time(double alpha, double beta, double count, double bytes);

double amdahl_speedup(double serial_fraction, double processors);
double gustafson_speedup(double serial_fraction, double processors);
double amdahl_limit(double serial_fraction);
double amdahl_serial_fraction(double speedup, double processors);

double step_time(double compute_s, double communication_s, double overlap);
// partialOverlapStep(C, M, o) = C + (1 − o)·M, o in [0, min(1, C/M)]                  = partial_overlap_step_time
double partial_overlap_step(double compute_s, double communication_s, double overlap_fraction);
double probability_any_slow(double q, double workers);

val fit_alpha_beta(const val& bytes, const val& seconds);

// scenario: {ranks, alpha, beta, gamma?, programs}
val simulate(const val& scenario);
// Same input; the readable event log (golden-trace format).
std::string trace_text(const val& scenario);
// name: "ping-pong" | "token-ring" | "linear-broadcast" | "gather-to-root" | "compute-then-exchange"
// options: {ranks, bytes, rounds?, laps?, computeSeconds?}
val scenario(const std::string& name, const val& options);
// The named scenario built and simulated inside the core (no programs cross the boundary): options as for
// scenario() plus {alpha, beta, record?}. record: false keeps only {makespan, events, totalBytes} — for
// benchmarks and very large runs.
val simulate_scenario(const std::string& name, const val& options);

}  // namespace dsml::bindings
