// convert.h — conversions between JavaScript values and core types, for the Embind layer only.
// JS receives plain objects and arrays (copies), never views into wasm memory, so nothing needs .delete().
#pragma once

#include <emscripten/val.h>

#include <string>
#include <vector>

#include "dsml/fit.h"
#include "dsml/simulator.h"
#include "fields.h"

namespace dsml::bindings {

using emscripten::val;

// A JS array (or typed array) of numbers as a vector; throws dsml::Error if it is not one.
std::vector<double> to_doubles(const val& array, const char* name);

// {ranks, alpha, beta, programs: [[{op:"send", to, bytes, tag}, {op:"recv", from, tag}, {op:"compute", seconds}]]}
Network to_network(const val& scenario);
std::vector<Program> to_programs(const val& programs, int ranks);

val to_val(const std::vector<Program>& programs);
val to_val(const SimResult& result);
val to_val(const AlphaBetaFit& fit);
// Only {makespan, events, totalBytes}: for runs simulated without recording spans and messages.
val summary_to_val(const SimResult& result);

}  // namespace dsml::bindings
