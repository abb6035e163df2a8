// speed_model.cpp — the stragglers' compute times (dsml/speed_model.h): counter-based draws, one per (worker, c).
#include "dsml/speed_model.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "dsml/error.h"
#include "dsml/named_values.h"
#include "nn/gaussian.h"

namespace dsml {
namespace {

// A uniform in (0, 1] from (seed, worker, iteration, stream): SplitMix64 of a counter, 53 bits.
double uniform(const SpeedModel& model, int worker, std::int64_t iteration, std::uint64_t stream) {
  const std::uint64_t counter =
      (static_cast<std::uint64_t>(iteration) << 20) ^ (static_cast<std::uint64_t>(worker) << 2) ^ stream;
  const std::uint64_t bits = nn_detail::mix_seed(model.seed, counter);
  return (static_cast<double>(bits >> 11) + 1.0) * 0x1.0p-53;
}

double speed_factor(const SpeedModel& model, int worker, std::int64_t iteration) {
  switch (model.distribution) {
    case SpeedDistribution::fixed:
      return 1.0;
    case SpeedDistribution::exponential:
      return -std::log(uniform(model, worker, iteration, 0));  // inverse CDF of Exp(1)
    case SpeedDistribution::lognormal: {
      // Box–Muller from two independent uniforms (std::normal_distribution differs between libraries).
      const double z = std::sqrt(-2.0 * std::log(uniform(model, worker, iteration, 1))) *
                       std::cos(2.0 * nn_detail::kPi * uniform(model, worker, iteration, 2));
      return std::exp(model.sigma * z - 0.5 * model.sigma * model.sigma);
    }
    case SpeedDistribution::slow_node:
      return uniform(model, worker, iteration, 3) <= model.slow_probability ? model.slowdown : 1.0;
    case SpeedDistribution::per_round: {
      // u ∈ (0, 1] → entry ⌈u·n⌉ − 1: each of the n entries with probability 1/n (a repeated value counts each time).
      // Stream 3, slow-node's: the counter has room for streams 0–3 only, and one model never uses both.
      const std::size_t n = model.round_speeds.size();
      const auto i = static_cast<std::size_t>(std::ceil(uniform(model, worker, iteration, 3) * static_cast<double>(n)));
      return model.round_speeds[std::min(n, std::max<std::size_t>(i, 1)) - 1];
    }
  }
  return 1.0;
}

}  // namespace

constexpr NamedValue<SpeedDistribution> kSpeedDistributionNames[] = {{SpeedDistribution::fixed, "fixed"},
    {SpeedDistribution::exponential, "exponential"}, {SpeedDistribution::lognormal, "lognormal"},
    {SpeedDistribution::slow_node, "slow-node"}, {SpeedDistribution::per_round, "per-round"}};

SpeedDistribution parse_speed_distribution(const std::string& name) {
  if (const auto distribution = find_named(kSpeedDistributionNames, name)) return *distribution;
  throw Error("unknown speed model \"" + name + "\"; choose fixed, exponential, lognormal, slow-node or per-round");
}

const char* speed_distribution_name(SpeedDistribution distribution) {
  return name_of(kSpeedDistributionNames, distribution, "fixed");
}

void validate(const SpeedModel& model, int workers) {
  if (workers < 1) throw Error("workers must be >= 1, got " + std::to_string(workers));
  require_positive("base_seconds (one iteration's compute time, s)", model.base_seconds);
  if (!model.multipliers.empty() && static_cast<int>(model.multipliers.size()) != workers)
    throw Error("speeds must give one multiplier per worker: " + std::to_string(workers) + " workers, got " +
                std::to_string(model.multipliers.size()) + " speeds");
  for (double m : model.multipliers) require_positive("every worker's speed multiplier", m);
  require_non_negative("sigma (log-normal spread)", model.sigma);
  if (!(model.slow_probability >= 0.0 && model.slow_probability <= 1.0))
    throw Error("slow_probability must be in [0, 1], got " + format_number(model.slow_probability));
  if (!(model.slowdown >= 1.0 && std::isfinite(model.slowdown)))
    throw Error("slowdown must be a finite number >= 1, got " + format_number(model.slowdown));
  if (model.distribution == SpeedDistribution::per_round) {
    if (model.round_speeds.empty() || model.round_speeds.size() > 1024)
      throw Error("the per-round model needs a list of speeds to draw from (1 to 1024 values, e.g. "
                  "1,1,1,1,3,5), got " + std::to_string(model.round_speeds.size()));
    for (double v : model.round_speeds) require_positive("every per-round speed", v);
  } else if (!model.round_speeds.empty()) {
    throw Error("a list of per-round speeds is for the per-round model, but the model is " +
                std::string(speed_distribution_name(model.distribution)) +
                ": choose per-round, or give fixed per-worker speeds as multipliers");
  }
}

double speed_multiplier(const SpeedModel& model, int worker) {
  return model.multipliers.empty() ? 1.0 : model.multipliers[static_cast<std::size_t>(worker)];
}

double iteration_seconds(const SpeedModel& model, int worker, std::int64_t iteration) {
  return model.base_seconds * speed_multiplier(model, worker) * speed_factor(model, worker, iteration);
}

std::vector<std::vector<double>> sample_iteration_times(const SpeedModel& model, int workers, int iterations) {
  validate(model, workers);
  if (iterations < 0) throw Error("iterations must be >= 0, got " + std::to_string(iterations));
  std::vector<std::vector<double>> times(static_cast<std::size_t>(workers));
  for (int w = 0; w < workers; ++w)
    for (int c = 0; c < iterations; ++c) times[static_cast<std::size_t>(w)].push_back(iteration_seconds(model, w, c));
  return times;
}

double speed_factor_cdf(const SpeedModel& model, double x) {
  if (x < 0.0) return 0.0;
  switch (model.distribution) {
    case SpeedDistribution::fixed:
      return x >= 1.0 ? 1.0 : 0.0;
    case SpeedDistribution::exponential:
      return 1.0 - std::exp(-x);
    case SpeedDistribution::lognormal:
      if (model.sigma == 0.0) return x >= 1.0 ? 1.0 : 0.0;
      if (x == 0.0) return 0.0;
      // ln X ~ N(−σ²/2, σ²): Φ((ln x + σ²/2)/σ) = erfc(−(…)/√2)/2.
      return 0.5 * std::erfc(-(std::log(x) + 0.5 * model.sigma * model.sigma) / (model.sigma * std::sqrt(2.0)));
    case SpeedDistribution::slow_node:
      if (x >= model.slowdown) return 1.0;
      return x >= 1.0 ? 1.0 - model.slow_probability : 0.0;
    case SpeedDistribution::per_round:  // the share of the list's entries ≤ x
      return static_cast<double>(std::count_if(model.round_speeds.begin(), model.round_speeds.end(),
                                               [x](double v) { return v <= x; })) /
             static_cast<double>(model.round_speeds.size());
  }
  return 0.0;
}

double speed_factor_mean(const SpeedModel& model) {
  if (model.distribution == SpeedDistribution::slow_node)
    return 1.0 + model.slow_probability * (model.slowdown - 1.0);
  if (model.distribution == SpeedDistribution::per_round)
    return std::accumulate(model.round_speeds.begin(), model.round_speeds.end(), 0.0) /
           static_cast<double>(model.round_speeds.size());
  return 1.0;
}


void set_round_speeds(SpeedModel& model, std::vector<double> speeds, bool distribution_named) {
  model.round_speeds = std::move(speeds);
  if (!distribution_named) model.distribution = SpeedDistribution::per_round;
}

}  // namespace dsml
