// training_adapters.cpp — see training_adapters.h. Convert, call the core, convert back.
#include "training_adapters.h"

#include "dsml/step_cost.h"
#include "dsml/train_compare.h"
#include "training_convert.h"

namespace dsml::bindings {

val train_compare(const val& request) { return to_val(dsml::train_compare(to_train_config(request))); }

val training_step_cost(const val& request) {
  const StepCostConfig config = to_step_cost_config(request);
  return to_val(dsml::step_cost(config, to_cost_model(request, "stepCost")));
}

}  // namespace dsml::bindings
