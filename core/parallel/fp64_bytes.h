// fp64_bytes.h — bytes a matrix of doubles holds, the unit every strategy's memory log counts in. One inline
// definition, so files that use it can share a unity batch.
#pragma once

#include <Eigen/Core>

namespace dsml {

inline double bytes_of(const Eigen::MatrixXd& m) { return 8.0 * static_cast<double>(m.size()); }

}  // namespace dsml
