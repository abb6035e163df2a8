// dsml/param_server.h — a parameter server simulated on a network: W workers, K server shards, four regimes.
//
// Ranks 0 … W−1 are workers, ranks W … W+K−1 the server shards; shard k holds the parameters with keys in
// [k·N/K, (k+1)·N/K) (a key range, as in Li et al. 2014). A worker's loop (Dean et al. 2012, "Downpour"):
//   compute a gradient on the parameters it holds (t from the SpeedModel) → push each shard its slice of the
//   gradient (one message per shard, sent one after another) → wait for each shard's reply, which carries that
//   shard's parameters and their version (the push-then-pull round trip) → repeat.
// Messages cross the Topology's links under the course simulator's contention rule (sim/link_table.h: a link
// carries one message at a time, a message takes its whole route or waits, FIFO), so the W pushes converging on
// one shard queue on its downlink — the star bottleneck — and link_busy shows it.
// What a shard does with a push is the consistency regime:
//   bsp     barrier per round: collect all W gradients of round r, apply their average, reply to every worker.
//   backup  Chen et al. 2016: W = P + b workers; the first P gradients of round r win, are averaged and
//           applied; the b late ones are dropped (a `dropped` record). bsp is backup with b = 0.
//           A straggler finishes its now useless gradient before starting on the new parameters (as TensorFlow's
//           SyncReplicasOptimizer does), so its next gradient is late again more often; with cancel_stragglers it
//           abandons the work as soon as the new parameters arrive, and every round is a fresh race of N
//           workers — the P-th order statistic of ps_closed_forms.h holds exactly.
//   asp     no waiting: apply each gradient at once (θ ← θ − η·g), reply at once. Its staleness τ = the shard's
//           version when applying − the version the worker computed on (Recht et al. 2011 call this delay).
//   ssp     Ho et al. 2013, bound s: like asp, but the reply to a worker that finished clock c is held until the
//           slowest worker has finished clock c − s (every worker's clock ≥ c + 1 − s), so no worker ever runs
//           more than s clocks ahead of the slowest. s = 0 is a barrier; s → ∞ is asp.
// A server applies instantly (its compute is not modelled). Deterministic: the same config gives the same run.
// Events at one instant are handled in creation order, as in dsml::simulate.
// Units: seconds, bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dsml/speed_model.h"
#include "dsml/topology.h"

