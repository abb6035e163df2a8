// micro_kernel_portable.cpp — the micro-kernel of micro_kernel.h in plain C++: what every SIMD kernel beside it
// computes, in the same order (acc from zero over p, added to C at the end). It runs on any CPU, so the tests check
// the packing and tiling of gemm.cpp with it everywhere; it is not used by default (see GemmKernel::automatic).
#include "gemm/micro_kernel.h"

namespace dsml::gemm_detail {

namespace {

template <typename Scalar, int MR, int NR>
void portable_tile(int kc, const Scalar* a, const Scalar* b, std::ptrdiff_t b_row, std::ptrdiff_t b_col, Scalar* c,
                   std::ptrdiff_t ldc, bool accumulate) noexcept {
  Scalar acc[NR][MR] = {};
  for (int p = 0; p < kc; ++p, a += MR, b += b_row) {
    for (int j = 0; j < NR; ++j) {
      const Scalar b_pj = b[j * b_col];
      for (int i = 0; i < MR; ++i) acc[j][i] += a[i] * b_pj;
    }
  }
  for (int j = 0; j < NR; ++j) {
    Scalar* c_j = c + j * ldc;  // column j of the tile
    for (int i = 0; i < MR; ++i) c_j[i] = accumulate ? c_j[i] + acc[j][i] : acc[j][i];
  }
}

}  // namespace

template <>
MicroKernel<float> portable_micro_kernel<float>() {
  return {8, 4, &portable_tile<float, 8, 4>};
}

template <>
MicroKernel<double> portable_micro_kernel<double>() {
  return {8, 4, &portable_tile<double, 8, 4>};
}

}  // namespace dsml::gemm_detail
