// pipelined_broadcast_bindings.cpp — Embind registrations only: Week 2's pipelined broadcasts (issue 26).
// Every function is wrapped by Guarded<> (guard.h).
#include <emscripten/bind.h>

#include "guard.h"
#include "pipelined_broadcast_adapters.h"

using dsml::bindings::Guarded;
namespace b = dsml::bindings;

EMSCRIPTEN_BINDINGS(dsml_pipelined_broadcast) {
  using emscripten::function;
  function("pipelinedBroadcast", &Guarded<&b::pipelined_broadcast>::call);
  function("bestSegments", &Guarded<&b::best_segments>::call);
}
