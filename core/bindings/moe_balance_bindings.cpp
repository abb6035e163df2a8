// moe_balance_bindings.cpp — Embind registrations only: Week 5's load-balancing loss (issue 26). Every function is
// wrapped by Guarded<> (guard.h).
#include <emscripten/bind.h>

#include "guard.h"
#include "moe_balance_adapters.h"

using dsml::bindings::Guarded;
namespace b = dsml::bindings;

EMSCRIPTEN_BINDINGS(dsml_moe_balance) {
  using emscripten::function;
  function("trainMoeBalanced", &Guarded<&b::train_moe_balanced>::call);
  function("moeBalanceLoss", &Guarded<&b::moe_balance_loss>::call);
}
