// collective_adapters.h — the Week 2 functions JavaScript calls: schedules, their closed-form costs, and
// their simulation on a topology. Same rules as adapters.h: convert, call the core, convert back.
#pragma once

#include <emscripten/val.h>

#include <string>

namespace dsml::bindings {

using emscripten::val;

val list_algorithms();
// options: {ranks, bytes, root?, devicesPerNode?}
val schedule(const std::string& collective, const std::string& algorithm, const val& options);
val verify_schedule(const val& schedule);
// options: {ranks, bytes, alpha, beta, gamma?, devicesPerNode?}
double collective_cost(const std::string& collective, const std::string& algorithm, const val& options);
double lower_bound(const std::string& collective, const val& options);
val bus_bandwidth(const std::string& collective, double ranks, double bytes, double seconds);
// {collective, algorithm, ranks, bytes, root?, gamma?, devicesPerNode?, topology, record?}
// record: false returns only {makespan, events, totalBytes, busiestLink} (large runs: 1024 ranks and more)
val simulate_collective(const val& request);
// {ranks, topology, gamma?, trace: [{src, dst, bytes, sendTime, recvTime}]}
val simulate_trace(const val& request);

}  // namespace dsml::bindings
