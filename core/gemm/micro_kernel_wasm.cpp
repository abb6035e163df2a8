// micro_kernel_wasm.cpp — the micro-kernel of micro_kernel.h for WebAssembly SIMD128 (built with -msimd128):
// a 2-vector column of A times NR broadcast values of B per step (8 × NR floats, 4 × NR doubles). SIMD128 has no
// fused multiply-add (relaxed SIMD is newer than Emscripten 3.1.6 and Node 20 without flags), so every step is a
// multiply and an add, rounded twice — like Eigen's and the portable kernel's arithmetic, unlike AVX2's FMA.
// The tile size is set by registers: V8 compiles v128 values to the 16 xmm registers of x86-64 (or 32 of arm64),
// and 2·NR accumulators + 2 of A + 1 broadcast + 1 product must fit in 16 to stay out of memory.
#include "gemm/micro_kernel.h"

#ifdef DSML_GEMM_HAS_WASM_SIMD128

#include <wasm_simd128.h>

namespace dsml::gemm_detail {

namespace {

// The few intrinsics the kernel needs, by scalar type (4 floats or 2 doubles per v128).
template <typename Scalar>
struct V128;

template <>
struct V128<float> {
  static constexpr int width = 4;
  static v128_t broadcast(const float* p) { return wasm_v128_load32_splat(p); }
  static v128_t mul(v128_t a, v128_t b) { return wasm_f32x4_mul(a, b); }
  static v128_t add(v128_t a, v128_t b) { return wasm_f32x4_add(a, b); }
  static v128_t zero() { return wasm_f32x4_splat(0.0f); }
};

template <>
struct V128<double> {
  static constexpr int width = 2;
  static v128_t broadcast(const double* p) { return wasm_v128_load64_splat(p); }
  static v128_t mul(v128_t a, v128_t b) { return wasm_f64x2_mul(a, b); }
  static v128_t add(v128_t a, v128_t b) { return wasm_f64x2_add(a, b); }
  static v128_t zero() { return wasm_f64x2_splat(0.0); }
};

// C tile (2·W × NR): upper[j] holds rows 0…W−1 of column j, lower[j] rows W…2W−1.
template <typename Scalar, int NR>
void wasm_tile(int kc, const Scalar* a, const Scalar* b, std::ptrdiff_t b_row, std::ptrdiff_t b_col, Scalar* c,
               std::ptrdiff_t ldc, bool accumulate) noexcept {
  using V = V128<Scalar>;
  constexpr int w = V::width;
  v128_t upper[NR], lower[NR];
  for (int j = 0; j < NR; ++j) upper[j] = lower[j] = V::zero();
  for (int p = 0; p < kc; ++p, a += 2 * w, b += b_row) {
    const v128_t a_upper = wasm_v128_load(a), a_lower = wasm_v128_load(a + w);  // column p of the A panel
    for (int j = 0; j < NR; ++j) {
      const v128_t b_pj = V::broadcast(b + j * b_col);
      upper[j] = V::add(upper[j], V::mul(a_upper, b_pj));
      lower[j] = V::add(lower[j], V::mul(a_lower, b_pj));
    }
  }
  for (int j = 0; j < NR; ++j) {
    Scalar* c_j = c + j * ldc;
    if (accumulate) {
      upper[j] = V::add(wasm_v128_load(c_j), upper[j]);
      lower[j] = V::add(wasm_v128_load(c_j + w), lower[j]);
    }
    wasm_v128_store(c_j, upper[j]);
    wasm_v128_store(c_j + w, lower[j]);
  }
}

// 10 accumulators: NR = 4 ran the block's products at 33–40 GFLOP/s in Node on a Zen 5 core, NR = 5 at 37–42,
// NR = 6 (12 accumulators, spilled) at 15–24 (bench/gemm_shapes.cpp, fp32, best of 30).
constexpr int kNr = 5;

}  // namespace

template <>
MicroKernel<float> wasm_simd128_micro_kernel<float>() {
  return {2 * V128<float>::width, kNr, &wasm_tile<float, kNr>};
}

template <>
MicroKernel<double> wasm_simd128_micro_kernel<double>() {
  return {2 * V128<double>::width, kNr, &wasm_tile<double, kNr>};
}

}  // namespace dsml::gemm_detail

#endif  // DSML_GEMM_HAS_WASM_SIMD128
