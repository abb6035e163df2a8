// micro_kernel.h — the innermost loop of the packed GEMM (gemm.cpp), one per instruction set.
//
// A micro-kernel computes one MR × NR tile of C from kc steps of the shared dimension:
//   acc(i, j) = Σ_{p < kc} a[p·MR + i] · b[p·b_row + j·b_col]          i < MR, j < NR
//   c[i + j·ldc] = accumulate ? c[i + j·ldc] + acc(i, j) : acc(i, j)
// `a` is a packed panel (the MR values of each step p contiguous, so they load as SIMD vectors); `b` is read in
// place through its strides, one scalar at a time, broadcast to a vector. acc starts at zero and is added to C
// once at the end, so an edge tile computed into a scratch tile and copied rounds exactly like an inner tile.
//
// Choosing MR × NR: the MR·NR/W accumulators (W = values per vector), MR/W vectors of A and one broadcast of B
// must fit in the 16 vector registers of AVX2 and of wasm SIMD as V8 compiles it on x86-64, or the tile spills.
#pragma once

#include <cstddef>

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(__EMSCRIPTEN__)
#define DSML_GEMM_HAS_AVX2 1  // compiled with target attributes, used only if the CPU says it has AVX2 and FMA
#endif
#if defined(__wasm_simd128__)
#define DSML_GEMM_HAS_WASM_SIMD128 1
#endif

namespace dsml::gemm_detail {

template <typename Scalar>
struct MicroKernel {
  int mr;  // rows of the C tile (the packed, vectorised side)
  int nr;  // columns of the C tile (the broadcast side)
  // noexcept matters in wasm: Emscripten's exceptions are JavaScript's, and a call that might throw from a function
  // with objects to destroy goes out through a JS wrapper — once per tile, a tenth of the fp32 step's time.
  void (*run)(int kc, const Scalar* a, const Scalar* b, std::ptrdiff_t b_row, std::ptrdiff_t b_col, Scalar* c,
              std::ptrdiff_t ldc, bool accumulate) noexcept;
};

// micro_kernel_portable.cpp: plain C++, 8 × 4.
template <typename Scalar>
MicroKernel<Scalar> portable_micro_kernel();

#ifdef DSML_GEMM_HAS_AVX2
// micro_kernel_avx2.cpp: 16 × 6 floats, 8 × 6 doubles (12 ymm accumulators).
template <typename Scalar>
MicroKernel<Scalar> avx2_fma_micro_kernel();
bool cpu_has_avx2_fma();
#endif

#ifdef DSML_GEMM_HAS_WASM_SIMD128
// micro_kernel_wasm.cpp: 16 × 2 floats, 8 × 2 doubles.
template <typename Scalar>
MicroKernel<Scalar> wasm_simd128_micro_kernel();
#endif

}  // namespace dsml::gemm_detail
