// dsml/block_kernels.h — the five products and two elementwise maps of one MLP block, as header templates on
// the scalar type: double for the core (mlp.cpp, the single-device reference every strategy is compared with,
// and the lab's wasm kernels), float for the benchmark. Because the reference and the lab call the very same
// functions, a lab run can match the reference to rounding, not to "close enough".
// Every product goes through dsml/gemm.h: its fastest kernel here by default (AVX2/FMA natively when the CPU has
// it, SIMD128 in wasm), or the one `kernel` names — GemmKernel::eigen is Eigen's own product, the reference.
//
// One block (see dsml/mlp.h), x: (B, D) one example per row, W_in: (F, D), W_out: (D, F):
//   forward    H = x · W_inᵀ (B, F)     A = act(H) (B, F)     Y = A · W_outᵀ (B, D)     [x_next = x + Y]
//   backward   dW_out = dYᵀ · A (D, F)  dA = dY · W_out (B, F)
//              dH = dA ⊙ act'(H) (B, F) dW_in = dHᵀ · x (F, D)  dx = dH · W_in (B, D)   [+ dY with the residual]
// The residual is left to the caller, so that a tensor-parallel rank can run these on its slice: with W_in cut
// into row blocks and W_out into the matching column blocks (Megatron-LM, Shoeybi et al. 2019), every kernel
// works unchanged on (Fl, D) / (D, Fl) slices, and Y and dx are partial sums that an all-reduce completes.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <utility>

#include "dsml/error.h"
#include "dsml/gemm.h"
#include "dsml/mlp.h"

