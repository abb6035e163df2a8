// training_convert.cpp — see training_convert.h. Messages name the field ("trainCompare: model.hidden must be a
// whole number >= 1, got 2.5") so a learner editing a request by hand can find the mistake.
#include "training_convert.h"

#include <cmath>

#include "convert.h"
#include "dsml/error.h"

namespace dsml::bindings {

namespace {

constexpr double kMaxSafeInteger = 9007199254740992.0;  // 2^53: every whole number below is exact in a double

bool is_object(const val& v) { return v.typeOf().as<std::string>() == "object" && !v.isNull(); }

double optional_number(const val& obj, const char* name, double fallback, const std::string& context) {
  return number_field_or(obj, name, fallback, context);
}

}  // namespace

std::int64_t whole_number_field(const val& obj, const char* name, std::int64_t fallback, std::int64_t minimum,
                                const std::string& context) {
  if (obj[name].isUndefined()) return fallback;
  const double x = number_field(obj, name, context);
  if (x != std::floor(x) || x < static_cast<double>(minimum) || x > kMaxSafeInteger)
    throw Error(context + ": " + name + " must be a whole number >= " + std::to_string(minimum) + ", got " +
                format_number(x));
  return static_cast<std::int64_t>(x);
}

std::string text_field(const val& obj, const char* name, const std::string& context) {
  const val v = obj[name];
  if (v.typeOf().as<std::string>() != "string") throw Error(context + ": " + name + " must be a string");
  return v.as<std::string>();
}

val object_field(const val& obj, const char* name, const std::string& context) {
  const val v = obj[name];
  if (!is_object(v)) throw Error(context + ": " + name + " must be an object");
  return v;
}

MlpConfig to_mlp_config(const val& model, const std::string& context) {
  const std::string ctx = context + ": model";
  MlpConfig c;
  c.layers = static_cast<int>(whole_number_field(model, "layers", -1, 1, ctx));
  c.width = static_cast<int>(whole_number_field(model, "width", -1, 1, ctx));
  c.hidden = static_cast<int>(whole_number_field(model, "hidden", -1, 1, ctx));
  if (c.layers < 0 || c.width < 0 || c.hidden < 0) throw Error(ctx + " needs layers, width and hidden");
  if (static_cast<double>(c.layers) * c.width * c.hidden > 1e8)
    throw Error(ctx + ": layers·width·hidden must be at most 1e8 (a lab model, not a real one)");
  if (!model["activation"].isUndefined()) c.activation = parse_activation(text_field(model, "activation", ctx));
  const val residual = model["residual"];
  if (!residual.isUndefined()) {
    if (residual.typeOf().as<std::string>() != "boolean") throw Error(ctx + ".residual must be true or false");
    c.residual = residual.as<bool>();
  }
  validate(c);
  return c;
}

OptimizerConfig to_optimizer_config(const val& optimizer, const std::string& context) {
  const std::string ctx = context + ": optimizer";
  OptimizerConfig c;
  c.kind = parse_optimizer(text_field(optimizer, "kind", ctx));
  c.lr = number_field(optimizer, "lr", ctx);
  c.warmup_steps = static_cast<int>(whole_number_field(optimizer, "warmupSteps", 0, 0, ctx));
  c.momentum = optional_number(optimizer, "momentum", c.momentum, ctx);
  c.beta1 = optional_number(optimizer, "beta1", c.beta1, ctx);
  c.beta2 = optional_number(optimizer, "beta2", c.beta2, ctx);
  c.weight_decay = optional_number(optimizer, "weightDecay", c.weight_decay, ctx);
  validate(c);
  return c;
}

RankGrid to_grid(const val& grid, const std::string& context) {
  const std::string ctx = context + ": grid";
  RankGrid g;
  g.dp = static_cast<int>(whole_number_field(grid, "dp", 1, 1, ctx));
  g.tp = static_cast<int>(whole_number_field(grid, "tp", 1, 1, ctx));
  g.pp = static_cast<int>(whole_number_field(grid, "pp", 1, 1, ctx));
  if (static_cast<double>(g.dp) * g.tp * g.pp > 4096) throw Error(ctx + ": dp·tp·pp must be at most 4096 ranks");
  validate(g);
  return g;
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
    val rank = val::object();
    rank.set("params", m.params);
    rank.set("grads", m.grads);
    rank.set("optimizer", m.optimizer);
    rank.set("activations", m.activations);
    rank.set("total", m.total);
    out.call<void>("push", rank);
  }
  return out;
}

val to_val(const std::vector<StepSpan>& spans) {
  val out = val::array();
  for (const StepSpan& s : spans) {
    val span = val::object();
    span.set("rank", s.rank);
    span.set("kind", s.kind);
    span.set("start", s.start);
    span.set("end", s.end);
    if (!s.label.empty()) span.set("label", s.label);
    out.call<void>("push", span);
  }
  return out;
}

}  // namespace dsml::bindings
