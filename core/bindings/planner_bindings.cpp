// planner_bindings.cpp — registers the planner's functions (planner_adapters.h); nothing else. Its own
// EMSCRIPTEN_BINDINGS block, beside bindings.cpp's, so the planner can be read (and grow) on its own.
#include <emscripten/bind.h>

#include "guard.h"
#include "planner_adapters.h"

namespace b = dsml::bindings;
using b::Guarded;

EMSCRIPTEN_BINDINGS(dsml_planner) {
  using emscripten::function;
  function("plannerPresets", &Guarded<&b::planner_presets>::call);
  function("planStep", &Guarded<&b::plan_step>::call);
  function("searchLayouts", &Guarded<&b::search_layouts>::call);
  function("searchRefusal", &Guarded<&b::search_refusal>::call);
  function("attentionCost", &Guarded<&b::attention_cost>::call);
  function("plannerValidation", &Guarded<&b::planner_validation>::call);
}
