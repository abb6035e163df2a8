// checkpoint_command.cpp — `dsml checkpoint` (usage in main.cpp): Young's and Daly's intervals, the expected wall
// time, and (with --runs) a simulation of failures with rollback beside it.
//
//   $ dsml checkpoint --work 360000 --checkpoint 300 --restart 600 --nodes 10000 --node-mtbf 1.8e8 --runs 200
#include <string>

#include "args.h"
#include "dsml/checkpointing.h"
#include "fault_tolerance_commands.h"
#include "json_output.h"
#include "network_flags.h"

namespace dsml::cli {

int checkpoint(int argc, char** argv) {
  const Args args("checkpoint", argc, argv, 2,
                  {"work", "interval", "checkpoint", "restart", "nodes", "node-mtbf", "mtbf", "heartbeat-period",
                   "heartbeat-timeout", "runs", "seed"});
  CheckpointRunConfig c;
  c.work = args.number("work");
  c.checkpoint = args.number("checkpoint");
  c.restart = args.number_or("restart", 0.0);
  c.nodes = args.whole_or("nodes", 1);
  if (args.has("mtbf") == args.has("node-mtbf"))
    throw UsageError("give --mtbf (the fleet's, s) or --node-mtbf (one node's, s, with --nodes), exactly one");
  c.node_mtbf = args.has("mtbf") ? args.number("mtbf") * c.nodes : args.number("node-mtbf");
  c.heartbeat_period = args.number_or("heartbeat-period", 0.0);
  c.heartbeat_timeout = args.number_or("heartbeat-timeout", 0.0);
  const double m = fleet_mtbf(c.node_mtbf, c.nodes);
  const double d = mean_detection_delay(c.heartbeat_period, c.heartbeat_timeout);
  const double young = young_interval(c.checkpoint, m), daly = daly_interval(c.checkpoint, m);
  c.interval = args.number_or("interval", daly);
  const double best = optimal_interval(c.work, c.checkpoint, c.restart, m, d);
  JsonObject json;
  json.add("fleet_mtbf_s", m)
      .add("young_interval_s", young)
      .add("daly_interval_s", daly)
      .add("optimal_interval_s", best)
      .add("interval_s", c.interval)
      .add("first_order_overhead", first_order_overhead(c.interval, c.checkpoint, m))
      .add("expected_wall_s", expected_wall_time(c.work, c.interval, c.checkpoint, c.restart, m, d))
      .add("expected_wall_young_s", expected_wall_time(c.work, young, c.checkpoint, c.restart, m, d))
      .add("expected_wall_daly_s", expected_wall_time(c.work, daly, c.checkpoint, c.restart, m, d))
      .add("expected_wall_no_checkpoints_s", expected_wall_time(c.work, c.work, 0.0, c.restart, m, d))
      .add("expected_failures", expected_wall_time(c.work, c.interval, c.checkpoint, c.restart, m, d) / m)
      .add("expected_lost_work_per_failure_s", expected_lost_work(c.interval + c.checkpoint, m))
      .add("mean_detection_s", d);
  if (args.has("runs")) {
    c.runs = args.whole("runs");
    c.seed = args.seed();
    const CheckpointStudy s = simulate_checkpointing(c);
    json.add_object("simulated", JsonObject()
                                     .add("runs", c.runs)
                                     .add("mean_wall_s", s.mean_wall)
                                     .add("ci95_s", s.ci95)
                                     .add("mean_failures", s.mean_failures)
                                     .add("lost_work_per_failure_s", s.lost_work_per_failure)
                                     .add("mean_time_between_failures_s", s.mean_time_between_failures)
                                     .add("expected_wall_s", s.expected_wall));
  }
  print(json);
  return 0;
}

}  // namespace dsml::cli
