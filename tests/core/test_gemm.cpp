// The GEMM kernels of dsml/gemm.h against Eigen's product: every kernel this machine has (eigen, portable, and
// avx2_fma on a CPU with AVX2 and FMA), fp32 and fp64, all four transpose combinations, on shapes chosen to hit
// the edges of the blocking — 1 × 1, sizes that are not multiples of the register tile (MR × NR) nor of the
// packed slices (kc = 256 of the shared dimension, the A block of 256 KiB, the B block of 128 KiB).
//
// Each entry must lie within the classical rounding bound of a dot product (Higham, "Accuracy and Stability of
// Numerical Algorithms", §3.1): |ĉ_ij − c_ij| ≤ γ_k · Σ_p |a_ip|·|b_pj|, γ_k ≈ k·u, u = ε/2, whatever the order of
// summation; the exact c comes from a wider type (double for fp32, long double for fp64). A transposed operand
// read the wrong way, a skipped edge or a kc slice added twice is off by far more than that.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dsml/block_kernels.h"
#include "dsml/gemm.h"
#include "test_support.h"

namespace {

using dsml::GemmKernel;
using dsml::Transpose;

template <typename Scalar>
using Matrix = dsml::GemmMatrix<Scalar>;

std::vector<GemmKernel> kernels_here() {
  std::vector<GemmKernel> out;
  for (GemmKernel k : {GemmKernel::eigen, GemmKernel::portable, GemmKernel::avx2_fma, GemmKernel::wasm_simd128})
    if (dsml::gemm_kernel_available(k)) out.push_back(k);
  return out;
}

// The wider type the exact product is computed in.
template <typename Scalar>
struct Wider;
template <>
struct Wider<float> { using type = double; };
template <>
struct Wider<double> { using type = long double; };

template <typename Scalar>
Matrix<Scalar> stored(Transpose op, int rows, int cols, unsigned seed) {
  std::srand(seed);
  return op == Transpose::no ? Matrix<Scalar>::Random(rows, cols) : Matrix<Scalar>::Random(cols, rows);
}

// The worst |ĉ_ij − c_ij| / bound over all entries of c = op(a) · op(b) (≤ 1: within rounding).
template <typename Scalar>
double worst_error_ratio(const Matrix<Scalar>& a, Transpose op_a, const Matrix<Scalar>& b, Transpose op_b,
                         const Matrix<Scalar>& c) {
  using W = typename Wider<Scalar>::type;
  auto a_at = [&](Eigen::Index i, Eigen::Index p) { return W(op_a == Transpose::no ? a(i, p) : a(p, i)); };
  auto b_at = [&](Eigen::Index p, Eigen::Index j) { return W(op_b == Transpose::no ? b(p, j) : b(j, p)); };
  const Eigen::Index k = op_a == Transpose::no ? a.cols() : a.rows();
  const W u = W(std::numeric_limits<Scalar>::epsilon()) / 2;
  const W gamma = W(k) * u / (1 - W(k) * u);
  double worst = 0;
  for (Eigen::Index i = 0; i < c.rows(); ++i)
    for (Eigen::Index j = 0; j < c.cols(); ++j) {
      W exact = 0, magnitude = 0;
      for (Eigen::Index p = 0; p < k; ++p) {
        exact += a_at(i, p) * b_at(p, j);
        magnitude += std::abs(a_at(i, p) * b_at(p, j));
      }
      // Doubled to leave room for the reference's own rounding where long double is double (not x86-64 Linux).
      const W bound = 2 * gamma * magnitude + W(std::numeric_limits<Scalar>::denorm_min());
      worst = std::max(worst, static_cast<double>(std::abs(W(c(i, j)) - exact) / bound));
    }
  return worst;
}

template <typename Scalar>
double worst_error_ratio(int m, int n, int k, Transpose op_a, Transpose op_b, GemmKernel kernel) {
  const Matrix<Scalar> a = stored<Scalar>(op_a, m, k, 7u + m), b = stored<Scalar>(op_b, k, n, 11u + n);
  const Matrix<Scalar> c = dsml::matmul<Scalar>(a, op_a, b, op_b, kernel);
  if (c.rows() != m || c.cols() != n) return std::numeric_limits<double>::infinity();
  return worst_error_ratio(a, op_a, b, op_b, c);
}

struct Shape {
  int m, n, k;
};

// 1 × 1; thin; one row or column; k = 1; just under, at and over the tiles (MR = 8, 16; NR = 4, 6) and
// kc = 256; m over the A block (256 KiB / (4 B · 256) = 256 fp32 rows, 128 fp64) and n over the B block.
const Shape kShapes[] = {{1, 1, 1},   {1, 7, 3},    {5, 1, 9},     {33, 7, 1},    {15, 5, 16},   {16, 6, 256},
                         {17, 7, 257}, {8, 4, 300}, {64, 130, 70}, {300, 13, 260}, {130, 131, 33}};

template <typename Scalar>
void check_all_shapes() {
  for (GemmKernel kernel : kernels_here())
    for (Transpose op_a : {Transpose::no, Transpose::yes})
      for (Transpose op_b : {Transpose::no, Transpose::yes})
        for (const Shape& s : kShapes)
          EXPECT_LE(worst_error_ratio<Scalar>(s.m, s.n, s.k, op_a, op_b, kernel), 1.0)
              << dsml::gemm_kernel_name(kernel) << " op_a " << int(op_a) << " op_b " << int(op_b) << " " << s.m
              << "x" << s.n << "x" << s.k;
}

TEST(Gemm, Fp32EveryKernelWithinRoundingOfExact) { check_all_shapes<float>(); }
TEST(Gemm, Fp64EveryKernelWithinRoundingOfExact) { check_all_shapes<double>(); }

// The bound is tight enough to catch a real mistake: with the second kc slice (p ≥ 256) forgotten, or with B
// read untransposed, the product is far outside it.
TEST(Gemm, BoundCatchesWrongProducts) {
  const Matrix<float> a = Matrix<float>::Random(9, 300), b = Matrix<float>::Random(300, 5);
  const Matrix<float> right = dsml::matmul<float>(a, Transpose::no, b, Transpose::no, GemmKernel::portable);
  EXPECT_LE(worst_error_ratio(a, Transpose::no, b, Transpose::no, right), 1.0);
  const Matrix<float> slice_forgotten = a.leftCols(256) * b.topRows(256);
  EXPECT_GT(worst_error_ratio(a, Transpose::no, b, Transpose::no, slice_forgotten), 10.0);
  const Matrix<float> square = Matrix<float>::Random(6, 6);
  const Matrix<float> untransposed = dsml::matmul<float>(square, Transpose::no, square, Transpose::no);
  EXPECT_GT(worst_error_ratio(square, Transpose::no, square, Transpose::yes, untransposed), 10.0);
}

// A packed kernel sums every entry in one order wherever the entry sits, so a row or column block of the
// product is bit-identical to the product of the blocks — what lets a tensor-parallel slice equal its part of
// the full matrix exactly.
TEST(Gemm, PackedKernelsGiveTheSameBitsForAnySlice) {
  const Matrix<double> a = Matrix<double>::Random(37, 300), b = Matrix<double>::Random(300, 29);
  for (GemmKernel kernel : kernels_here()) {
    if (kernel == GemmKernel::eigen) continue;
    const Matrix<double> full = dsml::matmul<double>(a, Transpose::no, b, Transpose::no, kernel);
    const Matrix<double> rows = dsml::matmul<double>(Matrix<double>(a.middleRows(5, 19)), Transpose::no, b,
                                                     Transpose::no, kernel);
    const Matrix<double> cols = dsml::matmul<double>(a, Transpose::no, Matrix<double>(b.middleCols(3, 13)),
                                                     Transpose::no, kernel);
    EXPECT_EQ(rows, full.middleRows(5, 19)) << dsml::gemm_kernel_name(kernel);
    EXPECT_EQ(cols, full.middleCols(3, 13)) << dsml::gemm_kernel_name(kernel);
  }
}

TEST(Gemm, EmptyShapesAsEigen) {
  for (GemmKernel kernel : kernels_here()) {
    const Matrix<float> none = dsml::matmul<float>(Matrix<float>(0, 3), Transpose::no, Matrix<float>(3, 4),
                                                   Transpose::no, kernel);
    EXPECT_EQ(none.rows(), 0);
    EXPECT_EQ(none.cols(), 4);
    const Matrix<float> zeros = dsml::matmul<float>(Matrix<float>(2, 0), Transpose::no, Matrix<float>(0, 3),
                                                    Transpose::no, kernel);
    EXPECT_EQ(zeros, Matrix<float>::Zero(2, 3)) << dsml::gemm_kernel_name(kernel);
  }
}

TEST(Gemm, MismatchedShapesAreAClearError) {
  const std::string message = error_of([] {
    dsml::matmul<double>(Matrix<double>(4, 3), Transpose::no, Matrix<double>(4, 5), Transpose::no);
  });
  EXPECT_EQ(message,
            "matrix product: op(A) is 4 x 3 and op(B) is 4 x 5; the columns of op(A) must equal the rows of op(B)");
  // The same operands are fine once A is transposed.
  EXPECT_NO_THROW(dsml::matmul<double>(Matrix<double>(4, 3), Transpose::yes, Matrix<double>(4, 5), Transpose::no));
}

TEST(Gemm, KernelNamesAndAvailability) {
  for (GemmKernel k : {GemmKernel::automatic, GemmKernel::eigen, GemmKernel::portable, GemmKernel::avx2_fma,
                       GemmKernel::wasm_simd128})
    EXPECT_EQ(dsml::parse_gemm_kernel(dsml::gemm_kernel_name(k)), k);
  EXPECT_NE(error_of([] { dsml::parse_gemm_kernel("cublas"); }).find("unknown GEMM kernel \"cublas\""),
            std::string::npos);
  // A native build has no wasm kernel: asking for it is an error, not a silent fallback.
  EXPECT_FALSE(dsml::gemm_kernel_available(GemmKernel::wasm_simd128));
  EXPECT_NE(error_of([] {
              dsml::matmul<float>(Matrix<float>(1, 1), Transpose::no, Matrix<float>(1, 1), Transpose::no,
                                  GemmKernel::wasm_simd128);
            }).find("wasm_simd128 GEMM kernel is not available"),
            std::string::npos);
  const GemmKernel chosen = dsml::automatic_gemm_kernel();
  EXPECT_EQ(chosen, dsml::gemm_kernel_available(GemmKernel::avx2_fma) ? GemmKernel::avx2_fma : GemmKernel::eigen);
}

// The block kernels, which every training path runs, agree with Eigen's product to rounding at a shape with
// tile edges everywhere (B = 7, D = 13, F = 37), for whichever kernel is automatic here.
TEST(Gemm, BlockKernelsMatchEigenProducts) {
  const Matrix<double> x = Matrix<double>::Random(7, 13), w_in = Matrix<double>::Random(37, 13);
  const Matrix<double> w_out = Matrix<double>::Random(13, 37), dy = Matrix<double>::Random(7, 13);
  const GemmKernel eigen = GemmKernel::eigen;
  auto close = [](const Matrix<double>& got, const Matrix<double>& want) {
    return (got - want).cwiseAbs().maxCoeff() <= 1e-13 * std::max(1.0, want.cwiseAbs().maxCoeff());
  };
  const Matrix<double> h = dsml::pre_activation(x, w_in);
  EXPECT_TRUE(close(h, dsml::pre_activation(x, w_in, eigen)));
  const Matrix<double> act = dsml::activate<double>(dsml::Activation::gelu, h);
  EXPECT_TRUE(close(dsml::block_out_forward(act, w_out), dsml::block_out_forward(act, w_out, eigen)));
  const auto out = dsml::block_out_backward(dy, act, w_out);
  const auto out_ref = dsml::block_out_backward(dy, act, w_out, eigen);
  EXPECT_TRUE(close(out.d_w_out, out_ref.d_w_out));
  EXPECT_TRUE(close(out.d_a, out_ref.d_a));
  const auto in = dsml::block_in_backward(dsml::Activation::gelu, out.d_a, h, x, w_in);
  const auto in_ref = dsml::block_in_backward(dsml::Activation::gelu, out.d_a, h, x, w_in, eigen);
  EXPECT_TRUE(close(in.d_w_in, in_ref.d_w_in));
  EXPECT_TRUE(close(in.d_x, in_ref.d_x));
}

}  // namespace
