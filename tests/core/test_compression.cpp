// Gradient compressors by hand-derived numbers and published properties: top-k, random-k, int8 and the scaled sign
// on small vectors; QSGD unbiased and within Alistarh et al.'s variance bound over many seeds; PowerSGD exact on a
// matrix of rank ≤ r; bytes on the wire and the collective that carries each.
#include <gtest/gtest.h>

#include <cmath>

#include "dsml/collective_cost.h"
#include "dsml/compression.h"
#include "dsml/topology.h"
#include "test_support.h"

using namespace dsml;

TEST(Compression, TopKKeepsTheLargestMagnitudes) {
  Eigen::VectorXd v(5);
  v << 0.1, -3, 2, 0.5, -2;
  Eigen::VectorXd want(5);
  want << 0, -3, 2, 0, 0;  // |−2| ties with |2|: the lower index wins
  EXPECT_EQ(top_k(v, 2), want);
  EXPECT_EQ(top_k(v, 5), v);
  // The contraction error feedback relies on: ‖v − top_k(v)‖² ≤ (1 − k/n)‖v‖².
  EXPECT_LE((v - top_k(v, 2)).squaredNorm(), (1 - 2.0 / 5) * v.squaredNorm());
  EXPECT_NE(error_of([&] { top_k(v, 6); }).find("top-k: k must be between 1 and the tensor's 5 values, got 6"),
            std::string::npos);
}

TEST(Compression, RandomKIsUniformAndSharedBySeed) {
  const auto a = random_k_indices(10, 3, 42);
  EXPECT_EQ(a, random_k_indices(10, 3, 42));  // every worker with the seed picks the same coordinates
  ASSERT_EQ(a.size(), 3u);
  EXPECT_TRUE(a[0] < a[1] && a[1] < a[2]);
  // Each coordinate is kept with probability k/n = 0.3: over 20000 seeds, within 5 standard deviations.
  std::vector<int> hits(10, 0);
  const int trials = 20000;
  for (int s = 0; s < trials; ++s)
    for (const auto i : random_k_indices(10, 3, static_cast<std::uint64_t>(s))) ++hits[static_cast<std::size_t>(i)];
  const double sd = std::sqrt(trials * 0.3 * 0.7);
  for (int h : hits) EXPECT_NEAR(h, 0.3 * trials, 5 * sd);
  Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(10, 1, 10);
  const Eigen::VectorXd kept = random_k(v, 3, 42);
  EXPECT_DOUBLE_EQ(kept.sum(), v[a[0]] + v[a[1]] + v[a[2]]);  // not rescaled by n/k
}

TEST(Compression, Int8RoundsToTheTensorsScale) {
  Eigen::VectorXd v(4);
  v << 1.0, -0.5, 0.25, 0.0;
  // scale = 1/127: 0.5·127 = 63.5 rounds to 64, 0.25·127 = 31.75 to 32.
  const Eigen::VectorXd q = int8_quantize(v);
  EXPECT_DOUBLE_EQ(q[0], 1.0);
  EXPECT_DOUBLE_EQ(q[1], -64.0 / 127);
  EXPECT_DOUBLE_EQ(q[2], 32.0 / 127);
  EXPECT_EQ(q[3], 0.0);
  EXPECT_LE((q - v).cwiseAbs().maxCoeff(), 0.5 / 127 + 1e-15);  // at most half a step
}

TEST(Compression, ScaledSignCarriesTheMeanMagnitude) {
  Eigen::VectorXd v(4);
  v << 1, -2, 3, 0;
  Eigen::VectorXd want(4);
  want << 1.5, -1.5, 1.5, 1.5;  // ‖v‖₁/n = 6/4; sign(0) = +1
  EXPECT_EQ(scaled_sign(v), want);
}

