// ps_fields.cpp — the parameter-server results as field tables (dsml/ps_fields.h): each field's one name, its unit
// and its meaning, written once for the wasm objects, `dsml ps` / `dsml hogwild`'s JSON and param_server.d.ts.
#include "dsml/ps_fields.h"

#include <string>
#include <vector>

namespace dsml {
namespace {

const char* span_kind(const PsSpan& s) {
  static const char* const kKinds[] = {"compute", "push", "wait"};
  return kKinds[static_cast<int>(s.kind)];
}

const FieldTable& span_fields() {
  static const FieldTable table{
      "PsSpan", "What one worker did from start to end; wait = for the replies (barrier, SSP hold, network).",
      {field::number<&PsSpan::worker>("worker", "", "the worker"),
       field::text<&span_kind>("kind", "compute|push|wait", "computing a gradient, sending it, or waiting"),
       field::number<&PsSpan::start>("start", "s", "from the start of the run"),
       field::number<&PsSpan::end>("end", "s", "from the start of the run"),
       field::number<&PsSpan::iteration>("iteration", "", "its round (bsp, backup) or clock (asp, ssp)")}};
  return table;
}

// The applied updates as columns: entry i of each is update i, in the order applied.
template <auto Member>
std::vector<double> update_column(const ParamServerResult& r) {
  std::vector<double> out;
  out.reserve(r.updates.size());
  for (const PsUpdate& u : r.updates) out.push_back(static_cast<double>(u.*Member));
  return out;
}

const ParamServerResult& itself(const ParamServerResult& r) { return r; }

const FieldTable& update_fields() {
  static const FieldTable table{
      "PsUpdates", "One entry per applied gradient per shard, in the order applied.",
      {field::column<&update_column<&PsUpdate::shard>>("shard", "", "the shard that applied it"),
       field::column<&update_column<&PsUpdate::worker>>("worker", "", "the worker that computed it"),
       field::column<&update_column<&PsUpdate::iteration>>("iteration", "", "its round or clock"),
       field::column<&update_column<&PsUpdate::time>>("time", "s", "when the shard applied it"),
       field::column<&update_column<&PsUpdate::tau>>("tau", "",
                                                     "its staleness: updates applied since its parameters were "
                                                     "read (0 under bsp and backup)")}};
  return table;
}

std::vector<std::string> link_names(const ParamServerResult& r) {
  std::vector<std::string> names;
  for (int l = 0; l < r.topology.links(); ++l) names.push_back(r.topology.link_name(l));
  return names;
}

// The busiest link, read from the run itself (null when no link carried data).
const ParamServerResult* busiest(const ParamServerResult& r) { return r.busiest_link >= 0 ? &r : nullptr; }
std::string busiest_name(const ParamServerResult& r) { return r.topology.link_name(r.busiest_link); }
double busiest_busy(const ParamServerResult& r) { return r.link_busy[static_cast<std::size_t>(r.busiest_link)]; }

const FieldTable& link_busy_fields() {
  static const FieldTable table{"LinkBusy",
                                "A link and how long it carried data.",
                                {field::text<&busiest_name>("name", "", "e.g. \"down 6\""),
                                 field::number<&busiest_busy>("busy", "s", "the time it carried data")}};
  return table;
}

template <double LossPoint::*Member>
std::vector<double> curve_column(const StaleTrainingResult& t) {
  std::vector<double> out;
  out.reserve(t.curve.size());
  for (const LossPoint& p : t.curve) out.push_back(p.*Member);
  return out;
}

}  // namespace

const FieldTable& param_server_run_fields() {
  static const FieldTable table{
      "ParamServerRun",
      "A parameter server simulated under a consistency regime (simulate_param_server): workers 0 … W−1 and shards "
      "W … W+K−1 on a switch.",
      {field::number<&ParamServerResult::makespan>("makespan", "s", "until the last worker finished"),
       field::optional(field::objects<&ParamServerResult::spans>(
           "spans", "", "what each worker did, sorted by (worker, start); only when the request asks (spans: true)",
           span_fields())),
       field::object<&itself>("updates", "", "every applied gradient, as columns", update_fields()),
       field::number<&ParamServerResult::dropped>("dropped", "", "backup: late gradients dropped (per shard)"),
       field::column<&ParamServerResult::round_end>("roundEnd", "s",
                                                    "per round or clock, when every shard finished it"),
       field::column<&ParamServerResult::round_seconds>("roundSeconds", "s",
                                                        "per round or clock, roundEnd's differences"),
       field::column<&ParamServerResult::compute_seconds>("computeSeconds", "s", "per worker, computing"),
       field::column<&ParamServerResult::wait_seconds>("waitSeconds", "s",
                                                       "per worker, waiting for replies (barrier, SSP hold, network)"),
       field::number<&ParamServerResult::stall_fraction>("stallFraction", "", "Σ wait / Σ worker time"),
       field::number<&ParamServerResult::messages>("messages", "", "messages sent: pushes and replies"),
       field::number<&ParamServerResult::bytes_into_busiest_server>("bytesIntoBusiestServer", "bytes",
                                                                    "the pushes the most loaded shard received"),
       field::column<&ParamServerResult::link_busy>("linkBusy", "s", "per link, the time it carried data"),
       field::texts<&link_names>("linkNames", "per link, its name (\"down 6\" = shard 0's downlink when W = 6)"),
       field::maybe<&busiest>("busiestLink", "", "the busiest link, null when no link was used", link_busy_fields())}};
  return table;
}

const FieldTable& stale_training_curve_fields() {
  static const FieldTable table{
      "StaleTrainingCurve",
      "The servers' model on a held-out batch: first at the start, then after each shard update (1/K of an update).",
      {field::column<&curve_column<&LossPoint::time>>("time", "s", "when"),
       field::column<&curve_column<&LossPoint::updates>>("updates", "", "updates applied by then"),
       field::column<&curve_column<&LossPoint::loss>>("loss", "", "the held-out loss"),
       field::number<&StaleTrainingResult::final_loss>("finalLoss", "", "the held-out loss at the end")}};
  return table;
}

const FieldTable& hogwild_fields() {
  static const FieldTable table{
      "HogwildResult", "Hogwild! on sparse least squares: lockstep waves of T threads (simulate_hogwild).",
      {field::number<&HogwildResult::support>("support", "", "k = max(1, round(sparsity·features))"),
       field::number<&HogwildResult::updates>("updates", "", "updates done: waves·T"),
       field::number<&HogwildResult::collision_rate>("collisionRate", "", "colliding updates / updates, measured"),
       field::number<&HogwildResult::predicted_collision_rate>("predictedCollisionRate", "",
                                                               "1 − q^(T−1), q = C(n−k, k)/C(n, k)"),
       field::number<&HogwildResult::lost_writes>("lostWrites", "",
                                                  "atomic = false: writes overwritten by a later stale write"),
       field::column<&HogwildResult::loss_updates>("lossUpdates", "", "updates done when each loss was measured"),
       field::column<&HogwildResult::loss>("loss", "", "the loss at lossUpdates"),
       field::number<&HogwildResult::final_loss>("finalLoss", "", "the loss at the end")}};
  return table;
}

const FieldTable& ssp_stall_fields() {
  static const FieldTable table{
      "SspStall",
      "SSP's waiting with fixed speeds and a free network: finish_w = max(I·t_w, (I−s)⁺·t_max) "
      "(ssp_stall_fixed_speeds).",
      {field::column<&SspStall::wait_seconds>("waitSeconds", "s", "per worker, waiting"),
       field::column<&SspStall::finish_seconds>("finishSeconds", "s", "per worker, when it finished"),
       field::number<&SspStall::stall_fraction>("stallFraction", "", "Σ wait / Σ finish")}};
  return table;
}

const FieldTable& ssp_clock_limits_fields() {
  static const FieldTable table{
      "SspClockLimits",
      "What SSP can absorb, compute only: the seconds per clock at s = 0 and as s → ∞ (ssp_clock_limits).",
      {field::number<&SspClockLimits::barrier_seconds>("barrierSeconds", "s", "s = 0: E[max_w t], the barrier"),
       field::number<&SspClockLimits::unbounded_seconds>("unboundedSeconds", "s",
                                                         "s → ∞: max_w E[t], each worker at its own mean pace"),
       field::number<&SspClockLimits::absorbable_seconds>("absorbableSeconds", "s",
                                                          "barrier − unbounded: all a bound s can remove per clock"),
       field::number<&SspClockLimits::absorbable_fraction>("absorbableFraction", "", "absorbable / barrier")}};
  return table;
}

const FieldTable& ps_bandwidth_fields() {
  static const FieldTable table{
      "PsBandwidth", "One round of pushes on a switch: W workers, K shards, S bytes of parameters (ps_bandwidth).",
      {field::number<&PsBandwidth::server_bytes>("serverBytes", "bytes", "W·S/K into one shard"),
       field::number<&PsBandwidth::server_seconds>("serverSeconds", "s", "W·(α + β·S/K) on that shard's downlink"),
       field::number<&PsBandwidth::worker_seconds>("workerSeconds", "s", "K·α + β·S on a worker's uplink"),
       field::flag<&PsBandwidth::servers_bottleneck>("serversBottleneck", "serverSeconds > workerSeconds")}};
  return table;
}

}  // namespace dsml
