// nn/gaussian.h — reproducible N(0, 1) draws for initialisation and synthetic data (engine-private).
//
// std::normal_distribution is implementation-defined: libstdc++ (native) and libc++ (Emscripten) give
// different numbers for the same seed. std::mt19937_64 is fully specified by the standard, so we take its raw
// 64-bit outputs and apply Box–Muller ourselves; a lesson page and the native tests then see the same weights.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <random>

namespace dsml::nn_detail {

inline constexpr double kPi = 3.14159265358979323846;  // π, for every file that draws a Gaussian or an angle

class Gaussian {
 public:
  explicit Gaussian(std::uint64_t seed) : engine_(seed) {}

  // One N(0, 1) sample. Box–Muller: u1 ∈ (0, 1], u2 ∈ [0, 1) → √(−2 ln u1)·cos(2π u2) (and sin for the next).
  double next() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = (static_cast<double>(engine_() >> 11) + 1.0) * 0x1.0p-53;  // (0, 1]
    const double u2 = static_cast<double>(engine_() >> 11) * 0x1.0p-53;          // [0, 1)
    const double radius = std::sqrt(-2.0 * std::log(u1));
    const double angle = 2.0 * kPi * u2;
    spare_ = radius * std::sin(angle);
    has_spare_ = true;
    return radius * std::cos(angle);
  }

  // (rows, cols) of N(0, stddev²), filled row by row (so the values do not depend on Eigen's storage order).
  Eigen::MatrixXd matrix(Eigen::Index rows, Eigen::Index cols, double stddev) {
    Eigen::MatrixXd m(rows, cols);
    for (Eigen::Index r = 0; r < rows; ++r)
      for (Eigen::Index c = 0; c < cols; ++c) m(r, c) = stddev * next();
    return m;
  }

 private:
  std::mt19937_64 engine_;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

// SplitMix64 finaliser (Steele et al. 2014): turns (seed, stream) into a well-mixed seed, so that batch
// `step` of a task does not share a random stream with batch `step + 1` or with the weights.
inline std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t stream) {
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (stream + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace dsml::nn_detail
