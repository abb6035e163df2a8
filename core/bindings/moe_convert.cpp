// moe_convert.cpp — see moe_convert.h. Messages name the field ("trainSingleMoe: moe: topK must be a whole number
// <= 2, got 3").
#include "moe_convert.h"

#include "dsml/error.h"
#include "dsml/run_limits.h"
#include "fields.h"
#include "js_arrays.h"
#include "js_object.h"
#include "training_convert.h"

namespace dsml::bindings {

MoeMlpConfig to_moe_mlp_config(const val& request, const std::string& context, bool with_balance) {
  MoeMlpConfig c;
  c.mlp = to_mlp_config(object_field(request, "model", context), context);
  const val m = object_field(request, "moe", context);
  const std::string at = context + ": moe";
  c.experts = static_cast<int>(whole_field(m, "experts", at, 1, 256));
  c.top_k = static_cast<int>(whole_field(m, "topK", at, 1, 2));
  c.capacity_factor = number_field(m, "capacityFactor", at);
  c.moe_every = static_cast<int>(whole_field_or(m, "every", c.moe_every, at, 1));
  if (with_balance) c.balance_coefficient = number_field(m, "balance", at);
  c.groups = static_cast<int>(whole_field_or(request, "groups", c.groups, context, 1));
  in_context(context, [&] { validate(c); });
  return c;
}

MoeTrainingRequest to_moe_training(const val& request, const std::string& context, bool with_balance) {
  const MoeTrainingRequest r{to_moe_mlp_config(request, context, with_balance), to_training_request(request, context)};
  in_context(context, [&] { limits::check_moe_size(r.config.experts, r.config.mlp); });
  return r;
}

MoeMlpRun train_moe(const MoeTrainingRequest& request, const std::string& context) {
  const TrainingRequest& run = request.run;
  return in_context(context,
                    [&] { return train_moe_mlp(request.config, run.optimizer, run.batch, run.steps, run.seed); });
}

val to_val(const std::vector<MoeBlockLoad>& load) {
  val out = val::array();
  for (const MoeBlockLoad& l : load) {
    val entry = object_of({{"block", l.block}, {"wanted", to_js_array(l.wanted)}, {"kept", to_js_array(l.kept)},
                           {"dropped", l.dropped}});
    out.call<void>("push", entry);
  }
  return out;
}

}  // namespace dsml::bindings
