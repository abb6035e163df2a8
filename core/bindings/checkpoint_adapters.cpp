// checkpoint_adapters.cpp — see checkpoint_adapters.h. Convert, call the core, convert back.
#include "checkpoint_adapters.h"

#include "dsml/checkpointing.h"
#include "dsml/error.h"
#include "fields.h"
#include "js_object.h"
#include "training_convert.h"

namespace dsml::bindings {

val checkpoint_intervals(double checkpoint, double mtbf) {
  return object_of({{"young", dsml::young_interval(checkpoint, mtbf)},
                    {"daly", dsml::daly_interval(checkpoint, mtbf)}});
}

double first_order_overhead(double interval, double checkpoint, double mtbf) {
  return dsml::first_order_overhead(interval, checkpoint, mtbf);
}

double expected_wall_time(const val& r) {
  const std::string ctx = "expectedWallTime";
  require_object(r, ctx, "{work, interval, checkpoint, mtbf, restart?, detection?}");
  return dsml::expected_wall_time(number_field(r, "work", ctx), number_field(r, "interval", ctx),
                                  number_field(r, "checkpoint", ctx), number_field_or(r, "restart", 0, ctx),
                                  number_field(r, "mtbf", ctx), number_field_or(r, "detection", 0, ctx));
}

double optimal_interval(const val& r) {
  const std::string ctx = "optimalInterval";
  require_object(r, ctx, "{work, checkpoint, mtbf, restart?, detection?}");
  return dsml::optimal_interval(number_field(r, "work", ctx), number_field(r, "checkpoint", ctx),
                                number_field_or(r, "restart", 0, ctx), number_field(r, "mtbf", ctx),
                                number_field_or(r, "detection", 0, ctx));
}

double fleet_mtbf(double node_mtbf, double nodes) {
  return dsml::fleet_mtbf(node_mtbf, static_cast<int>(whole_value(nodes, "fleetMtbf: nodes", 1, 100000000)));
}

val simulate_checkpointing(const val& r) {
  const std::string ctx = "simulateCheckpointing";
  require_object(r, ctx, "{work, interval, checkpoint, nodeMtbf, restart?, nodes?, runs?, seed?, …}");
  CheckpointRunConfig c;  // its defaults are the fallbacks
  c.work = number_field(r, "work", ctx);
  c.interval = number_field(r, "interval", ctx);
  c.checkpoint = number_field(r, "checkpoint", ctx);
  c.restart = number_field_or(r, "restart", c.restart, ctx);
  c.nodes = static_cast<int>(whole_field_or(r, "nodes", c.nodes, ctx, 1, 1000000));
  c.node_mtbf = number_field(r, "nodeMtbf", ctx);
  c.heartbeat_period = number_field_or(r, "heartbeatPeriod", c.heartbeat_period, ctx);
  c.heartbeat_timeout = number_field_or(r, "heartbeatTimeout", c.heartbeat_timeout, ctx);
  c.runs = static_cast<int>(whole_field_or(r, "runs", c.runs, ctx, 1, 100000));
  c.seed = static_cast<std::uint64_t>(whole_field_or(r, "seed", static_cast<std::int64_t>(c.seed), ctx));
  const CheckpointStudy s = dsml::simulate_checkpointing(c);
  std::vector<double> wall, failures;
  for (const CheckpointRun& run : s.runs) {
    wall.push_back(run.wall);
    failures.push_back(run.failures);
  }
  return object_of({{"meanWall", s.mean_wall}, {"ci95", s.ci95}, {"meanFailures", s.mean_failures},
                    {"lostWorkPerFailure", s.lost_work_per_failure},
                    {"meanTimeBetweenFailures", s.mean_time_between_failures}, {"expectedWall", s.expected_wall},
                    {"wall", to_float64_array(wall)}, {"failures", to_float64_array(failures)}});
}

}  // namespace dsml::bindings