namespace dsml {

template <typename Scalar>
using BlockMatrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;

// ---- activations (ReLU: Nair & Hinton 2010; GELU tanh approximation: Hendrycks & Gimpel 2016, as GPT-2) ----
//   gelu(h)  = ½·h·(1 + t),   t = tanh(u),   u = c·(h + k·h³),   c = √(2/π),   k = 0.044715
//   gelu'(h) = ½·(1 + t) + ½·h·(1 − t²)·c·(1 + 3k·h²)
// ReLU's derivative at exactly 0 is taken as 0 (the subgradient PyTorch uses).
// Written as Eigen array expressions, so each is one pass that Eigen vectorises. tanh is Eigen's: std::tanh for
// double (the core's values are those of the C library), and for float a rational approximation within a few
// ulp that vectorises (glibc's tanhf, one call per entry, took a sixth of the fp32 benchmark's step).
namespace block_detail {

template <typename Scalar>
using BlockArray = Eigen::Array<Scalar, Eigen::Dynamic, Eigen::Dynamic>;

// t = tanh(c·(h + k·h³)), the tanh shared by gelu and gelu'.
template <typename Scalar>
BlockArray<Scalar> gelu_tanh(const BlockMatrix<Scalar>& h) {
  const Scalar c = Scalar(0.7978845608028654);  // √(2/π)
  const Scalar k = Scalar(0.044715);
  const auto x = h.array();
  return (c * (x + k * x * x * x)).tanh();
}

}  // namespace block_detail

// act(h), elementwise on (B, F).
template <typename Scalar>
BlockMatrix<Scalar> activate(Activation activation, const BlockMatrix<Scalar>& h) {
  const auto x = h.array();
  switch (activation) {
    case Activation::relu: return h.cwiseMax(Scalar(0));
    case Activation::gelu: return (Scalar(0.5) * x * (Scalar(1) + block_detail::gelu_tanh(h))).matrix();
    case Activation::tanh: return x.tanh().matrix();
  }
  throw Error("unknown activation");
}

// act'(h), elementwise on (B, F).
template <typename Scalar>
BlockMatrix<Scalar> activate_derivative(Activation activation, const BlockMatrix<Scalar>& h) {
  const auto x = h.array();
  switch (activation) {
    case Activation::relu: return h.unaryExpr([](Scalar v) { return v > Scalar(0) ? Scalar(1) : Scalar(0); });
    case Activation::gelu: {
      const Scalar c = Scalar(0.7978845608028654), k = Scalar(0.044715);
      const block_detail::BlockArray<Scalar> t = block_detail::gelu_tanh(h);
      return (Scalar(0.5) * (Scalar(1) + t) +
              Scalar(0.5) * x * (Scalar(1) - t * t) * c * (Scalar(1) + Scalar(3) * k * x * x))
          .matrix();
    }
    case Activation::tanh: {
      const block_detail::BlockArray<Scalar> t = x.tanh();
      return (Scalar(1) - t * t).matrix();
    }
  }
  throw Error("unknown activation");
}

// ---- forward ---------------------------------------------------------------------------------------------
// H (B, Fl) = x (B, D) · W_inᵀ (Fl, D)ᵀ — the one place H is computed, in forward and in recomputation alike,
// which is why recomputed gradients are bit-identical to kept ones.
template <typename Scalar>
BlockMatrix<Scalar> pre_activation(const BlockMatrix<Scalar>& x, const BlockMatrix<Scalar>& w_in,
                                   GemmKernel kernel = GemmKernel::automatic) {
  return matmul<Scalar>(x, Transpose::no, w_in, Transpose::yes, kernel);
}

// Y (B, D) = A (B, Fl) · W_outᵀ (D, Fl)ᵀ. Without the residual; with W_out cut by columns it is a partial sum.
template <typename Scalar>
BlockMatrix<Scalar> block_out_forward(const BlockMatrix<Scalar>& a, const BlockMatrix<Scalar>& w_out,
                                      GemmKernel kernel = GemmKernel::automatic) {
  return matmul<Scalar>(a, Transpose::no, w_out, Transpose::yes, kernel);
}

// ---- backward --------------------------------------------------------------------------------------------
template <typename Scalar>
struct BlockOutGradients {
  BlockMatrix<Scalar> d_w_out;  // (D, Fl) = dYᵀ · A
  BlockMatrix<Scalar> d_a;      // (B, Fl) = dY · W_out
};

// Given dY = ∂loss/∂Y (B, D), the block's A (B, Fl) and W_out (D, Fl).
template <typename Scalar>
BlockOutGradients<Scalar> block_out_backward(const BlockMatrix<Scalar>& dy, const BlockMatrix<Scalar>& a,
                                             const BlockMatrix<Scalar>& w_out,
                                             GemmKernel kernel = GemmKernel::automatic) {
  return {matmul<Scalar>(dy, Transpose::yes, a, Transpose::no, kernel),
          matmul<Scalar>(dy, Transpose::no, w_out, Transpose::no, kernel)};
}

template <typename Scalar>
struct BlockInGradients {
  BlockMatrix<Scalar> d_w_in;  // (Fl, D) = dHᵀ · x
  BlockMatrix<Scalar> d_x;     // (B, D)  = dH · W_in   — without the residual's dY; a partial sum under TP
};

// Given dA (B, Fl), the kept (or recomputed) H (B, Fl), the block input x (B, D) and W_in (Fl, D):
// dH = dA ⊙ act'(H) (B, Fl), then both products.
template <typename Scalar>
BlockInGradients<Scalar> block_in_backward(Activation activation, const BlockMatrix<Scalar>& d_a,
                                           const BlockMatrix<Scalar>& pre, const BlockMatrix<Scalar>& x,
                                           const BlockMatrix<Scalar>& w_in,
                                           GemmKernel kernel = GemmKernel::automatic) {
  const BlockMatrix<Scalar> dh = d_a.cwiseProduct(activate_derivative<Scalar>(activation, pre));
  return {matmul<Scalar>(dh, Transpose::yes, x, Transpose::no, kernel),
          matmul<Scalar>(dh, Transpose::no, w_in, Transpose::no, kernel)};
}

// ---- the backward cut in two (zero-bubble pipelines: Qi et al., ICLR 2024; dsml/mlp_split_backward.h) ---------
// The same products as block_out_backward + block_in_backward, grouped by who waits for them:
//   B (input gradient, the previous stage waits):  dA = dY · W_out (B, Fl)   dH = dA ⊙ act'(H) (B, Fl)
//                                                  dx = dH · W_in (B, D)   [+ dY with the residual: the caller's]
//   W (weight gradient, nobody waits):             dW_out = dYᵀ · A (D, Fl)   dW_in = dHᵀ · x (Fl, D)
// B then W gives block_out_backward's and block_in_backward's numbers bit for bit; between them the caller keeps
// dY and dH.
template <typename Scalar>
struct BlockInputGradients {
  BlockMatrix<Scalar> d_pre;  // (B, Fl) = dH, kept for W
  BlockMatrix<Scalar> d_x;    // (B, D) = dH · W_in, without the residual's dY
};

template <typename Scalar>
BlockInputGradients<Scalar> block_backward_input(Activation activation, const BlockMatrix<Scalar>& dy,
                                                 const BlockMatrix<Scalar>& pre, const BlockMatrix<Scalar>& w_in,
                                                 const BlockMatrix<Scalar>& w_out,
                                                 GemmKernel kernel = GemmKernel::automatic) {
  const BlockMatrix<Scalar> d_a = matmul<Scalar>(dy, Transpose::no, w_out, Transpose::no, kernel);
  BlockMatrix<Scalar> dh = d_a.cwiseProduct(activate_derivative<Scalar>(activation, pre));
  BlockMatrix<Scalar> dx = matmul<Scalar>(dh, Transpose::no, w_in, Transpose::no, kernel);
  return {std::move(dh), std::move(dx)};
}

template <typename Scalar>
struct BlockWeightGradients {
  BlockMatrix<Scalar> d_w_out;  // (D, Fl) = dYᵀ · A
  BlockMatrix<Scalar> d_w_in;   // (Fl, D) = dHᵀ · x
};

// Given B's dY (B, D) and dH (B, Fl), and the forward's A (B, Fl) and x (B, D).
template <typename Scalar>
BlockWeightGradients<Scalar> block_backward_weight(const BlockMatrix<Scalar>& dy, const BlockMatrix<Scalar>& a,
                                                   const BlockMatrix<Scalar>& dh, const BlockMatrix<Scalar>& x,
                                                   GemmKernel kernel = GemmKernel::automatic) {
  return {matmul<Scalar>(dy, Transpose::yes, a, Transpose::no, kernel),
          matmul<Scalar>(dh, Transpose::yes, x, Transpose::no, kernel)};
}

}  // namespace dsml
