// ps_closed_forms.cpp — order statistics of stragglers, SSP's stall, the PS bandwidth bound (dsml/ps_closed_forms.h).
#include "dsml/ps_closed_forms.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "dsml/error.h"

namespace dsml {
namespace {

// P(at least `quota` of the workers are done by t): Poisson-binomial DP over the workers' CDFs.
double prob_done(const SpeedModel& model, int workers, int quota, double t) {
  std::vector<double> done(static_cast<std::size_t>(workers) + 1, 0.0);  // done[j] = P(exactly j done)
  done[0] = 1.0;
  for (int w = 0; w < workers; ++w) {
    const double p = speed_factor_cdf(model, t / (model.base_seconds * speed_multiplier(model, w)));
    for (int j = w + 1; j >= 1; --j) done[j] = done[j] * (1.0 - p) + done[j - 1] * p;
    done[0] *= 1.0 - p;
  }
  double at_least = 0.0;
  for (int j = quota; j <= workers; ++j) at_least += done[j];
  return at_least;
}

void check_quota(int quota, int workers) {
  if (workers < 1) throw Error("workers must be >= 1, got " + std::to_string(workers));
  if (quota < 1 || quota > workers)
    throw Error("the quota P must be in [1, workers = " + std::to_string(workers) + "], got " + std::to_string(quota));
}

}  // namespace

double harmonic_number(int n) {
  double h = 0.0;
  for (int i = n; i >= 1; --i) h += 1.0 / i;  // smallest terms first
  return h;
}

double expected_max_exponential(int workers, double mean_seconds) {
  return expected_order_statistic_exponential(workers, workers, mean_seconds);
}

double expected_order_statistic_exponential(int quota, int workers, double mean_seconds) {
  check_quota(quota, workers);
  require_positive("mean compute time (s)", mean_seconds);
  // Rényi: the gaps between successive order statistics of N Exp(1) are Exp(1)/N, Exp(1)/(N−1), …
  return mean_seconds * (harmonic_number(workers) - harmonic_number(workers - quota));
}

double expected_round_compute(const SpeedModel& model, int workers, int quota) {
  check_quota(quota, workers);
  validate(model, workers);
  double m_max = 0.0;
  for (int w = 0; w < workers; ++w) m_max = std::max(m_max, speed_multiplier(model, w));
  const double scale = model.base_seconds * m_max;
  const bool steps = model.distribution == SpeedDistribution::fixed ||
                     model.distribution == SpeedDistribution::slow_node ||
                     model.distribution == SpeedDistribution::per_round ||
                     (model.distribution == SpeedDistribution::lognormal && model.sigma == 0.0);
  if (steps) {
    // The CDF only jumps at base·m_w·x for x ∈ {1, slowdown} (per-round: x in the list): integrate the survival
    // function piece by piece.
    std::vector<double> jumps{0.0};
    for (int w = 0; w < workers; ++w) {
      const double t = model.base_seconds * speed_multiplier(model, w);
      jumps.push_back(t);
      if (model.distribution == SpeedDistribution::slow_node) jumps.push_back(t * model.slowdown);
      if (model.distribution == SpeedDistribution::per_round)
        for (double v : model.round_speeds) jumps.push_back(t * v);
    }
    std::sort(jumps.begin(), jumps.end());
    double integral = 0.0;
    for (std::size_t i = 1; i < jumps.size(); ++i)
      integral += (jumps[i] - jumps[i - 1]) * (1.0 - prob_done(model, workers, quota, jumps[i - 1]));
    return integral;
  }
  // Continuous: Simpson on [0, upper], upper past where every worker is done with probability 1 − 1e-15.
  const double upper =
      scale * (model.distribution == SpeedDistribution::exponential
                   ? std::log(1e15 * workers)
                   : std::exp(8.5 * model.sigma - 0.5 * model.sigma * model.sigma));
  const int intervals = 20000;  // even
  const double h = upper / intervals;
  double sum = 0.0;
  for (int i = 0; i <= intervals; ++i) {
    const double weight = (i == 0 || i == intervals) ? 1.0 : (i % 2 ? 4.0 : 2.0);
    sum += weight * (1.0 - prob_done(model, workers, quota, i * h));
  }
  return sum * h / 3.0;
}

SspStall ssp_stall_fixed_speeds(const SpeedModel& model, int workers, int iterations, int staleness) {
  validate(model, workers);
  if (model.distribution != SpeedDistribution::fixed)
    throw Error("the SSP stall closed form needs fixed speeds, got the " +
                std::string(speed_distribution_name(model.distribution)) + " model");
  if (iterations < 1) throw Error("iterations must be >= 1, got " + std::to_string(iterations));
  if (staleness < 0) throw Error("staleness bound s must be >= 0, got " + std::to_string(staleness));
  double t_max = 0.0;
  for (int w = 0; w < workers; ++w) t_max = std::max(t_max, model.base_seconds * speed_multiplier(model, w));
  SspStall out;
  double waits = 0.0, total = 0.0;
  for (int w = 0; w < workers; ++w) {
    const double t = model.base_seconds * speed_multiplier(model, w);
    // Its pull after clock c returns once the slowest has finished clock c − s (at (c − s)·t_max); the last pull
    // (c = I) waits the longest, and every earlier hold is already inside it since t ≤ t_max.
    const double finish = std::max(iterations * t, std::max(0, iterations - staleness) * t_max);
    out.finish_seconds.push_back(finish);
    out.wait_seconds.push_back(finish - iterations * t);
    waits += finish - iterations * t;
    total += finish;
  }
  out.stall_fraction = waits / total;
  return out;
}

SspClockLimits ssp_clock_limits(const SpeedModel& model, int workers) {
  validate(model, workers);
  SspClockLimits out;
  out.barrier_seconds = expected_round_compute(model, workers, workers);
  for (int w = 0; w < workers; ++w)
    out.unbounded_seconds = std::max(out.unbounded_seconds,
                                     model.base_seconds * speed_multiplier(model, w) * speed_factor_mean(model));
  // E[max] ≥ max E: equal in exact arithmetic when no worker's time varies; Simpson's ≈1e-9 must not make it negative.
  out.absorbable_seconds = std::max(0.0, out.barrier_seconds - out.unbounded_seconds);
  out.absorbable_fraction = out.absorbable_seconds / out.barrier_seconds;
  return out;
}

PsBandwidth ps_bandwidth(const CostModel& model, int workers, int servers, double parameter_bytes) {
  validate(model);
  if (workers < 1 || servers < 1)
    throw Error("workers and servers must be >= 1, got " + std::to_string(workers) + " and " + std::to_string(servers));
  require_positive("parameter bytes", parameter_bytes);
  PsBandwidth out;
  const double shard = parameter_bytes / servers;
  out.server_bytes = workers * shard;
  out.server_seconds = workers * (model.alpha + model.beta * shard);
  out.worker_seconds = servers * (model.alpha + model.beta * shard);
  out.servers_bottleneck = out.server_seconds > out.worker_seconds;
  return out;
}

int ps_servers_to_balance(const CostModel& model, int workers, double parameter_bytes) {
  for (int k = 1; k <= 4096; ++k)
    if (!ps_bandwidth(model, workers, k, parameter_bytes).servers_bottleneck) return k;
  throw Error("no K up to 4096 servers keeps the servers from being the bottleneck");
}

}  // namespace dsml
