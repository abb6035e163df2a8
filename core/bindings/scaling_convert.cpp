// scaling_convert.cpp — see scaling_convert.h. Messages name the field ("dpScaling: ranks must be an array of
// whole numbers >= 1, e.g. [1, 2, 4, 8]").
#include "scaling_convert.h"

#include "dsml/error.h"
#include "fields.h"
#include "js_object.h"
#include "training_convert.h"

namespace dsml::bindings {

ScalingConfig to_scaling_config(const val& r) {
  const std::string ctx = "dpScaling";
  require_object(r, ctx, "{mode, model, batch, ranks, flops, alpha, beta, overlap?, …}");
  ScalingConfig c;
  const std::string mode = text_field(r, "mode", ctx);
  c.mode = in_context(ctx, [&] { return parse_scaling_mode(mode); });
  c.model = to_mlp_config(object_field(r, "model", ctx), ctx);
  c.batch = static_cast<int>(whole_field(r, "batch", ctx, 1, 1 << 30));
  const val ranks = r["ranks"];
  const std::string bad = ctx + ": ranks must be an array of whole numbers >= 1, e.g. [1, 2, 4, 8]";
  if (!val::global("Array").call<bool>("isArray", ranks)) throw Error(bad);
  const auto n = ranks["length"].as<unsigned>();
  if (n == 0 || n > 64) throw Error(bad + " (1 to 64 of them)");
  c.ranks.clear();
  for (unsigned i = 0; i < n; ++i) {
    if (!ranks[i].isNumber()) throw Error(bad);
    c.ranks.push_back(static_cast<int>(whole_value(ranks[i].as<double>(), ctx + ": ranks[" + std::to_string(i) + "]",
                                                   1, 1 << 20)));
  }
  if (!r["strategy"].isUndefined()) c.strategy = to_strategy(r, ctx);
  read_pricing_fields(r, ctx, c);
  return c;
}

val to_val(const std::vector<ScalingPoint>& points) {
  val out = val::array();
  for (const ScalingPoint& p : points) {
    val point = object_of({{"ranks", p.ranks}, {"globalBatch", p.global_batch}, {"step", p.step_s},
                           {"compute", p.compute_s}, {"comm", p.comm_s}, {"speedup", p.speedup}, {"ideal", p.ideal},
                           {"efficiency", p.efficiency}});
    out.call<void>("push", point);
  }
  return out;
}

}  // namespace dsml::bindings
