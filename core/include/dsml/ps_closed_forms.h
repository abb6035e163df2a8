// dsml/ps_closed_forms.h — what the parameter-server simulator should show, in closed form (Week 4).
//
// Each is tested against simulate_param_server (test_ps_closed_forms.cpp) within a stated tolerance.
//   Straggler barrier. A synchronous round lasts as long as its slowest worker: E[max of P compute times].
//     P iid Exp(mean μ): E[max] = μ·H_P, H_P = 1 + 1/2 + … + 1/P (Rényi's representation of order statistics).
//   Backup workers (Chen et al. 2016). With N = P + b workers and the first P winning, a round lasts the P-th
//     smallest of N: for iid Exp(mean μ), E[T_(P:N)] = μ·(H_N − H_b).
//   In general (any SpeedModel, any multipliers) E[T_(P:N)] = ∫₀^∞ P(fewer than P of N done by t) dt, the
//     probability from the Poisson-binomial of the workers' CDFs — integrated exactly for step CDFs (fixed,
//     slow-node) and by composite Simpson (≈1e-9 relative) for the continuous ones.
//   SSP stall (Ho et al. 2013). With fixed compute times t_w, slowest t_max, I clocks, bound s and no
//     communication cost, a worker's pull after clock c returns once the slowest has finished clock c − s, so
//     worker w finishes (its last pull answered) at F_w = max(I·t_w, (I−s)⁺·t_max) and waits F_w − I·t_w;
//     stall = Σ waits / Σ F_w. For random speeds
//     there is no closed form we know of: s = 0 is a barrier (long-run stall 1 − E[t]/E[max t]; for iid
//     exponentials 1 − 1/H_W), and the stall is non-increasing in s (a larger s only releases replies earlier).
//     The often-quoted "stall = 1/(s+1)" is not a law: with fixed speeds a fast worker's wait falls only linearly
//     in s and vanishes at s ≥ I·(1 − t_w/t_max) — a bound s only postpones waiting for a slower machine.
//   What SSP can absorb. Over many clocks the run's seconds per clock lie between two limits. At s = 0 (BSP)
//     every clock waits for the slowest: E[max_w t(w, c)] (the straggler barrier). As s → ∞ (ASP) nobody waits for
//     anybody and each worker runs at its own mean pace, so the run finishes with the slowest on average:
//     max_w E[t(w, c)] = base·max_w m_w·E[X] (the law of large numbers over its I clocks). Their difference is all a
//     bound s can ever remove. A permanently slow worker (fixed speeds) makes the two equal — nothing to absorb: the
//     throughput is the slowest worker's rate whatever s is. Slowness drawn afresh each round (per-round, or any
//     noise) makes E[max] > max E: for six workers drawing from [1, 1, 1, 1, 3, 5], 4.16 against 2 clocks of base.
//   PS bandwidth. Per round each of W workers pushes S/K bytes to each of K shards: a shard receives W·S/K
//     bytes, and on a switch its downlink is busy W·(α + β·S/K); a worker's uplink is busy K·α + β·S.
//     The servers stop being the bottleneck once W·(α + β·S/K) ≤ K·α + β·S = K·(α + β·S/K), i.e. at K = W.
#pragma once

#include <vector>

#include "dsml/cost_model.h"
#include "dsml/speed_model.h"

namespace dsml {

double harmonic_number(int n);  // H_n, H_0 = 0

// μ·H_P. Throws Error unless P ≥ 1, μ > 0.
double expected_max_exponential(int workers, double mean_seconds);
// μ·(H_N − H_{N−P}), the P-th smallest of N iid Exp(mean μ). Throws unless 1 ≤ P ≤ N.
double expected_order_statistic_exponential(int quota, int workers, double mean_seconds);

// E[P-th smallest of the N = workers compute times t(w, ·)] under `model` (its multipliers included).
// quota = workers gives the straggler barrier E[max]. Throws unless 1 ≤ quota ≤ workers and the model is valid.
double expected_round_compute(const SpeedModel& model, int workers, int quota);

// SSP with fixed per-worker times (the model's base·multipliers; the distribution must be fixed), I clocks, bound s,
// no communication: each worker's waiting time and the stall fraction Σ waits / Σ finish times.
struct SspStall {
  std::vector<double> wait_seconds;
  std::vector<double> finish_seconds;
  double stall_fraction = 0.0;
};
SspStall ssp_stall_fixed_speeds(const SpeedModel& model, int workers, int iterations, int staleness);

// The two limits of SSP's seconds per clock above (compute only, no network). Throws as validate(model, workers).
struct SspClockLimits {
  double barrier_seconds = 0.0;      // s = 0: E[max_w t(w, c)], = expected_round_compute(model, W, W)
  double unbounded_seconds = 0.0;    // s → ∞: max_w E[t(w, c)] = base·max_w m_w·E[X]
  double absorbable_seconds = 0.0;   // barrier − unbounded (≥ 0): what a bound s can at most remove per clock
  double absorbable_fraction = 0.0;  // absorbable / barrier
};
SspClockLimits ssp_clock_limits(const SpeedModel& model, int workers);

// One round of pushes on a switch (fully_connected topology), model (α, β), W workers, S bytes of parameters
// split evenly over K shards (the largest shard ⌈N/K⌉ keys when it does not divide; pass its bytes here).
struct PsBandwidth {
  double server_bytes = 0.0;     // W·S/K into one shard
  double server_seconds = 0.0;   // W·(α + β·S/K) on that shard's downlink
  double worker_seconds = 0.0;   // K·α + β·S on a worker's uplink
  bool servers_bottleneck = false;  // server_seconds > worker_seconds
};
PsBandwidth ps_bandwidth(const CostModel& model, int workers, int servers, double parameter_bytes);
// The fewest shards K (1 … 4096) with server_seconds ≤ worker_seconds; throws if none up to 4096.
int ps_servers_to_balance(const CostModel& model, int workers, double parameter_bytes);

}  // namespace dsml
