// compressors.cpp — the element-wise gradient compressors of dsml/compression.h: top-k, random-k, int8, QSGD and
// the scaled sign. Each returns the decompressed vector C(v), what every receiver reconstructs.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "dsml/compression.h"
#include "dsml/error.h"
#include "dsml/run_limits.h"
#include "nn/gaussian.h"

namespace dsml {
namespace {

void require_k(int k, Eigen::Index n, const char* what) {
  if (k < 1 || k > n)
    throw Error(std::string(what) + ": k must be between 1 and the tensor's " + std::to_string(n) +
                " values, got " + std::to_string(k));
}

// A uniform double in [0, 1) from the top 53 bits of mt19937_64 (same on every platform, unlike
// std::uniform_real_distribution).
double unit(std::mt19937_64& engine) { return static_cast<double>(engine() >> 11) * 0x1.0p-53; }

}  // namespace

int kept_count(double ratio, Eigen::Index n) {
  const auto k = static_cast<Eigen::Index>(std::llround(ratio * static_cast<double>(n)));
  return static_cast<int>(std::clamp<Eigen::Index>(k, 1, std::max<Eigen::Index>(n, 1)));
}

Eigen::VectorXd top_k(const Eigen::VectorXd& v, int k) {
  require_k(k, v.size(), "top-k");
  std::vector<Eigen::Index> order(static_cast<std::size_t>(v.size()));
  std::iota(order.begin(), order.end(), 0);
  // The k largest |v_i| first; equal magnitudes by index, so the choice does not depend on the sort.
  std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](Eigen::Index a, Eigen::Index b) {
    const double x = std::abs(v[a]), y = std::abs(v[b]);
    return x > y || (x == y && a < b);
  });
  Eigen::VectorXd out = Eigen::VectorXd::Zero(v.size());
  for (int j = 0; j < k; ++j) out[order[j]] = v[order[j]];
  return out;
}

std::vector<Eigen::Index> random_k_indices(Eigen::Index n, int k, std::uint64_t seed) {
  require_k(k, n, "random-k");
  // Partial Fisher–Yates: the first k of a seeded shuffle, every k-subset equally likely.
  std::vector<Eigen::Index> all(static_cast<std::size_t>(n));
  std::iota(all.begin(), all.end(), 0);
  std::mt19937_64 engine(nn_detail::mix_seed(seed, 0x72616e646b));
  for (int j = 0; j < k; ++j) {
    const auto pick = j + static_cast<Eigen::Index>(unit(engine) * static_cast<double>(n - j));
    std::swap(all[j], all[static_cast<std::size_t>(std::min(pick, n - 1))]);
  }
  all.resize(static_cast<std::size_t>(k));
  std::sort(all.begin(), all.end());
  return all;
}

Eigen::VectorXd random_k(const Eigen::VectorXd& v, int k, std::uint64_t seed) {
  Eigen::VectorXd out = Eigen::VectorXd::Zero(v.size());
  for (const Eigen::Index i : random_k_indices(v.size(), k, seed)) out[i] = v[i];
  return out;
}

Eigen::VectorXd int8_quantize(const Eigen::VectorXd& v) {
  const double max_abs = v.size() ? v.cwiseAbs().maxCoeff() : 0.0;
  if (max_abs == 0.0) return Eigen::VectorXd::Zero(v.size());
  const double scale = max_abs / 127.0;  // one per tensor, sent beside the 8-bit codes
  return v.unaryExpr([scale](double x) { return std::round(x / scale) * scale; });
}

Eigen::VectorXd qsgd_quantize(const Eigen::VectorXd& v, int levels, std::uint64_t seed) {
  if (levels < 1) throw Error("qsgd: levels s must be >= 1, got " + std::to_string(levels));
  const double norm = v.norm();
  if (norm == 0.0) return Eigen::VectorXd::Zero(v.size());
  std::mt19937_64 engine(nn_detail::mix_seed(seed, 0x71736764));
  Eigen::VectorXd out(v.size());
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    const double r = levels * std::abs(v[i]) / norm;  // in [0, s]
    const double l = std::min(std::floor(r), static_cast<double>(levels));
    const double level = (unit(engine) < r - l) ? l + 1 : l;  // round up with probability r − l: E = r
    out[i] = norm * (v[i] < 0 ? -1.0 : 1.0) * level / levels;
  }
  return out;
}

Eigen::VectorXd scaled_sign(const Eigen::VectorXd& v) {
  if (v.size() == 0) return v;
  const double scale = v.cwiseAbs().sum() / static_cast<double>(v.size());
  return v.unaryExpr([scale](double x) { return x < 0 ? -scale : scale; });
}

void check_tensor_shape(std::size_t values, std::int64_t rows, std::int64_t cols) {
  if (values < 1 || static_cast<double>(values) > limits::kValues) throw Error("values must hold 1 to 1e7 numbers");
  if (rows < 1 || cols < 1 || static_cast<double>(rows) * static_cast<double>(cols) != static_cast<double>(values))
    throw Error("rows·cols must equal the " + std::to_string(values) + " values, got " + std::to_string(rows) + "·" +
                std::to_string(cols));
}

Eigen::MatrixXd compress_tensor(const CompressorConfig& c, const Eigen::MatrixXd& m, std::uint64_t seed) {
  validate(c);
  const Eigen::Map<const Eigen::VectorXd> v(m.data(), m.size());
  const auto shaped = [&](const Eigen::VectorXd& flat) {
    return Eigen::MatrixXd(Eigen::Map<const Eigen::MatrixXd>(flat.data(), m.rows(), m.cols()));
  };
  const int k = kept_count(c.ratio, m.size());
  switch (c.kind) {
    case CompressorKind::none: return m;
    case CompressorKind::top_k: return shaped(top_k(v, k));
    case CompressorKind::random_k: return shaped(random_k(v, k, seed));
    case CompressorKind::int8: return shaped(int8_quantize(v));
    case CompressorKind::qsgd: return shaped(qsgd_quantize(v, c.levels, seed));
    case CompressorKind::sign: return shaped(scaled_sign(v));
    case CompressorKind::powersgd: {
      const int r = static_cast<int>(std::min<Eigen::Index>(c.rank, std::min(m.rows(), m.cols())));
      Eigen::MatrixXd q = powersgd_initial_q(m.cols(), r, seed);
      return powersgd_approximation(m, q);
    }
  }
  return m;
}

double qsgd_variance_bound(Eigen::Index n, int levels) {
  if (levels < 1) throw Error("qsgd: levels s must be >= 1, got " + std::to_string(levels));
  const double dn = static_cast<double>(n), s = levels;
  return std::min(dn / (s * s), std::sqrt(dn) / s);
}

}  // namespace dsml
