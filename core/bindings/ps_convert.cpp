// ps_convert.cpp — see ps_convert.h.
#include "ps_convert.h"

#include "convert.h"
#include "dsml/error.h"
#include "dsml/ps_fields.h"
#include "dsml/run_limits.h"
#include "fields.h"
#include "js_object.h"
#include "training_convert.h"

namespace dsml::bindings {

SpeedModel to_speed_model(const val& speed, const std::string& context) {
  const std::string ctx = context + ": speed";
  require_object(speed, ctx,
                 "{distribution?, base?, multipliers?, roundSpeeds?, sigma?, slowProbability?, slowdown?, seed?}");
  SpeedModel m;
  const val distribution = speed["distribution"];
  if (!distribution.isUndefined()) m.distribution = parse_speed_distribution(text_field(speed, "distribution", ctx));
  m.base_seconds = number_field_or(speed, "base", m.base_seconds, ctx);
  if (!speed["multipliers"].isUndefined()) m.multipliers = to_doubles(speed["multipliers"], "speed.multipliers");
  if (!speed["roundSpeeds"].isUndefined())
    set_round_speeds(m, to_doubles(speed["roundSpeeds"], "speed.roundSpeeds"), !distribution.isUndefined());
  m.sigma = number_field_or(speed, "sigma", m.sigma, ctx);
  m.slow_probability = number_field_or(speed, "slowProbability", m.slow_probability, ctx);
  m.slowdown = number_field_or(speed, "slowdown", m.slowdown, ctx);
  m.seed = static_cast<std::uint64_t>(whole_field_or(speed, "seed", static_cast<std::int64_t>(m.seed), ctx));
  return m;
}

ParamServerConfig to_param_server_config(const val& r, const std::string& ctx) {
  require_object(r, ctx,
                 "{regime, workers, servers?, staleness?, backup?, iterations, parameters?, speed?, network, spans?}");
  ParamServerConfig c;
  c.consistency = parse_consistency(text_field(r, "regime", ctx));
  c.workers = static_cast<int>(whole_field(r, "workers", ctx, 1, limits::kSimulatedWorkers));
  c.servers = static_cast<int>(whole_field_or(r, "servers", c.servers, ctx, 1, limits::kSimulatedWorkers));
  c.staleness = static_cast<int>(whole_field_or(r, "staleness", c.staleness, ctx, 0, 1000000));
  c.backup = static_cast<int>(whole_field_or(r, "backup", c.backup, ctx, 0, limits::kSimulatedWorkers - 1));
  c.cancel_stragglers = flag_field_or(r, "cancelStragglers", c.cancel_stragglers, ctx);
  c.iterations = static_cast<int>(whole_field(r, "iterations", ctx, 1, 1000000));
  c.parameters = number_field_or(r, "parameters", c.parameters, ctx);
  c.bytes_per_parameter = number_field_or(r, "bytesPerParameter", c.bytes_per_parameter, ctx);
  if (!r["speed"].isUndefined()) c.speed = to_speed_model(r["speed"], ctx);
  in_context(ctx, [&] { limits::check_ps_size(c.workers, c.servers, c.iterations); });
  validate(c);
  return c;
}

Topology to_ps_topology(const val& r, const ParamServerConfig& c, const std::string& ctx) {
  return param_server_topology(c, to_cost_model(object_field(r, "network", ctx), ctx));
}

StaleTrainingConfig to_stale_training_config(const val& r, const std::string& ctx) {
  StaleTrainingConfig t;
  t.model = to_mlp_config(object_field(r, "model", ctx), ctx);
  t.batch_per_worker = static_cast<int>(whole_field_or(r, "batch", t.batch_per_worker, ctx, 1, 100000));
  t.lr = number_field_or(r, "lr", t.lr, ctx);
  t.staleness_aware = flag_field_or(r, "stalenessAware", t.staleness_aware, ctx);
  t.eval_batch = static_cast<int>(whole_field_or(r, "evalBatch", t.eval_batch, ctx, 1, 100000));
  t.seed = static_cast<std::uint64_t>(whole_field_or(r, "seed", static_cast<std::int64_t>(t.seed), ctx));
  check_run_size(t.model, t.batch_per_worker, 1, ctx);
  return t;
}

HogwildConfig to_hogwild_config(const val& r) {
  const std::string ctx = "hogwild";
  require_object(r, ctx, "{threads, sparsity, features?, updates?, lr?, atomic?, points?, seed?}");
  HogwildConfig c;
  c.threads = static_cast<int>(whole_field(r, "threads", ctx, 1, limits::kSimulatedWorkers));
  c.features = static_cast<int>(whole_field_or(r, "features", c.features, ctx, 1, 10000000));
  c.sparsity = number_field(r, "sparsity", ctx);
  c.updates = static_cast<int>(whole_field_or(r, "updates", c.updates, ctx, 1, 10000000));
  c.lr = number_field_or(r, "lr", c.lr, ctx);
  c.atomic = flag_field_or(r, "atomic", c.atomic, ctx);
  c.points = static_cast<int>(whole_field_or(r, "points", c.points, ctx, 1, 100000));
  c.seed = static_cast<std::uint64_t>(whole_field_or(r, "seed", static_cast<std::int64_t>(c.seed), ctx));
  return c;
}

val run_to_val(const ParamServerResult& run, bool spans) {
  static const FieldTable without_spans = omit(param_server_run_fields(), {"spans"}, "ParamServerRun");
  return fields_to_val(spans ? param_server_run_fields() : without_spans, run);
}

}  // namespace dsml::bindings
