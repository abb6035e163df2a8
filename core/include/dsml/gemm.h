// dsml/gemm.h — the matrix product every MLP block kernel is made of, C = op(A) · op(B), with op = identity or
// transpose, in float and double, column-major as Eigen stores matrices.
//
// Eigen's own product is the reference. The fast path is a packed, register-blocked GEMM in the style of
// GotoBLAS/BLIS (Goto & van de Geijn, "Anatomy of high-performance matrix multiplication", TOMS 2008; Van Zee &
// van de Geijn, "BLIS", TOMS 2015): the operand that becomes SIMD vectors is copied into small contiguous panels,
// and a micro-kernel keeps an MR × NR tile of C in registers while it walks the shared dimension. Micro-kernels:
//   portable      plain C++, any CPU — the readable one, and what the tests run everywhere
//   avx2_fma      x86-64 with AVX2 and FMA, picked at run time (the build itself stays baseline x86-64)
//   wasm_simd128  WebAssembly SIMD128, picked at build time (-msimd128)
// GemmKernel::automatic uses the fastest one this build and CPU have, and Eigen's product where there is none
// (e.g. an x86-64 CPU without AVX2): the packed kernels are only there to beat it.
//
// Every kernel sums each entry of C in the same order wherever the entry lies in C (edge tiles run the same
// micro-kernel on zero-padded copies), so results do not depend on how a matrix is cut into tiles — but they
// do differ from Eigen's and between kernels by rounding (FMA rounds once, mul + add twice).
#pragma once

#include <Eigen/Core>

namespace dsml {

enum class Transpose { no, yes };

enum class GemmKernel { automatic, eigen, portable, avx2_fma, wasm_simd128 };

// "automatic", "eigen", "portable", "avx2_fma", "wasm_simd128".
const char* gemm_kernel_name(GemmKernel kernel);
// Throws Error on any other name.
GemmKernel parse_gemm_kernel(const char* name);

// Whether this build, on this CPU, can run `kernel` (automatic, eigen and portable: always).
bool gemm_kernel_available(GemmKernel kernel);

// What `automatic` means here: wasm_simd128 in a -msimd128 build, avx2_fma on a CPU that has both, else eigen.
GemmKernel automatic_gemm_kernel();

template <typename Scalar>
using GemmMatrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;

// op(a) · op(b). Throws Error if the inner dimensions differ, or if `kernel` is not available here.
// A 0-sized dimension gives an empty (or, with an empty inner dimension, all-zero) result, as in Eigen.
template <typename Scalar>
GemmMatrix<Scalar> matmul(const GemmMatrix<Scalar>& a, Transpose op_a, const GemmMatrix<Scalar>& b,
                          Transpose op_b, GemmKernel kernel = GemmKernel::automatic);

extern template GemmMatrix<float> matmul(const GemmMatrix<float>&, Transpose, const GemmMatrix<float>&, Transpose,
                                         GemmKernel);
extern template GemmMatrix<double> matmul(const GemmMatrix<double>&, Transpose, const GemmMatrix<double>&,
                                          Transpose, GemmKernel);

}  // namespace dsml
