// Least-squares α–β fit: exact on noiseless points, close on noisy ones, loud on unusable input.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "dsml/error.h"
#include "test_support.h"
#include "dsml/fit.h"

namespace {

std::vector<double> times_for(const std::vector<double>& bytes, double alpha, double beta) {
  std::vector<double> t;
  for (double n : bytes) t.push_back(alpha + beta * n);
  return t;
}

TEST(Fit, RecoversAlphaBetaFromNoiselessPoints) {
  const std::vector<double> bytes{8, 1024, 65536, 1 << 20, 4 << 20, 64 << 20};
  for (const auto& [alpha, beta] : {std::pair{3e-5, 1 / 2e9}, std::pair{1e-6, 1 / 100e9}, std::pair{0.0, 1e-9}}) {
    const dsml::AlphaBetaFit fit = dsml::fit_alpha_beta(bytes, times_for(bytes, alpha, beta));
    EXPECT_NEAR(fit.alpha, alpha, 1e-12 * (alpha + beta * bytes.back()));  // to rounding of the largest time
    EXPECT_NEAR(fit.beta, beta, 1e-12 * beta);
    EXPECT_NEAR(fit.r_squared, 1.0, 1e-12);
    EXPECT_EQ(fit.points, bytes.size());
  }
}

TEST(Fit, TwoPointsGiveTheLineThroughThem) {
  const dsml::AlphaBetaFit fit = dsml::fit_alpha_beta({1000, 3000}, {3e-6, 5e-6});
  EXPECT_NEAR(fit.beta, 1e-9, 1e-21);
  EXPECT_NEAR(fit.alpha, 2e-6, 1e-18);
}

// With additive noise t_i = α + β·n_i + ε_i, ε_i ~ N(0, σ²) independent, least squares is unbiased with the
// textbook variances Var β̂ = σ²/Sxx and Var α̂ = σ²(1/N + n̄²/Sxx), Sxx = Σ(n_i − n̄)², and SS_res/σ² ~ χ² with
// N − 2 degrees of freedom (mean N − 2, variance 2(N − 2)). These depend on the sizes and σ only, not on the fit.
// Each check allows 4 standard deviations: a correct least-squares fit fails one with probability ≈ 6e-5 for any
// seed, while a fit off by a few of its standard errors (here 0.3 % of α) fails.
TEST(Fit, RecoversAlphaBetaWithinFourStandardErrors) {
  const double alpha = 50e-6, beta = 1.0 / 1e9, sigma = 2e-6;  // a browser-ish 50 µs, 1 GB/s, 2 µs of jitter
  std::mt19937_64 rng(42);
  std::normal_distribution<double> jitter(0.0, sigma);
  std::vector<double> bytes, seconds;
  for (int rep = 0; rep < 20; ++rep)
    for (double n = 1024; n <= 16 << 20; n *= 4) {
      bytes.push_back(n);
      seconds.push_back(alpha + beta * n + jitter(rng));
    }
  const double count = static_cast<double>(bytes.size());
  double mean_n = 0, mean_t = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) mean_n += bytes[i] / count, mean_t += seconds[i] / count;
  double sxx = 0, ss_tot = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i)
    sxx += (bytes[i] - mean_n) * (bytes[i] - mean_n), ss_tot += (seconds[i] - mean_t) * (seconds[i] - mean_t);
  const double sd_beta = sigma / std::sqrt(sxx);
  const double sd_alpha = sigma * std::sqrt(1 / count + mean_n * mean_n / sxx);

  const dsml::AlphaBetaFit fit = dsml::fit_alpha_beta(bytes, seconds);
  EXPECT_NEAR(fit.beta, beta, 4 * sd_beta);
  EXPECT_NEAR(fit.alpha, alpha, 4 * sd_alpha);
  const double ss_res_over_variance = (1 - fit.r_squared) * ss_tot / (sigma * sigma);  // ~ χ²(N − 2)
  EXPECT_NEAR(ss_res_over_variance, count - 2, 4 * std::sqrt(2 * (count - 2)));
}

// On noisy points the fit must be THE least-squares line, not merely near the truth: β = Sxy/Sxx, α = ȳ − β·x̄,
// r² = 1 − SS_res/SS_tot, written out here in long double from the textbook normal equations.
TEST(Fit, EqualsTheNormalEquationsOnNoisyPoints) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> jitter(1.0, 0.05);
  std::vector<double> bytes, seconds;
  for (int rep = 0; rep < 7; ++rep)
    for (double n = 64; n <= 8 << 20; n *= 8) {
      bytes.push_back(n);
      seconds.push_back((20e-6 + n / 3e9) * jitter(rng));
    }
  long double mx = 0, my = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) mx += bytes[i], my += seconds[i];
  mx /= bytes.size(), my /= bytes.size();
  long double sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    sxx += (bytes[i] - mx) * (bytes[i] - mx);
    sxy += (bytes[i] - mx) * (seconds[i] - my);
    syy += (seconds[i] - my) * (seconds[i] - my);
  }
  const long double beta = sxy / sxx, alpha = my - beta * mx;
  long double residual = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const long double e = seconds[i] - (alpha + beta * bytes[i]);
    residual += e * e;
  }
  const dsml::AlphaBetaFit fit = dsml::fit_alpha_beta(bytes, seconds);
  EXPECT_NEAR(fit.beta, static_cast<double>(beta), 1e-12 * static_cast<double>(beta));
  EXPECT_NEAR(fit.alpha, static_cast<double>(alpha), 1e-12 * static_cast<double>(my));  // to rounding of ȳ
  EXPECT_NEAR(fit.r_squared, static_cast<double>(1 - residual / syy), 1e-12);
  EXPECT_EQ(fit.points, bytes.size());
}

TEST(Fit, RejectsUnusableInput) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(error_of([] { dsml::fit_alpha_beta({1000}, {1e-6}); }).find("at least 2 points, got 1"), std::string::npos);
  EXPECT_NE(error_of([] { dsml::fit_alpha_beta({}, {}); }).find("at least 2 points, got 0"), std::string::npos);
  EXPECT_NE(error_of([] { dsml::fit_alpha_beta({1, 2, 3}, {1, 2}); }).find("same length, got 3 and 2"),
            std::string::npos);
  EXPECT_NE(error_of([] { dsml::fit_alpha_beta({1000, 1000, 1000}, {1e-6, 2e-6, 3e-6}); })
                .find("two different message sizes; all 3 points have 1000 B"),
            std::string::npos);
  EXPECT_NE(error_of([&] { dsml::fit_alpha_beta({1, 2, 3}, {1e-6, nan, 3e-6}); })
                .find("seconds[1] must be a finite number >= 0, got nan"),
            std::string::npos);
  EXPECT_NE(error_of([] { dsml::fit_alpha_beta({1, -2}, {1e-6, 2e-6}); }).find("bytes[1]"), std::string::npos);
}

TEST(Fit, EqualTimesFitAFlatLine) {
  const dsml::AlphaBetaFit fit = dsml::fit_alpha_beta({10, 20, 30}, {1e-6, 1e-6, 1e-6});
  EXPECT_DOUBLE_EQ(fit.beta, 0.0);
  EXPECT_DOUBLE_EQ(fit.alpha, 1e-6);
  EXPECT_DOUBLE_EQ(fit.r_squared, 1.0);
}

}  // namespace
