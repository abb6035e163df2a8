// training_convert.cpp — see training_convert.h. Messages name the field ("trainCompare: model: hidden must be a
// whole number >= 1, got 2.5") so a learner editing a request by hand can find the mistake.
#include "training_convert.h"

#include "dsml/error.h"
#include "dsml/run_limits.h"
#include "fields.h"
#include "js_object.h"

namespace dsml::bindings {

MlpConfig to_mlp_config(const val& model, const std::string& context) {
  const std::string ctx = context + ": model";
  MlpConfig c;
  c.layers = static_cast<int>(whole_field(model, "layers", ctx, 1, 1 << 30));
  c.width = static_cast<int>(whole_field(model, "width", ctx, 1, 1 << 30));
  c.hidden = static_cast<int>(whole_field(model, "hidden", ctx, 1, 1 << 30));
  if (!model["activation"].isUndefined()) c.activation = parse_activation(text_field(model, "activation", ctx));
  c.residual = flag_field_or(model, "residual", c.residual, ctx);
  validate(c);
  return c;
}

OptimizerConfig to_optimizer_config(const val& optimizer, const std::string& context) {
  const std::string ctx = context + ": optimizer";
  OptimizerConfig c;
  c.kind = parse_optimizer(text_field(optimizer, "kind", ctx));
  c.lr = number_field(optimizer, "lr", ctx);
  c.warmup_steps = static_cast<int>(whole_field_or(optimizer, "warmupSteps", 0, ctx, 0, 1 << 30));
  c.momentum = number_field_or(optimizer, "momentum", c.momentum, ctx);
  c.beta1 = number_field_or(optimizer, "beta1", c.beta1, ctx);
  c.beta2 = number_field_or(optimizer, "beta2", c.beta2, ctx);
  c.epsilon = number_field_or(optimizer, "epsilon", c.epsilon, ctx);
  c.weight_decay = number_field_or(optimizer, "weightDecay", c.weight_decay, ctx);
  c.trust_coefficient = number_field_or(optimizer, "trustCoefficient", c.trust_coefficient, ctx);
  validate(c);
  return c;
}

RankGrid to_grid(const val& grid, const std::string& context) {
  const std::string ctx = context + ": grid";
  RankGrid g;
  g.dp = static_cast<int>(whole_field_or(grid, "dp", 1, ctx, 1));
  g.tp = static_cast<int>(whole_field_or(grid, "tp", 1, ctx, 1));
  g.pp = static_cast<int>(whole_field_or(grid, "pp", 1, ctx, 1));
  in_context(ctx, [&] { limits::check_grid_size(g); });
  return g;
}

Strategy to_strategy(const val& request, const std::string& context) {
  const std::string name = text_field(request, "strategy", context);
  return in_context(context, [&] { return parse_strategy(name); });
}

void check_run_size(const MlpConfig& model, int batch, int steps, const std::string& context) {
  in_context(context, [&] { limits::check_run_size(model, batch, steps); });
}

TrainingRequest to_training_request(const val& request, const std::string& context) {
  TrainingRequest r;
  r.model = to_mlp_config(object_field(request, "model", context), context);
  r.optimizer = to_optimizer_config(object_field(request, "optimizer", context), context);
  r.batch = static_cast<int>(whole_field(request, "batch", context, 1, limits::kRows));
  r.steps = static_cast<int>(whole_field(request, "steps", context, 1, limits::kSteps));
  r.seed = static_cast<std::uint64_t>(whole_field_or(request, "seed", 0, context));
  check_run_size(r.model, r.batch, r.steps, context);
  return r;
}

TrainConfig to_train_config(const val& r) {
  const std::string ctx = "trainCompare";
  require_object(r, ctx, "{strategy, grid, model, optimizer, batch, steps, seed, microBatches?, bucketBytes?}");
  TrainConfig t;
  t.strategy = to_strategy(r, ctx);
  t.grid = to_grid(object_field(r, "grid", ctx), ctx);
  const TrainingRequest run = to_training_request(r, ctx);
  t.model = run.model;
  t.optimizer = run.optimizer;
  t.batch = run.batch;
  t.steps = run.steps;
  t.seed = run.seed;
  t.options.micro_batches =
      static_cast<int>(whole_field_or(r, "microBatches", default_micro_batches(t.strategy), ctx, 1, 1 << 30));
  t.options.bucket_bytes = number_field_or(r, "bucketBytes", t.options.bucket_bytes, ctx);
  return t;
}

StepCostConfig to_step_cost_config(const val& r) {
  const std::string ctx = "stepCost";
  require_object(r, ctx, "{strategy, grid, model, batch, flops, alpha, beta, …}");
  StepCostConfig c;
  c.strategy = to_strategy(r, ctx);
  c.grid = to_grid(object_field(r, "grid", ctx), ctx);
  c.model = to_mlp_config(object_field(r, "model", ctx), ctx);
  c.batch = static_cast<int>(whole_field(r, "batch", ctx, 1, 1 << 30));
  read_pricing_fields(r, ctx, c);
  c.optimizer_states = static_cast<int>(whole_field_or(r, "optimizerStates", c.optimizer_states, ctx, 0, 1 << 30));
  c.recompute = flag_field_or(r, "recompute", c.recompute, ctx);
  c.layerwise_norms = flag_field_or(r, "layerwiseNorms", c.layerwise_norms, ctx);
  return c;
}

val to_float64_array(const std::vector<double>& values) {
  // Float64Array's constructor copies the view, so the result owns its memory.
  return val::global("Float64Array").new_(emscripten::typed_memory_view(values.size(), values.data()));
}

val to_object(const std::map<std::string, double>& by_kind) {
  val out = val::object();
  for (const auto& [kind, value] : by_kind) out.set(kind, value);
  return out;
}

val to_val(const std::vector<MemoryBreakdown>& memory) {
  val out = val::array();
  for (const MemoryBreakdown& m : memory) {
    val rank = object_of({{"params", m.params}, {"grads", m.grads}, {"optimizer", m.optimizer},
                          {"activations", m.activations}, {"total", m.total}});
    out.call<void>("push", rank);
  }
  return out;
}

val to_val(const TrainComparison& r) {
  val out = object_of({{"losses", to_float64_array(r.losses)}, {"singleLosses", to_float64_array(r.single_losses)},
                       {"divergedAt", r.diverged_at}, {"singleDivergedAt", r.single_diverged_at}});
  val ratios = val::array();
  for (const std::vector<double>& step : r.trust_ratios) ratios.call<void>("push", to_float64_array(step));
  out.set("trustRatios", ratios);
  out.set("maxLossRelativeDifference", r.max_loss_relative_difference);
  out.set("maxRelativeDifference", r.max_relative_difference);
  out.set("commBytes", to_object(r.comm_bytes));
  out.set("memoryPerRank", to_val(r.memory));
  return out;
}

val to_val(const StepCost& cost) {
  val spans = val::array();
  for (const StepSpan& s : cost.spans) {
    val span = object_of({{"rank", s.rank}, {"kind", s.kind}, {"start", s.start}, {"end", s.end},
                          {"stream", s.stream}});
    if (!s.label.empty()) span.set("label", s.label);
    spans.call<void>("push", span);
  }
  return object_of({{"total", cost.total_s}, {"compute", cost.compute_s}, {"bubble", cost.bubble_s},
                    {"comm", to_object(cost.comm_s)}, {"spans", spans}, {"memoryPerRank", to_val(cost.memory)}});
}

}  // namespace dsml::bindings
