// speed_model.cpp — the stragglers' compute times (dsml/speed_model.h): counter-based draws, one per (worker, c).
#include "dsml/speed_model.h"

#include <cmath>

#include "dsml/error.h"
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
  }
  return 1.0;
}

}  // namespace

SpeedDistribution parse_speed_distribution(const std::string& name) {
  if (name == "fixed") return SpeedDistribution::fixed;
  if (name == "exponential") return SpeedDistribution::exponential;
  if (name == "lognormal") return SpeedDistribution::lognormal;
  if (name == "slow-node") return SpeedDistribution::slow_node;
  throw Error("unknown speed model \"" + name + "\"; choose fixed, exponential, lognormal or slow-node");
}

const char* speed_distribution_name(SpeedDistribution distribution) {
  switch (distribution) {
    case SpeedDistribution::fixed: return "fixed";
    case SpeedDistribution::exponential: return "exponential";
    case SpeedDistribution::lognormal: return "lognormal";
    case SpeedDistribution::slow_node: return "slow-node";
  }
  return "fixed";
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
  }
  return 0.0;
}

double speed_factor_mean(const SpeedModel& model) {
  if (model.distribution == SpeedDistribution::slow_node)
    return 1.0 + model.slow_probability * (model.slowdown - 1.0);
  return 1.0;
}

}  // namespace dsml
