// moe_balance_adapters.cpp — see moe_balance_adapters.h. Convert, call the core, convert back.
#include "moe_balance_adapters.h"

#include <string>

#include "convert.h"
#include "dsml/error.h"
#include "dsml/moe.h"
#include "dsml/moe_mlp.h"
#include "fields.h"
#include "js_arrays.h"
#include "js_object.h"
#include "moe_convert.h"
#include "training_convert.h"

namespace dsml::bindings {

val train_moe_balanced(const val& request) {
  const std::string fn = "trainMoeBalanced";
  require_object(request, fn, "{model, moe: {experts, topK, capacityFactor, every?, balance}, groups?, optimizer, batch, steps, seed?}");
  const MoeTrainingRequest r = to_moe_training(request, fn, true);
  const MoeMlpRun run = train_moe(r, fn);
  return object_of({{"losses", to_float64_array(run.losses)}, {"balanceLosses", to_float64_array(run.balance_losses)},
                    {"dropped", to_js_array(run.dropped)},
                    {"assignments", static_cast<double>(run.assignments)},
                    {"load", to_val(run.last_load)}});
}

double moe_balance_loss(double alpha, const val& f, const val& P) {
  return switch_balance_loss(alpha, to_doubles(f, "moeBalanceLoss: f"), to_doubles(P, "moeBalanceLoss: P"));
}

}  // namespace dsml::bindings
