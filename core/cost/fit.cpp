// fit.cpp — ordinary least squares for t = α + β·n (Week 1: measure your own browser's α and β).
//
// With n̄, t̄ the means, the textbook closed form is
//   β = Σ (n_i − n̄)(t_i − t̄) / Σ (n_i − n̄)²,   α = t̄ − β·n̄,   R² = 1 − SS_res / SS_tot.
// Centring first keeps it accurate when sizes span 1 B … 1 GB: the uncentred normal equations would subtract
// numbers of order Σ n_i² ≈ 1e18 from each other and lose most of the digits of β.
#include "dsml/fit.h"

#include <Eigen/Core>
#include <cmath>
#include <string>

#include "dsml/error.h"

namespace dsml {

namespace {

// Throws "seconds[3] must be a finite number >= 0, got nan" for the first bad entry.
void require_points(const std::vector<double>& values, const char* name) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (std::isfinite(values[i]) && values[i] >= 0.0) continue;
    const std::string label = std::string(name) + "[" + std::to_string(i) + "]";
    require_non_negative(label.c_str(), values[i]);
  }
}

}  // namespace

AlphaBetaFit fit_alpha_beta(const std::vector<double>& bytes, const std::vector<double>& seconds) {
  if (bytes.size() != seconds.size())
    throw Error("bytes and seconds must have the same length, got " + std::to_string(bytes.size()) + " and " +
                std::to_string(seconds.size()));
  if (bytes.size() < 2)
    throw Error("fitting alpha and beta needs at least 2 points, got " + std::to_string(bytes.size()));
  require_points(bytes, "bytes");
  require_points(seconds, "seconds");

  const Eigen::Index count = static_cast<Eigen::Index>(bytes.size());
  const Eigen::Map<const Eigen::ArrayXd> n(bytes.data(), count);    // B
  const Eigen::Map<const Eigen::ArrayXd> t(seconds.data(), count);  // s
  const Eigen::ArrayXd dn = n - n.mean();
  const Eigen::ArrayXd dt = t - t.mean();
  const double sxx = dn.square().sum();  // B²
  if (!(sxx > 0.0))
    throw Error("fitting alpha and beta needs at least two different message sizes; all " +
                std::to_string(bytes.size()) + " points have " + format_number(bytes[0]) + " B");

  AlphaBetaFit fit;
  fit.beta = (dn * dt).sum() / sxx;            // s/B
  fit.alpha = t.mean() - fit.beta * n.mean();  // s
  const double ss_res = (t - fit.alpha - fit.beta * n).square().sum();
  const double ss_tot = dt.square().sum();
  // Every time equal: the flat line fits perfectly (β = 0), so call it R² = 1 rather than 0/0.
  fit.r_squared = ss_tot > 0.0 ? 1.0 - ss_res / ss_tot : 1.0;
  fit.points = bytes.size();
  return fit;
}

}  // namespace dsml
