// micro_kernel_avx2.cpp — the micro-kernel of micro_kernel.h for x86-64 with AVX2 and FMA (Haswell, Zen and
// later): a 2-vector column of A times 6 broadcast values of B per step, 12 fused multiply-adds into 12 ymm
// accumulators (16 × 6 floats, 8 × 6 doubles) — the register tile of BLIS's Haswell kernels, transposed for a
// column-major C. Per step: 2 loads of A, 6 broadcast loads of B, 12 FMAs; two FMA pipes retire them in 6 cycles.
//
// Only these functions carry target("avx2,fma"); the rest of the library is built for baseline x86-64, and
// gemm.cpp calls in here only after cpu_has_avx2_fma() said yes — so one binary runs on any x86-64 CPU.
#include "gemm/micro_kernel.h"

#ifdef DSML_GEMM_HAS_AVX2

#include <immintrin.h>

#define DSML_AVX2 __attribute__((target("avx2,fma")))

namespace dsml::gemm_detail {

namespace {

// The few intrinsics the kernel needs, by scalar type (8 floats or 4 doubles per ymm register).
template <typename Scalar>
struct Ymm;

template <>
struct Ymm<float> {
  using V = __m256;
  static constexpr int width = 8;
  DSML_AVX2 static V zero() { return _mm256_setzero_ps(); }
  DSML_AVX2 static V load(const float* p) { return _mm256_loadu_ps(p); }
  DSML_AVX2 static V broadcast(const float* p) { return _mm256_broadcast_ss(p); }
  DSML_AVX2 static V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }  // a·b + c, rounded once
  DSML_AVX2 static V add(V a, V b) { return _mm256_add_ps(a, b); }
  DSML_AVX2 static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
};

template <>
struct Ymm<double> {
  using V = __m256d;
  static constexpr int width = 4;
  DSML_AVX2 static V zero() { return _mm256_setzero_pd(); }
  DSML_AVX2 static V load(const double* p) { return _mm256_loadu_pd(p); }
  DSML_AVX2 static V broadcast(const double* p) { return _mm256_broadcast_sd(p); }
  DSML_AVX2 static V fma(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
  DSML_AVX2 static V add(V a, V b) { return _mm256_add_pd(a, b); }
  DSML_AVX2 static void store(double* p, V v) { _mm256_storeu_pd(p, v); }
};

constexpr int kNr = 6;

// C tile (2·W × 6): u_j holds rows 0…W−1 of column j, l_j rows W…2W−1. Written out rather than as arrays and
// loops: GCC keeps arrays of vectors in memory and stores them back on every step.
template <typename Scalar>
DSML_AVX2 void avx2_tile(int kc, const Scalar* a, const Scalar* b, std::ptrdiff_t b_row, std::ptrdiff_t b_col,
                         Scalar* c, std::ptrdiff_t ldc, bool accumulate) noexcept {
  using Y = Ymm<Scalar>;
  using V = typename Y::V;
  constexpr int w = Y::width;
  V u0 = Y::zero(), u1 = u0, u2 = u0, u3 = u0, u4 = u0, u5 = u0;
  V l0 = u0, l1 = u0, l2 = u0, l3 = u0, l4 = u0, l5 = u0;
  const Scalar *b0 = b, *b1 = b + b_col, *b2 = b + 2 * b_col, *b3 = b + 3 * b_col, *b4 = b + 4 * b_col,
               *b5 = b + 5 * b_col;
  for (std::ptrdiff_t p = 0, pb = 0; p < kc; ++p, a += 2 * w, pb += b_row) {
    const V au = Y::load(a), al = Y::load(a + w);  // column p of the A panel
    V bj = Y::broadcast(b0 + pb);
    u0 = Y::fma(au, bj, u0), l0 = Y::fma(al, bj, l0);
    bj = Y::broadcast(b1 + pb);
    u1 = Y::fma(au, bj, u1), l1 = Y::fma(al, bj, l1);
    bj = Y::broadcast(b2 + pb);
    u2 = Y::fma(au, bj, u2), l2 = Y::fma(al, bj, l2);
    bj = Y::broadcast(b3 + pb);
    u3 = Y::fma(au, bj, u3), l3 = Y::fma(al, bj, l3);
    bj = Y::broadcast(b4 + pb);
    u4 = Y::fma(au, bj, u4), l4 = Y::fma(al, bj, l4);
    bj = Y::broadcast(b5 + pb);
    u5 = Y::fma(au, bj, u5), l5 = Y::fma(al, bj, l5);
  }
  const V upper[kNr] = {u0, u1, u2, u3, u4, u5}, lower[kNr] = {l0, l1, l2, l3, l4, l5};
  for (int j = 0; j < kNr; ++j) {
    Scalar* c_j = c + j * ldc;
    Y::store(c_j, accumulate ? Y::add(Y::load(c_j), upper[j]) : upper[j]);
    Y::store(c_j + w, accumulate ? Y::add(Y::load(c_j + w), lower[j]) : lower[j]);
  }
}

}  // namespace

template <>
MicroKernel<float> avx2_fma_micro_kernel<float>() {
  return {2 * Ymm<float>::width, kNr, &avx2_tile<float>};
}

template <>
MicroKernel<double> avx2_fma_micro_kernel<double>() {
  return {2 * Ymm<double>::width, kNr, &avx2_tile<double>};
}

bool cpu_has_avx2_fma() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }

}  // namespace dsml::gemm_detail

#endif  // DSML_GEMM_HAS_AVX2
