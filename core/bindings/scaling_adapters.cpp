// scaling_adapters.cpp — see scaling_adapters.h. Convert, call the core, convert back.
#include "scaling_adapters.h"

#include "dsml/dp_scaling.h"
#include "fields.h"
#include "js_object.h"
#include "scaling_convert.h"
#include "training_convert.h"

namespace dsml::bindings {

val dp_scaling(const val& request) {
  const ScalingConfig config = to_scaling_config(request);
  return to_val(dsml::dp_scaling(config, to_cost_model(request, "dpScaling")));
}

double comm_bound_batch(const val& r) {
  const std::string ctx = "commBoundBatch";
  require_object(r, ctx, "{flops, bandwidth, elementBytes?, ranks, overlap?, microBatches?}");
  const ScalingConfig fallback;  // the sweep's defaults: the element size, overlap and accumulation it prices
  return dsml::dp_comm_bound_batch(
      number_field(r, "flops", ctx), number_field(r, "bandwidth", ctx),
      number_field_or(r, "elementBytes", fallback.element_bytes, ctx),
      static_cast<int>(whole_field(r, "ranks", ctx, 2, 1 << 20)), flag_field_or(r, "overlap", fallback.overlap, ctx),
      static_cast<int>(whole_field_or(r, "microBatches", fallback.micro_batches, ctx, 1, 1 << 30)));
}

val ddp_variants(const val& request) {
  const StepCostConfig config = to_step_cost_config(request);
  const DdpVariants v = dsml::ddp_variants(config, to_cost_model(request, "ddpVariants"));
  return object_of({{"naive", to_val(v.naive)}, {"flat", to_val(v.flat)}, {"bucketed", to_val(v.bucketed)}});
}

}  // namespace dsml::bindings
