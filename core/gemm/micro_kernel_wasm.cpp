// micro_kernel_wasm.cpp — the micro-kernel of micro_kernel.h for WebAssembly SIMD128 (built with -msimd128):
// a 4-vector column of A times 2 broadcast values of B per step (16 × 2 floats, 8 × 2 doubles). SIMD128 has no
// fused multiply-add (relaxed SIMD is newer than Emscripten 3.1.6 and Node 20 without flags), so every step is a
// multiply and an add, rounded twice — like Eigen's and the portable kernel's arithmetic, unlike AVX2's FMA.
// The tile is set by registers: V8 compiles v128 values to the 16 xmm registers of x86-64, and the accumulators,
// the A vectors, a broadcast and a product must fit in them. Measured in Node 20 on a Zen 5 core, fp32, the six
// products of the benchmark's block (bench/gemm_shapes.cpp, best of 60, ms summed over the six):
//   vectors × columns   4 × 2: 18.0    2 × 5: 19.2    3 × 3: 20.1    2 × 4: 21.4    3 × 2: 24.7    6 × 1: 26.7
//   (12 accumulators or more — 2 × 6, 3 × 4, 4 × 3 — spill and run at half speed or worse)
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

constexpr int kVectors = 4, kNr = 2;

// C tile (kVectors·W × kNr): acc[j][v] holds rows v·W … v·W + W − 1 of column j. (Clang keeps these small arrays
// in registers once the constant loops are unrolled.)
template <typename Scalar>
void wasm_tile(int kc, const Scalar* a, const Scalar* b, std::ptrdiff_t b_row, std::ptrdiff_t b_col, Scalar* c,
               std::ptrdiff_t ldc, bool accumulate) noexcept {
  using V = V128<Scalar>;
  constexpr int w = V::width;
  v128_t acc[kNr][kVectors];
  for (int j = 0; j < kNr; ++j)
    for (int v = 0; v < kVectors; ++v) acc[j][v] = V::zero();
  for (int p = 0; p < kc; ++p, a += kVectors * w, b += b_row) {
    v128_t a_p[kVectors];  // column p of the A panel
    for (int v = 0; v < kVectors; ++v) a_p[v] = wasm_v128_load(a + v * w);
    for (int j = 0; j < kNr; ++j) {
      const v128_t b_pj = V::broadcast(b + j * b_col);
      for (int v = 0; v < kVectors; ++v) acc[j][v] = V::add(acc[j][v], V::mul(a_p[v], b_pj));
    }
  }
  for (int j = 0; j < kNr; ++j)
    for (int v = 0; v < kVectors; ++v) {
      Scalar* c_jv = c + j * ldc + v * w;
      wasm_v128_store(c_jv, accumulate ? V::add(wasm_v128_load(c_jv), acc[j][v]) : acc[j][v]);
    }
}

}  // namespace

template <>
MicroKernel<float> wasm_simd128_micro_kernel<float>() {
  return {kVectors * V128<float>::width, kNr, &wasm_tile<float>};
}

template <>
MicroKernel<double> wasm_simd128_micro_kernel<double>() {
  return {kVectors * V128<double>::width, kNr, &wasm_tile<double>};
}

}  // namespace dsml::gemm_detail

#endif  // DSML_GEMM_HAS_WASM_SIMD128
