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
// {name, busy} of link `link` of `topology` (busy[link] seconds), or null when no link was busy (link < 0) — the one
// representation of "no busiest link" in every result (LinkBusy | null in dsml.d.ts, null in the CLI's JSON).
val busiest_link_to_val(const Topology& topology, int link, const std::vector<double>& busy);

}  // namespace dsml::bindings
