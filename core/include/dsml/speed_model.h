// dsml/speed_model.h — how long a worker's iteration takes: the stragglers of Week 4.
//
// A worker's compute time for iteration c is
//   t(w, c) = base_seconds · m_w · X(w, c)        m_w: the worker's fixed multiplier (1 when none is given)
// where X is a random factor, drawn from one of five distributions:
//   fixed         X = 1                                  (speeds [1,1,1,1,3,5] → worker 5 always takes 5·base)
//   per-round     X = one entry of round_speeds, each equally likely, drawn afresh by every worker every round
//                 (round_speeds [1,1,1,1,3,5] → any worker is 5× slow in a sixth of its rounds: the seed notebook's
//                 stragglers, which come and go, where the fixed model's worker 5 is slow in all of them)
//   exponential   X ~ Exp(1)                             (E[max of P iid] = H_P, the harmonic number)
//   lognormal     X = exp(σZ − σ²/2), Z ~ N(0, 1)        (heavy right tail; mean 1 for every σ)
//   slow-node     X = slowdown with probability p, else 1 (a machine hit by a noisy neighbour: Dean & Barroso 2013)
// The mean of X is 1 except for slow-node (1 + p·(slowdown − 1)) and per-round (the list's mean), so m_w reads as
// "worker w is m_w times slower".
// X(w, c) is a pure function of (seed, w, c): counter-based, so a draw never depends on the order in which a
// simulator asks for it, and natively and in wasm the same seed gives the same times.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dsml {

enum class SpeedDistribution { fixed, exponential, lognormal, slow_node, per_round };

// "fixed", "exponential", "lognormal", "slow-node", "per-round"; throws Error listing them on anything else.
SpeedDistribution parse_speed_distribution(const std::string& name);
const char* speed_distribution_name(SpeedDistribution distribution);

struct SpeedModel {
  SpeedDistribution distribution = SpeedDistribution::fixed;
  double base_seconds = 1.0;         // > 0: one iteration of an unslowed worker, s
  std::vector<double> multipliers;   // m_w > 0 per worker; empty = all 1; else one per worker
  double sigma = 0.5;                // lognormal σ ≥ 0
  double slow_probability = 0.1;     // slow-node p ∈ [0, 1]
  double slowdown = 4.0;             // slow-node factor ≥ 1
  std::vector<double> round_speeds;  // per-round: the list X is drawn from (each entry > 0, 1 … 1024 of them)
  std::uint64_t seed = 0;
};

// Sets the per-round list X (`dsml ps --round-speeds`, a request's roundSpeeds). With no distribution named the list
// alone means the per-round model; with another one named, validate says the list is per-round's.
void set_round_speeds(SpeedModel& model, std::vector<double> speeds, bool distribution_named);

// Throws Error naming the bad field; `workers` ≥ 1 must equal multipliers.size() when that is not empty;
// round_speeds must be given for per-round and only for it.
void validate(const SpeedModel& model, int workers);

// m_w (1 when no multipliers are given).
double speed_multiplier(const SpeedModel& model, int worker);
// t(w, c), s. Expects a validated model.
double iteration_seconds(const SpeedModel& model, int worker, std::int64_t iteration);
// t(w, c) for c = 0 … iterations − 1 of each worker: times[w][c]. Validates.
std::vector<std::vector<double>> sample_iteration_times(const SpeedModel& model, int workers, int iterations);

// The distribution of X: P(X ≤ x) and E[X] (closed forms; the order statistics of closed_forms.h integrate them).
double speed_factor_cdf(const SpeedModel& model, double x);
double speed_factor_mean(const SpeedModel& model);

}  // namespace dsml
