// moe_adapters.cpp — see moe_adapters.h. Convert, call the core, convert back.
#include "moe_adapters.h"

#include <string>
#include <vector>

#include "collective_convert.h"
#include "dsml/error.h"
#include "dsml/expert_parallel.h"
#include "dsml/run_limits.h"
#include "fields.h"
#include "js_arrays.h"
#include "js_object.h"
#include "training_convert.h"

namespace dsml::bindings {
namespace {

MoeConfig to_moe_config(const val& r, const std::string& ctx) {
  const val m = object_field(r, "moe", ctx);
  const std::string at = ctx + ": moe";
  MoeConfig c;
  c.width = static_cast<int>(whole_field(m, "width", at, 1, 4096));
  c.hidden = static_cast<int>(whole_field(m, "hidden", at, 1, 16384));
  c.experts = static_cast<int>(whole_field(m, "experts", at, 1, 256));
  c.top_k = static_cast<int>(whole_field(m, "topK", at, 1, 2));
  c.capacity_factor = number_field(m, "capacityFactor", at);
  if (!m["activation"].isUndefined()) c.activation = parse_activation(text_field(m, "activation", at));
  validate(c);
  return c;
}

}  // namespace

val expert_parallel(const val& r) {
  const std::string ctx = "expertParallel";
  require_object(r, ctx, "{moe: {width, hidden, experts, topK, capacityFactor}, ranks, batch, seed?}");
  const MoeConfig c = to_moe_config(r, ctx);
  const int ranks = static_cast<int>(whole_field(r, "ranks", ctx, 1, limits::kTrainedDevices));
  const int batch = static_cast<int>(whole_field(r, "batch", ctx, 1, 1 << 16));
  in_context(ctx, [&] { limits::check_expert_parallel_size(batch, c.width, c.hidden); });
  const ExpertParallelCheck check =
      check_expert_parallel(c, ranks, batch, static_cast<std::uint64_t>(whole_field_or(r, "seed", 0, ctx)));
  const ExpertParallelStep& s = check.step;
  val out = object_of({{"load", to_js_array(s.load)}, {"wanted", to_js_array(s.wanted)}, {"dropped", s.dropped},
                       {"unroutedTokens", s.unrouted_tokens}, {"capacity", s.capacity}, {"loss", s.loss},
                       {"outputRelativeDifference", check.output_relative_difference},
                       {"gradientRelativeDifference", check.gradient_relative_difference}});
  val bytes = val::object();
  for (const CommRecord& rec : s.comm.records())
    bytes.set(rec.kind, s.comm.bytes(rec.kind));
  out.set("commBytes", bytes);
  out.set("allToAllBytesPerRank", s.all_to_all_bytes_per_rank);
  return out;
}

val price_expert_all_to_all(const val& r) {
  const std::string ctx = "priceExpertAllToAll";
  require_object(r, ctx, "{moe: {…}, tokensPerRank, elementBytes?, alpha, beta, topology}");
  const MoeConfig c = to_moe_config(r, ctx);
  const AllToAllPrice p = dsml::price_expert_all_to_all(
      c, static_cast<int>(whole_field(r, "tokensPerRank", ctx, 1, 1 << 24)),
      number_field_or(r, "elementBytes", kExpertTokenElementBytes, ctx),
      to_cost_model(r, ctx), to_topology(object_field(r, "topology", ctx)));
  return object_of({{"capacity", p.capacity}, {"bytesPerRank", p.bytes_per_rank}, {"closedForm", p.closed_form_s},
                    {"simulated", p.simulated_s}});
}

}  // namespace dsml::bindings
