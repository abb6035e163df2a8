// ps_convert.cpp — see ps_convert.h.
#include "ps_convert.h"

#include "convert.h"
#include "dsml/error.h"
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
  require_object(r, ctx, "{regime, workers, servers?, staleness?, backup?, iterations, parameters?, speed?, network}");
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
  if (static_cast<double>(c.workers) * c.servers * c.iterations > limits::kPsPushes)
    throw Error(ctx + ": workers·servers·iterations must be <= 2e6 (pushes a tab simulates at once), got " +
                format_number(static_cast<double>(c.workers) * c.servers * c.iterations));
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

val to_val(const ParamServerResult& run) {
  static const char* const kKinds[] = {"compute", "push", "wait"};
  val spans = val::array();
  for (const PsSpan& s : run.spans) {
    val o = object_of({{"worker", s.worker}, {"kind", kKinds[static_cast<int>(s.kind)]}, {"start", s.start},
                       {"end", s.end}, {"iteration", s.iteration}});
    spans.call<void>("push", o);
  }
  std::vector<double> shard, worker, iteration, time, tau;
  for (const PsUpdate& u : run.updates) {
    shard.push_back(u.shard);
    worker.push_back(u.worker);
    iteration.push_back(u.iteration);
    time.push_back(u.time);
    tau.push_back(u.tau);
  }
  val updates = object_of({{"shard", to_float64_array(shard)}, {"worker", to_float64_array(worker)},
                           {"iteration", to_float64_array(iteration)}, {"time", to_float64_array(time)},
                           {"tau", to_float64_array(tau)}});
  val names = val::array();
  for (int l = 0; l < run.topology.links(); ++l) names.call<void>("push", run.topology.link_name(l));
  return object_of({{"makespan", run.makespan}, {"spans", spans}, {"updates", updates}, {"dropped", run.dropped},
                    {"roundEnd", to_float64_array(run.round_end)},
                    {"roundSeconds", to_float64_array(run.round_seconds)},
                    {"computeSeconds", to_float64_array(run.compute_seconds)},
                    {"waitSeconds", to_float64_array(run.wait_seconds)}, {"stallFraction", run.stall_fraction},
                    {"messages", run.messages}, {"bytesIntoBusiestServer", run.bytes_into_busiest_server},
                    {"linkBusy", to_float64_array(run.link_busy)}, {"linkNames", names},
                    {"busiestLink", busiest_link_to_val(run.topology, run.busiest_link, run.link_busy)}});
}

val to_val(const StaleTrainingResult& training) {
  std::vector<double> time, updates, loss;
  for (const LossPoint& p : training.curve) {
    time.push_back(p.time);
    updates.push_back(p.updates);
    loss.push_back(p.loss);
  }
  return object_of({{"time", to_float64_array(time)}, {"updates", to_float64_array(updates)},
                    {"loss", to_float64_array(loss)}, {"finalLoss", training.final_loss}});
}

val to_val(const HogwildResult& r) {
  return object_of({{"support", r.support}, {"updates", r.updates}, {"collisionRate", r.collision_rate},
                    {"predictedCollisionRate", r.predicted_collision_rate}, {"lostWrites", r.lost_writes},
                    {"lossUpdates", to_float64_array(r.loss_updates)}, {"loss", to_float64_array(r.loss)},
                    {"finalLoss", r.final_loss}});
}

val to_val(const SspStall& stall) {
  return object_of({{"waitSeconds", to_float64_array(stall.wait_seconds)},
                    {"finishSeconds", to_float64_array(stall.finish_seconds)},
                    {"stallFraction", stall.stall_fraction}});
}

val to_val(const SspClockLimits& limits) {
  return object_of({{"barrierSeconds", limits.barrier_seconds}, {"unboundedSeconds", limits.unbounded_seconds},
                    {"absorbableSeconds", limits.absorbable_seconds},
                    {"absorbableFraction", limits.absorbable_fraction}});
}

val to_val(const PsBandwidth& b) {
  return object_of({{"serverBytes", b.server_bytes}, {"serverSeconds", b.server_seconds},
                    {"workerSeconds", b.worker_seconds}, {"serversBottleneck", b.servers_bottleneck}});
}

}  // namespace dsml::bindings
