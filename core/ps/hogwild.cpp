// hogwild.cpp — lock-free sparse SGD by T threads in simulated lockstep waves (dsml/hogwild.h).
#include "dsml/hogwild.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "dsml/error.h"
#include "nn/gaussian.h"

namespace dsml {
namespace {

// A cheap counter-based stream (SplitMix64, Steele et al. 2014): one per example, so seeding costs nothing.
struct SplitMix {
  std::uint64_t state;
  std::uint64_t operator()() { return state = nn_detail::mix_seed(state, 0); }
  double uniform() { return (static_cast<double>((*this)() >> 11) + 1.0) * 0x1.0p-53; }  // (0, 1]
  double gaussian() { return std::sqrt(-2.0 * std::log(uniform())) * std::cos(2.0 * nn_detail::kPi * uniform()); }
};

struct Example {
  std::vector<int> support;  // k distinct features, in draw order
  std::vector<double> x;     // x_j = z_j/√k on the support
  double y = 0.0;            // w*·x
};

// Example `index` of stream `stream`: a pure function of (seed, stream, index), identical natively and in wasm.
// `taken` is all zeros of size n on entry and on exit (scratch, so a draw costs O(k), not O(n)).
Example make_example(const HogwildConfig& c, int k, const std::vector<double>& truth, std::uint64_t stream,
                     std::uint64_t index, std::vector<char>& taken) {
  SplitMix draw{nn_detail::mix_seed(nn_detail::mix_seed(c.seed, stream), index)};
  Example e;
  // Floyd's algorithm: k distinct values of [0, n) with k draws (modulo bias < 2^-40 for n < 2^24).
  for (int j = c.features - k; j < c.features; ++j) {
    int pick = static_cast<int>(draw() % static_cast<std::uint64_t>(j + 1));
    if (taken[pick]) pick = j;
    taken[pick] = 1;
    e.support.push_back(pick);
  }
  for (int j : e.support) taken[j] = 0;
  for (int j : e.support) {
    e.x.push_back(draw.gaussian() / std::sqrt(static_cast<double>(k)));
    e.y += truth[j] * e.x.back();
  }
  return e;
}

int draw_below(std::mt19937_64& draw, int m) { return static_cast<int>(draw() % static_cast<std::uint64_t>(m)); }

double residual(const std::vector<double>& w, const Example& e) {
  double r = -e.y;
  for (std::size_t i = 0; i < e.support.size(); ++i) r += w[e.support[i]] * e.x[i];
  return r;
}

void validate(const HogwildConfig& c) {
  if (c.threads < 1 || c.threads > 4096) throw Error("threads must be in [1, 4096], got " + std::to_string(c.threads));
  if (c.features < 1 || c.features > 10000000)
    throw Error("features must be in [1, 10000000], got " + std::to_string(c.features));
  if (!(c.sparsity > 0.0 && c.sparsity <= 1.0))
    throw Error("sparsity (the fraction of features an example touches) must be in (0, 1], got " +
                format_number(c.sparsity));
  if (c.updates < 1 || c.updates > 10000000)
    throw Error("updates must be in [1, 10000000], got " + std::to_string(c.updates));
  require_positive("lr (learning rate)", c.lr);
  if (c.points < 1) throw Error("points must be >= 1, got " + std::to_string(c.points));
}

}  // namespace

int hogwild_support(int features, double sparsity) {
  return std::max(1, std::min(features, static_cast<int>(std::lround(sparsity * features))));
}

double hogwild_collision_probability(int threads, int features, int support) {
  double q = 1.0;  // P(two random k-subsets of n features are disjoint)
  for (int i = 0; i < support; ++i) q *= std::max(0.0, static_cast<double>(features - support - i) / (features - i));
  return 1.0 - std::pow(q, threads - 1);
}

HogwildResult simulate_hogwild(const HogwildConfig& c) {
  validate(c);
  const int k = hogwild_support(c.features, c.sparsity), T = c.threads;
  const int waves = (c.updates + T - 1) / T;
  std::vector<double> truth(static_cast<std::size_t>(c.features));
  nn_detail::Gaussian truth_draw(nn_detail::mix_seed(c.seed, 0));
  for (double& v : truth) v = truth_draw.next();
  std::vector<char> taken(static_cast<std::size_t>(c.features), 0);
  std::vector<Example> held_out;
  for (int i = 0; i < 256; ++i) held_out.push_back(make_example(c, k, truth, 2, static_cast<std::uint64_t>(i), taken));
  std::vector<double> w(static_cast<std::size_t>(c.features), 0.0);
  auto loss = [&] {
    double sum = 0.0;
    for (const Example& e : held_out) sum += residual(w, e) * residual(w, e);
    return sum / static_cast<double>(held_out.size());
  };

  HogwildResult out;
  out.support = k;
  out.updates = waves * T;
  out.predicted_collision_rate = hogwild_collision_probability(T, c.features, k);
  out.loss_updates.push_back(0);
  out.loss.push_back(loss());
  std::mt19937_64 order_draw(nn_detail::mix_seed(c.seed, 3));
  std::vector<int> touches(static_cast<std::size_t>(c.features), 0), order(static_cast<std::size_t>(T));
  std::vector<Example> wave(static_cast<std::size_t>(T));
  std::vector<std::vector<double>> reads(static_cast<std::size_t>(T));
  std::vector<double> r(static_cast<std::size_t>(T));
  long collisions = 0;
  const int every = std::max(1, waves / c.points);
  for (int v = 0; v < waves; ++v) {
    // Reads: every thread sees the model as the wave began.
    for (int t = 0; t < T; ++t) {
      wave[t] = make_example(c, k, truth, 1, static_cast<std::uint64_t>(v) * T + t, taken);
      r[t] = residual(w, wave[t]);
      reads[t].clear();
      for (int j : wave[t].support) reads[t].push_back(w[j]), ++touches[j];
    }
    for (int t = 0; t < T; ++t) {
      bool shared = false;
      for (int j : wave[t].support) shared = shared || touches[j] > 1;
      collisions += shared;
    }
    // Writes, in a seeded random order (Fisher–Yates).
    for (int t = 0; t < T; ++t) order[t] = t;
    for (int t = T - 1; t > 0; --t) std::swap(order[t], order[draw_below(order_draw, t + 1)]);
    for (int t : order) {
      for (std::size_t i = 0; i < wave[t].support.size(); ++i) {
        const int j = wave[t].support[i];
        const double step = c.lr * r[t] * wave[t].x[i];
        w[j] = c.atomic ? w[j] - step : reads[t][i] - step;  // non-atomic: overwrites writes since its read
      }
    }
    for (int t = 0; t < T; ++t)
      for (int j : wave[t].support) {
        if (!c.atomic && touches[j] > 1) out.lost_writes += touches[j] - 1;  // only the last write of j survives
        touches[j] = 0;                                                      // (so j is counted once)
      }
    if ((v + 1) % every == 0 || v + 1 == waves) {
      out.loss_updates.push_back(static_cast<double>((v + 1) * T));
      out.loss.push_back(loss());
    }
  }
  out.collision_rate = static_cast<double>(collisions) / out.updates;
  out.final_loss = out.loss.back();
  return out;
}

}  // namespace dsml