// Alistarh et al. 2017, Lemma 3.1: E[Q(v)] = v and E‖Q(v) − v‖² ≤ min(n/s², √n/s)‖v‖². Coordinate i rounds
// between ‖v‖·l/s and ‖v‖·(l+1)/s with p = s|v_i|/‖v‖ − l, so its variance is exactly (‖v‖/s)²·p(1 − p).
TEST(Compression, QsgdIsUnbiasedWithinTheVarianceBound) {
  const int n = 16, s = 2, trials = 40000;
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = std::sin(1.7 * i + 0.3) * (1 + i % 3);
  const double norm = v.norm();
  double exact_variance = 0;
  for (int i = 0; i < n; ++i) {
    const double r = s * std::abs(v[i]) / norm, p = r - std::floor(r);
    exact_variance += (norm / s) * (norm / s) * p * (1 - p);
  }
  Eigen::VectorXd mean = Eigen::VectorXd::Zero(n);
  double squared_error = 0;
  for (int seed = 0; seed < trials; ++seed) {
    const Eigen::VectorXd q = qsgd_quantize(v, s, static_cast<std::uint64_t>(seed));
    mean += q / trials;
    squared_error += (q - v).squaredNorm() / trials;
  }
  // Each coordinate's sample mean has standard deviation ≤ (‖v‖/s)·½/√trials; allow 5 of them.
  const double tolerance = 5 * (norm / s) * 0.5 / std::sqrt(static_cast<double>(trials));
  EXPECT_LT((mean - v).cwiseAbs().maxCoeff(), tolerance);
  EXPECT_NEAR(squared_error, exact_variance, 0.03 * exact_variance);
  EXPECT_LE(exact_variance, qsgd_variance_bound(n, s) * v.squaredNorm());
  EXPECT_DOUBLE_EQ(qsgd_variance_bound(16, 2), 2.0);   // min(16/4, 4/2)
  EXPECT_DOUBLE_EQ(qsgd_variance_bound(16, 8), 0.25);  // min(16/64, 4/8)
}

TEST(Compression, PowerSgdIsExactOnALowRankMatrix) {
  Eigen::VectorXd u(4), w(3);
  u << 1, -2, 0.5, 3;
  w << 2, 1, -1;
  const Eigen::MatrixXd m = u * w.transpose();  // rank 1
  Eigen::MatrixXd q = powersgd_initial_q(3, 1, 7);
  EXPECT_LT((powersgd_approximation(m, q) - m).norm(), 1e-12 * m.norm());
  // Full rank r = min(rows, cols) reproduces any matrix in one step; P̂ is orthonormal.
  Eigen::MatrixXd a(3, 2);
  a << 1, 2, 3, 4, 5, 7;
  Eigen::MatrixXd q2 = powersgd_initial_q(2, 2, 1);
  EXPECT_LT((powersgd_approximation(a, q2) - a).norm(), 1e-12 * a.norm());
  Eigen::MatrixXd p = a;
  orthogonalize(p);
  EXPECT_LT((p.transpose() * p - Eigen::MatrixXd::Identity(2, 2)).norm(), 1e-14);
}

// A 32 × 8 tensor, 256 values, fp32 values and int32 indices.
TEST(Compression, BytesOnTheWireCountIndicesAndScales) {
  CompressorConfig c;
  c.ratio = 0.1;  // k = round(25.6) = 26
  c.levels = 16;  // 1 + ⌈log₂17⌉ = 6 bits a value
  c.rank = 2;
  const std::pair<CompressorKind, double> want[] = {
      {CompressorKind::none, 1024},     {CompressorKind::top_k, 26 * 8}, {CompressorKind::random_k, 26 * 4},
      {CompressorKind::int8, 256 + 4},  {CompressorKind::qsgd, 192 + 4}, {CompressorKind::sign, 32 + 4},
      {CompressorKind::powersgd, (32 + 8) * 2 * 4}};
  for (const auto& [kind, bytes] : want) {
    c.kind = kind;
    EXPECT_EQ(compressed_bytes(c, 32, 8), bytes) << compressor_name(kind);
  }
}

