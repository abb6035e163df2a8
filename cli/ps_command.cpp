// ps_command.cpp — `dsml ps` and `dsml hogwild` (usage in main.cpp), each printing one line of JSON.
//
//   $ dsml ps --regime ssp --staleness 2 --workers 6 --servers 2 --iterations 50 --speed fixed --speeds 1,1,1,1,3,5
//       --base 0.01 --parameters 1e6 --alpha 5e-6 --bandwidth 1e10
//   $ dsml ps --regime ssp --staleness 8 --workers 6 --iterations 50 --round-speeds 1,1,1,1,3,5 --base 0.01 ...
//       (per-round: every worker draws its slowness from the list each clock, instead of worker w always list[w])
#include "ps_command.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "args.h"
#include "dsml/hogwild.h"
#include "dsml/param_server.h"
#include "dsml/ps_closed_forms.h"
#include "dsml/ps_fields.h"
#include "dsml/stale_training.h"
#include "json_fields.h"
#include "json_output.h"
#include "network_flags.h"
#include "train_command.h"

namespace dsml::cli {
namespace {

SpeedModel speed_flags(const Args& args) {
  SpeedModel m;
  m.distribution = parse_speed_distribution(args.has("speed") ? args.text("speed") : "fixed");
  m.base_seconds = args.number_or("base", 1.0);
  if (args.has("speeds")) m.multipliers = args.numbers("speeds");
  if (args.has("round-speeds")) set_round_speeds(m, args.numbers("round-speeds"), args.has("speed"));
  m.sigma = args.number_or("sigma", m.sigma);
  m.slow_probability = args.number_or("slow-probability", m.slow_probability);
  m.slowdown = args.number_or("slowdown", m.slowdown);
  m.seed = args.seed();
  return m;
}

// {"mean", "max", "histogram": [count of τ = 0, 1, …]}
JsonObject staleness_json(const std::vector<PsUpdate>& updates) {
  std::vector<double> histogram;
  double sum = 0;
  for (const PsUpdate& u : updates) {
    if (static_cast<int>(histogram.size()) <= u.tau) histogram.resize(static_cast<std::size_t>(u.tau) + 1, 0.0);
    histogram[u.tau] += 1;
    sum += u.tau;
  }
  return JsonObject()
      .add("mean", updates.empty() ? 0.0 : sum / static_cast<double>(updates.size()))
      .add("max", static_cast<double>(histogram.empty() ? 0 : histogram.size() - 1))
      .add("histogram", histogram);
}

}  // namespace

int ps(int argc, char** argv) {
  const Args args("ps", argc, argv, 2,
                  {"regime", "workers", "servers", "staleness", "backup", "iterations", "parameters",
                   "bytes-per-parameter", "speed", "speeds", "round-speeds", "base", "sigma", "slow-probability", "slowdown", "seed",
                   "alpha", "beta", "bandwidth", "layers", "width", "hidden", "batch", "lr", "eval-batch", "loss-at"},
                  {"train", "staleness-aware", "cancel-stragglers"});
  ParamServerConfig c;
  c.consistency = parse_consistency(args.text("regime"));
  c.workers = args.whole("workers");
  c.servers = args.whole_or("servers", 1);
  c.staleness = args.whole_or("staleness", 0);
  c.backup = args.whole_or("backup", 0);
  if (args.has("staleness") && c.consistency != Consistency::ssp)
    throw UsageError("--staleness is SSP's bound: use it with --regime ssp");
  c.cancel_stragglers = args.has("cancel-stragglers");
  c.iterations = args.whole("iterations");
  c.parameters = args.number_or("parameters", 1e6);
  c.bytes_per_parameter = args.number_or("bytes-per-parameter", 4);
  c.speed = speed_flags(args);
  const CostModel net = model_from(args);
  const bool train = args.has("train");
  if (!train)
    for (const char* flag : {"layers", "width", "hidden", "batch", "lr", "eval-batch", "staleness-aware", "loss-at"})
      if (args.has(flag)) throw UsageError(std::string("--") + flag + " only applies with --train");
  StaleTrainingConfig t;
  if (train) {
    if (args.has("parameters")) throw UsageError("--train sets the parameters to the model's; drop --parameters");
    t.model = model_flags(args);
    t.batch_per_worker = args.whole_or("batch", 8);
    t.lr = args.number_or("lr", 0.05);
    t.staleness_aware = args.has("staleness-aware");
    t.eval_batch = args.whole_or("eval-batch", 64);
    t.seed = c.speed.seed;
    c.parameters = static_cast<double>(parameter_count(t.model));
  }
  validate(c);
  const Topology topology = param_server_topology(c, net);
  ParamServerTraining out;
  if (train) out = train_param_server(topology, c, t); else out.run = simulate_param_server(topology, c);
  const ParamServerResult& r = out.run;

  // The run's fields as simulateParamServer gives them (dsml/ps_fields.h) but the per-event and per-round lists,
  // which the summaries after them stand for.
  static const FieldTable summary =
      pick(param_server_run_fields(), {"makespan", "dropped", "computeSeconds", "waitSeconds", "stallFraction",
                                       "messages", "bytesIntoBusiestServer", "busiestLink"},
           "ParamServerRun");
  const auto& rounds = r.round_seconds;
  JsonObject json;
  json.add_text("regime", consistency_name(c.consistency))
      .add("workers", c.workers)
      .add("servers", c.servers)
      .add("backup", c.backup)
      .add_bool("cancel_stragglers", c.cancel_stragglers)
      .add_fields(fields_json(summary, r))
      .add("round_mean_s", std::accumulate(rounds.begin(), rounds.end(), 0.0) / static_cast<double>(rounds.size()))
      .add("round_max_s", *std::max_element(rounds.begin(), rounds.end()))
      .add("update_count", static_cast<double>(r.updates.size()))
      .add_object("staleness", staleness_json(r.updates));
  // Closed forms beside the simulation: a round's compute (the P-th of N workers, null where no closed form
  // describes the simulated round) and one round's push traffic (psBandwidth's fields).
  if (const std::optional<double> round = closed_form_round_compute(c)) {
    json.add("closed_form_round_compute_s", *round);
  } else {
    json.add_null("closed_form_round_compute_s");
  }
  json.add_object("closed_form_push_round",
                  fields_json(ps_bandwidth(net, c.workers, c.servers, c.parameters * c.bytes_per_parameter)));
  // What SSP can absorb (compute only; sspClockLimits' fields): seconds per clock at s = 0 (E[max]) and as s → ∞
  // (the slowest mean). Only for the regime it describes.
  if (c.consistency == Consistency::ssp)
    json.add_object("ssp_clock_limits", fields_json(ssp_clock_limits(c.speed, c.workers)));
  if (train) {
    const auto& curve = out.training.curve;
    json.add_object("training", JsonObject()
                                    .add("parameters", c.parameters)
                                    .add("initial_loss", curve.front().loss)
                                    .add("final_loss", out.training.final_loss)
                                    .add("final_time_s", curve.back().time)
                                    .add("final_updates", curve.back().updates));
    if (args.has("loss-at")) {  // the servers' model as it stood at simulated time S: regimes compared at equal time
      const double at = args.number("loss-at");
      if (!(at >= 0)) throw UsageError("--loss-at must be a time >= 0 (s), got " + args.text("loss-at"));
      const auto after = std::upper_bound(curve.begin(), curve.end(), at,
                                          [](double t, const LossPoint& p) { return t < p.time; });
      const LossPoint& p = *(after - 1);  // the first point is at time 0
      json.add_object("loss_at", JsonObject().add("time_s", at).add("loss", p.loss).add("updates", p.updates)
                                     .add_bool("run_over", at > curve.back().time));
    }
  }
  print(json);
  return 0;
}

int hogwild(int argc, char** argv) {
  const Args args("hogwild", argc, argv, 2, {"threads", "features", "sparsity", "updates", "lr", "seed", "points"},
                  {"no-atomic"});
  HogwildConfig c;
  c.threads = args.whole("threads");
  c.features = args.whole_or("features", c.features);
  c.sparsity = args.number("sparsity");
  c.updates = args.whole_or("updates", c.updates);
  c.lr = args.number_or("lr", c.lr);
  c.points = args.whole_or("points", c.points);
  c.atomic = !args.has("no-atomic");
  c.seed = args.seed();
  const HogwildResult r = simulate_hogwild(c);
  // hogwild's fields (dsml/ps_fields.h) but the loss curve, which initial_loss and final_loss stand for.
  static const FieldTable summary = omit(hogwild_fields(), {"lossUpdates", "loss"}, "HogwildResult");
  print(JsonObject().add("threads", c.threads).add_fields(fields_json(summary, r)).add("initial_loss", r.loss.front()));
  return 0;
}

}  // namespace dsml::cli