namespace dsml {

enum class Consistency { bsp, asp, ssp, backup };

// "bsp", "asp", "ssp", "backup"; throws Error listing them on anything else.
Consistency parse_consistency(const std::string& name);
const char* consistency_name(Consistency consistency);

struct ParamServerConfig {
  int workers = 4;                  // W (for backup: P + b)
  int servers = 1;                  // K shards, 1 … N
  Consistency consistency = Consistency::bsp;
  int staleness = 0;                // SSP's bound s ≥ 0
  int backup = 0;                   // backup's b, 0 ≤ b < W (the server waits for P = W − b gradients)
  bool cancel_stragglers = false;   // backup: a worker still computing when its round ends abandons it (below)
  int iterations = 10;              // rounds (bsp, backup) or clocks per worker (asp, ssp), ≥ 1
  double parameters = 1e6;          // N, number of parameters ≥ 1
  double bytes_per_parameter = 4;   // > 0 (fp32)
  SpeedModel speed;                 // compute time of each worker's iterations
};

// Throws Error naming the first bad field.
void validate(const ParamServerConfig& config);
// The quota of a round: W − b for backup, W for bsp (0 for asp/ssp, which have no rounds).
int round_quota(const ParamServerConfig& config);
// E[a round's compute] where a closed form describes the run (ps_closed_forms.h: the P-th smallest of the N workers'
// compute times): bsp, and backup when every round is a fresh race of all N workers — with cancel_stragglers, or
// b = 0. Without cancel_stragglers a straggler carries its unfinished gradient into the next round, which then
// starts late for it: the simulated round is a different quantity and there is no closed form (nullopt); asp and
// ssp have no rounds (nullopt).
std::optional<double> closed_form_round_compute(const ParamServerConfig& config);
// Bytes of shard k's key range: (⌊(k+1)N/K⌋ − ⌊kN/K⌋)·bytes_per_parameter.
double shard_bytes(const ParamServerConfig& config, int shard);
// The first key of shard k: ⌊k·N/K⌋ (k = K gives N).
std::int64_t shard_begin(const ParamServerConfig& config, int shard);

// What happened, in the order the simulation did it: the log a trainer replays (stale_training.h).
struct PsOp {
  enum class Kind {
    kCompute,  // worker begins computing gradient `gradient` on the parameters it holds now
    kApply,    // shard applies gradient `gradient` alone, with staleness tau (asp, ssp)
    kAccept,   // shard adds gradient `gradient` to its round's sum (bsp, backup)
    kAverage,  // shard applies the average of its round's `count` accepted gradients
    kDrop,     // shard drops late gradient `gradient` (backup)
    kCancel,   // worker abandons gradient `gradient` before pushing it (cancel_stragglers)
    kSend,     // shard copies its parameters into reply `message`
    kReceive,  // worker installs reply `message` into its copy of shard `shard`
  };
  Kind kind = Kind::kCompute;
  double time = 0.0;  // s
  int worker = -1;
  int shard = -1;
  int gradient = -1;  // 0, 1, … in compute order; gradient g was computed by worker `worker`, iteration `iteration`
  int iteration = 0;  // the worker's iteration (clock) of that gradient
  int tau = 0;        // kApply: staleness; kAccept: 0
  int count = 0;      // kAverage: gradients averaged
  int message = -1;   // kSend, kReceive
};

// What a worker was doing over [start, end).
struct PsSpan {
  enum class Kind { kCompute, kPush, kWait };  // push: its K sends; wait: for the replies (incl. any barrier)
  int worker = 0;
  Kind kind = Kind::kCompute;
  double start = 0.0;
  double end = 0.0;
  int iteration = 0;
};

// One applied gradient (per shard): who, when, and how stale.
struct PsUpdate {
  int shard = 0;
  int worker = 0;
  int iteration = 0;
  double time = 0.0;  // s
  int tau = 0;        // 0 for bsp/backup (a round's gradients are all computed on its parameters)
};

struct ParamServerResult {
  double makespan = 0.0;                 // the last worker finished, s
  std::vector<PsSpan> spans;             // sorted by (worker, start)
  std::vector<PsUpdate> updates;         // in the order applied
  int dropped = 0;                       // backup: late gradients dropped (counted per shard)
  std::vector<double> round_end;         // r-th entry: when every shard finished round/clock r, s
  std::vector<double> round_seconds;     // round_end[r] − round_end[r−1] (round_end[−1] = 0)
  std::vector<double> compute_seconds;   // per worker, total
  std::vector<double> wait_seconds;      // per worker, total time waiting for replies (barrier, SSP hold, network)
  double stall_fraction = 0.0;           // Σ wait / Σ (compute + push + wait) over workers
  std::vector<double> link_busy;         // per link, s (as in SimResult)
  int busiest_link = -1;                 // −1 if no link was busy
  double bytes_into_busiest_server = 0;  // bytes of the pushes received by the most loaded shard
  int messages = 0;
  std::vector<PsOp> ops;                 // the replay log
  Topology topology;
};

// Throws Error on a bad config or a topology whose rank count is not W + K.
ParamServerResult simulate_param_server(const Topology& topology, const ParamServerConfig& config);

// The network Week 4 runs a parameter server on: its W workers and K shards on one switch, every rank its own
// port, every link at `link` (Topology::fully_connected(W + K, link)).
Topology param_server_topology(const ParamServerConfig& config, const CostModel& link);

}  // namespace dsml
