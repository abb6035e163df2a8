// dsml/fit.h — fitting the α–β model to measured message times.
//
// Given points (n_i bytes, t_i seconds), ordinary least squares on t = α + β·n.
#pragma once

#include <cstddef>
#include <vector>

namespace dsml {

struct AlphaBetaFit {
  double alpha = 0.0;      // s, intercept
  double beta = 0.0;       // s/B, slope
  double r_squared = 0.0;  // coefficient of determination of the fit
  std::size_t points = 0;
};

// Needs ≥ 2 points, equal lengths, finite values, n ≥ 0, t ≥ 0 and at least two distinct sizes.
AlphaBetaFit fit_alpha_beta(const std::vector<double>& bytes, const std::vector<double>& seconds);

}  // namespace dsml