TEST(Compression, LinearCodesGoByAllReduceTheOthersByAllGather) {
  const MlpConfig model{2, 8, 32, Activation::gelu, true};  // 4 tensors of 256 values
  CompressorConfig c;
  c.ratio = 0.1;
  c.kind = CompressorKind::top_k;
  auto calls = compressed_collectives(c, model, 4);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].collective, "all-gather");
  EXPECT_EQ(calls[0].bytes, 4 * 4 * 208.0);  // P messages of 4 tensors' k·(value + index)
  EXPECT_EQ(ring_bytes_sent(calls[0], 4), 3 * 4 * 208.0);  // a ring all-gather forwards P − 1 messages
  c.kind = CompressorKind::random_k;
  calls = compressed_collectives(c, model, 4);
  EXPECT_EQ(calls[0].collective, "all-reduce");
  EXPECT_EQ(calls[0].bytes, 4 * 104.0);
  EXPECT_EQ(ring_bytes_sent(calls[0], 4), 2 * 0.75 * 4 * 104.0);
  c.kind = CompressorKind::powersgd;
  calls = compressed_collectives(c, model, 4);
  ASSERT_EQ(calls.size(), 2u);  // P's, then Q's: 2 blocks · (32 + 8) · r · 4 B each
  EXPECT_EQ(calls[1].bytes, 2 * 40 * 1 * 4.0);
  for (const CompressorKind k : {CompressorKind::sign, CompressorKind::qsgd, CompressorKind::int8})
    EXPECT_FALSE(composes_with_all_reduce(k)) << compressor_name(k);
  // Priced with the ring closed form of collective_cost.h.
  const CostModel net = CostModel::from_bandwidth(5e-6, 25e9);
  c.kind = CompressorKind::none;
  EXPECT_DOUBLE_EQ(compressed_step_seconds(c, model, 4, net),
                   closed_form_time("all-reduce", "ring", 4, 4 * 1024.0, net).total());
  // A compressor beside its baseline, the same step with compressor none: the ring all-reduce of 4·1024 fp32 bytes.
  c.kind = CompressorKind::top_k;
  const CompressionWire wire = compression_wire(c, model, 4);
  EXPECT_EQ(wire.bytes_per_step, 3 * 4 * 208.0);
  EXPECT_EQ(wire.payload_bytes, 4 * 208.0);
  EXPECT_EQ(wire.uncompressed_bytes_per_step, 2 * 0.75 * 4 * 1024.0);
  EXPECT_FALSE(wire.composes_with_all_reduce);
  const CompressionSeconds seconds = compression_seconds(c, model, 4, net);
  EXPECT_EQ(seconds.compressed_s, compressed_step_seconds(c, model, 4, net));
  EXPECT_DOUBLE_EQ(seconds.uncompressed_s, closed_form_time("all-reduce", "ring", 4, 4 * 1024.0, net).total());
}

// On a switch the simulated ring schedules take the closed forms' time (byte counts here are multiples of 4P); on a
// ring topology with fewer links they cannot be faster.
TEST(Compression, PricedOnTopologies) {
  const MlpConfig model{2, 8, 32, Activation::gelu, true};
  const CostModel net = CostModel::from_bandwidth(5e-6, 25e9);
  CompressorConfig c;
  c.ratio = 0.1;
  for (const CompressorKind kind : {CompressorKind::none, CompressorKind::top_k, CompressorKind::powersgd}) {
    c.kind = kind;
    const double closed = compressed_step_seconds(c, model, 4, net);
    EXPECT_NEAR(compressed_step_simulated(c, model, Topology::fully_connected(4, net)), closed, 1e-12 * closed)
        << compressor_name(kind);
    EXPECT_GE(compressed_step_simulated(c, model, Topology::ring(4, net)), closed * (1 - 1e-12)) << compressor_name(kind);
  }
}

TEST(Compression, BadInputIsNamed) {
  EXPECT_NE(error_of([] { parse_compressor("zip"); }).find("unknown compressor \"zip\"; choose none, top-k"),
            std::string::npos);
  CompressorConfig c;
  c.ratio = 0;
  EXPECT_EQ(error_of([&] { validate(c); }), "ratio (fraction of values kept) must be in (0, 1], got 0");
}

TEST(Compression, ATensorHandedOverHasOneToTenMillionValuesInItsShape) {
  EXPECT_NO_THROW(check_tensor_shape(12, 3, 4));
  EXPECT_NO_THROW(check_tensor_shape(10000000, 1, 10000000));
  EXPECT_EQ(error_of([] { check_tensor_shape(0, 1, 0); }), "values must hold 1 to 1e7 numbers");
  EXPECT_EQ(error_of([] { check_tensor_shape(10000001, 1, 10000001); }), "values must hold 1 to 1e7 numbers");
  EXPECT_EQ(error_of([] { check_tensor_shape(12, 5, 2); }), "rows·cols must equal the 12 values, got 5·2");
}
