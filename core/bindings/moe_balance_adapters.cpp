// moe_balance_adapters.cpp — see moe_balance_adapters.h. Convert, call the core, convert back.
#include "moe_balance_adapters.h"

#include <string>
#include <vector>

#include "convert.h"
#include "dsml/error.h"
#include "dsml/moe.h"
#include "dsml/moe_mlp.h"
#include "fields.h"
#include "js_arrays.h"
#include "training_convert.h"

namespace dsml::bindings {

namespace {

// The request's MLP with MoE blocks, α included (the same fields as trainSingleMoe's, plus moe.balance).
MoeMlpConfig to_config(const val& request, const std::string& fn) {
  MoeMlpConfig c;
  c.mlp = to_mlp_config(object_field(request, "model", fn), fn);
  const val m = object_field(request, "moe", fn);
  const std::string at = fn + ": moe";
  c.experts = static_cast<int>(whole_field(m, "experts", at, 1, 256));
  c.top_k = static_cast<int>(whole_field(m, "topK", at, 1, 2));
  c.capacity_factor = number_field(m, "capacityFactor", at);
  c.moe_every = static_cast<int>(whole_field_or(m, "every", 2, at, 1));
  c.balance_coefficient = number_field(m, "balance", at);
  c.groups = static_cast<int>(whole_field_or(request, "groups", 1, fn, 1));
  try {
    validate(c);
  } catch (const Error& e) {
    throw Error(fn + ": " + e.what());
  }
  return c;
}

}  // namespace

val train_moe_balanced(const val& request) {
  const std::string fn = "trainMoeBalanced";
  require_object(request, fn, "{model, moe: {experts, topK, capacityFactor, every?, balance}, groups?, optimizer, batch, steps, seed?}");
  const MoeMlpConfig c = to_config(request, fn);
  const OptimizerConfig optimizer = to_optimizer_config(object_field(request, "optimizer", fn), fn);
  const int batch = static_cast<int>(whole_field(request, "batch", fn, 1, 1 << 30));
  const int steps = static_cast<int>(whole_field(request, "steps", fn, 1, 1 << 30));
  check_run_size(c.mlp, batch, steps, fn);
  if (static_cast<double>(c.experts) * c.mlp.layers * c.mlp.width * c.mlp.hidden > 1e8)
    throw Error(fn + ": experts·layers·width·hidden must be <= 1e8 for a run in a tab");
  MoeMlpRun run;
  try {
    run = train_moe_mlp(c, optimizer, batch, steps, static_cast<std::uint64_t>(whole_field_or(request, "seed", 0, fn)));
  } catch (const Error& e) {
    throw Error(fn + ": " + e.what());
  }
  val load = val::array();
  for (const MoeBlockLoad& l : run.last_load) {
    val entry = val::object();
    entry.set("block", l.block);
    entry.set("wanted", to_js_array(l.wanted));
    entry.set("kept", to_js_array(l.kept));
    entry.set("dropped", l.dropped);
    load.call<void>("push", entry);
  }
  int moe_blocks = 0;
  for (int l = 0; l < c.mlp.layers; ++l) moe_blocks += is_moe_block(c, l) ? 1 : 0;
  val out = val::object();
  out.set("losses", to_float64_array(run.losses));
  out.set("balanceLosses", to_float64_array(run.balance_losses));
  out.set("dropped", to_js_array(run.dropped));
  out.set("assignments", batch * c.top_k * moe_blocks);
  out.set("load", load);
  return out;
}

double moe_balance_loss(double alpha, const val& f, const val& P) {
  return switch_balance_loss(alpha, to_doubles(f, "moeBalanceLoss: f"), to_doubles(P, "moeBalanceLoss: P"));
}

}  // namespace dsml::bindings
