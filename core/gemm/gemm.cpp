// gemm.cpp — C = op(A) · op(B), column-major: the blocked loops around a micro-kernel (micro_kernel.h), and the
// choice of kernel. The loops, outermost first (Goto & van de Geijn 2008; BLIS's five loops, with B packed only
// when it must be):
//
//   for pc in k, step kc (≤ 256)               a slice of the shared dimension
//     for ic in m, step mc (A block ≤ 256 KiB)   pack A[ic : ic+mc, pc : pc+kc] into MR-row panels (stays in L2)
//       for jc in n, step nc                      pack B[pc : pc+kc, jc : jc+nc] into NR-column panels, if needed
//         for jr in nc, step NR                   one kc × NR block of B (stays in L1 while …)
//           for ir in mc, step MR                 … every A panel meets it: the micro-kernel adds one C tile
//
// A is always packed (its MR values per step must be contiguous to load as vectors; it is the small operand in
// the MLP's products, m = batch). B is read in place when its columns are contiguous (B(p, j) at p + j·ld: NR
// sequential streams the prefetcher follows — the weights in dY·W and dH·W). When B's rows are the contiguous
// direction (B = Wᵀ in x·W_inᵀ and A·W_outᵀ), successive p lie a whole weight column apart, all in one cache set,
// so those blocks are packed, nc columns at a time. Edge tiles (m or n not a multiple of MR, NR) run the same
// kernel on zero-padded panels into a scratch tile, so every entry of C is summed in the same order.
// The first kc slice writes C, later ones add to it: no separate zeroing pass.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "dsml/error.h"
#include "dsml/gemm.h"
#include "gemm/micro_kernel.h"

namespace dsml {

namespace {

using gemm_detail::MicroKernel;
using Index = std::ptrdiff_t;

constexpr Index kMaxKc = 256;                     // steps of the shared dimension per packed slice
constexpr Index kABlockBytes = 256 * 1024;        // packed A block, meant to stay in L2
constexpr Index kBBlockBytes = 128 * 1024;        // packed B block (when B is packed), likewise

// op(M) as a strided view: entry (i, j) at data[i·row + j·col]; column-major M with leading dimension ld gives
// row = 1, col = ld, and its transpose row = ld, col = 1.
template <typename Scalar>
struct View {
  const Scalar* data;
  Index rows, cols, row, col;
  const Scalar* at(Index i, Index j) const { return data + i * row + j * col; }
};

template <typename Scalar>
View<Scalar> view_of(const GemmMatrix<Scalar>& m, Transpose op) {
  if (op == Transpose::no) return {m.data(), m.rows(), m.cols(), 1, m.rows()};
  return {m.data(), m.cols(), m.rows(), m.rows(), 1};
}

// Copies n values; up to 8 as straight-line code, since a memcpy call for a panel row of 5 floats costs more than
// the copy (2.4× in wasm, 2× natively, packing a 512 × 2048 weight).
template <typename Scalar>
void copy_short(const Scalar* src, Index n, Scalar* dst) {
  switch (n) {
    case 8: dst[7] = src[7]; [[fallthrough]];
    case 7: dst[6] = src[6]; [[fallthrough]];
    case 6: dst[5] = src[5]; [[fallthrough]];
    case 5: dst[4] = src[4]; [[fallthrough]];
    case 4: dst[3] = src[3]; [[fallthrough]];
    case 3: dst[2] = src[2]; [[fallthrough]];
    case 2: dst[1] = src[1]; [[fallthrough]];
    case 1: dst[0] = src[0]; [[fallthrough]];
    case 0: return;
    default: std::copy_n(src, n, dst);
  }
}

// Packs rows [i0, i0 + rows) × columns [p0, p0 + kc) of A into panels of `mr` rows: out[p·mr + i], zero past `rows`.
// Reads along whichever direction of A is contiguous.
template <typename Scalar>
void pack_a_panel(const View<Scalar>& a, Index i0, Index rows, Index p0, Index kc, int mr, Scalar* out) {
  if (rows < mr) std::fill(out, out + kc * mr, Scalar(0));
  if (a.row == 1) {
    for (Index p = 0; p < kc; ++p) copy_short(a.at(i0, p0 + p), rows, out + p * mr);
  } else {
    for (Index i = 0; i < rows; ++i) {
      const Scalar* src = a.at(i0 + i, p0);
      for (Index p = 0; p < kc; ++p) out[p * mr + i] = src[p * a.col];
    }
  }
}

// Packs rows [p0, p0 + kc) × columns [j0, j0 + cols) of B into panels of `nr` columns, one after the other:
// panel q holds out[q·kc·nr + p·nr + j] = B(p0 + p, j0 + q·nr + j), zero past `cols`. When B's rows are contiguous
// each row is read once, left to right, and dealt out to the panels (reading panel by panel instead would revisit
// every cache line of the row once per panel, after the other rows — a whole column apart — had evicted it).
template <typename Scalar>
void pack_b_block(const View<Scalar>& b, Index p0, Index kc, Index j0, Index cols, int nr, Scalar* out) {
  const Index panels = (cols + nr - 1) / nr;
  if (cols % nr != 0) std::fill(out + (panels - 1) * kc * nr, out + panels * kc * nr, Scalar(0));
  if (b.col == 1) {
    for (Index p = 0; p < kc; ++p) {
      const Scalar* src = b.at(p0 + p, j0);
      for (Index q = 0; q < panels; ++q)
        copy_short(src + q * nr, std::min<Index>(nr, cols - q * nr), out + q * kc * nr + p * nr);
    }
  } else {
    for (Index j = 0; j < cols; ++j) {
      const Scalar* src = b.at(p0, j0 + j);
      Scalar* dst = out + (j / nr) * kc * nr + j % nr;
      for (Index p = 0; p < kc; ++p) dst[p * nr] = src[p * b.row];
    }
  }
}

// C (column-major, leading dimension m) = A · B with the given micro-kernel.
template <typename Scalar>
void packed_gemm(const MicroKernel<Scalar>& kernel, const View<Scalar>& a, const View<Scalar>& b, Scalar* c) {
  const Index m = a.rows, n = b.cols, k = a.cols, ldc = m;
  const int mr = kernel.mr, nr = kernel.nr;
  const Index kc_max = std::min(k, kMaxKc);
  const Index mc_max = std::clamp<Index>(kABlockBytes / Index(sizeof(Scalar)) / kc_max / mr, 1, (m + mr - 1) / mr) * mr;
  // No wider than B: a 4 × 8 · 8 × 32 product would otherwise allocate and zero a 128 KiB block per call (the Week 6
  // capstone's loss curve spent a third of its time in that memset and the page faults behind it).
  const Index nc_max = std::min(std::max<Index>(kBBlockBytes / Index(sizeof(Scalar)) / kc_max / nr, 1), (n + nr - 1) / nr) * nr;
  const bool pack_b = b.row != 1;  // see the header: B is read in place only when its columns are contiguous

  std::vector<Scalar> a_block(mc_max * kc_max);
  std::vector<Scalar> b_block((pack_b ? nc_max : nr) * kc_max);
  std::vector<Scalar> tile(mr * nr);

  for (Index pc = 0; pc < k; pc += kc_max) {
    const Index kc = std::min(kc_max, k - pc);
    const bool accumulate = pc > 0;
    for (Index ic = 0; ic < m; ic += mc_max) {
      const Index mc = std::min(mc_max, m - ic);
      for (Index ir = 0; ir < mc; ir += mr)
        pack_a_panel(a, ic + ir, std::min<Index>(mr, mc - ir), pc, kc, mr, a_block.data() + ir * kc);

      for (Index jc = 0; jc < n; jc += nc_max) {
        const Index nc = std::min(nc_max, n - jc);
        if (pack_b) pack_b_block(b, pc, kc, jc, nc, nr, b_block.data());

        for (Index jr = 0; jr < nc; jr += nr) {
          const Index cols = std::min<Index>(nr, nc - jr);
          // This kc × NR block of B: packed (row stride nr, column stride 1) or in place.
          const Scalar* b_panel = nullptr;
          Index b_row = nr, b_col = 1;
          if (pack_b) {
            b_panel = b_block.data() + jr * kc;
          } else if (cols < nr) {
            pack_b_block(b, pc, kc, jc + jr, cols, nr, b_block.data());
            b_panel = b_block.data();
          } else {
            b_panel = b.at(pc, jc + jr);
            b_row = b.row;
            b_col = b.col;
          }
          for (Index ir = 0; ir < mc; ir += mr) {
            const Index rows = std::min<Index>(mr, mc - ir);
            const Scalar* a_panel = a_block.data() + ir * kc;
            Scalar* c_tile = c + (ic + ir) + (jc + jr) * ldc;
            if (rows == mr && cols == nr) {
              kernel.run(int(kc), a_panel, b_panel, b_row, b_col, c_tile, ldc, accumulate);
              continue;
            }
            // Edge tile: the full kernel into scratch, then the part that exists, added as the kernel adds.
            kernel.run(int(kc), a_panel, b_panel, b_row, b_col, tile.data(), mr, false);
            for (Index j = 0; j < cols; ++j)
              for (Index i = 0; i < rows; ++i) {
                const Scalar t = tile[i + j * mr];
                c_tile[i + j * ldc] = accumulate ? c_tile[i + j * ldc] + t : t;
              }
          }
        }
      }
    }
  }
}

template <typename Scalar>
GemmMatrix<Scalar> eigen_product(const GemmMatrix<Scalar>& a, Transpose op_a, const GemmMatrix<Scalar>& b,
                                 Transpose op_b) {
  GemmMatrix<Scalar> c;
  if (op_a == Transpose::no && op_b == Transpose::no) c.noalias() = a * b;
  if (op_a == Transpose::no && op_b == Transpose::yes) c.noalias() = a * b.transpose();
  if (op_a == Transpose::yes && op_b == Transpose::no) c.noalias() = a.transpose() * b;
  if (op_a == Transpose::yes && op_b == Transpose::yes) c.noalias() = a.transpose() * b.transpose();
  return c;
}

template <typename Scalar>
MicroKernel<Scalar> micro_kernel(GemmKernel kernel) {
  switch (kernel) {
#ifdef DSML_GEMM_HAS_AVX2
    case GemmKernel::avx2_fma: return gemm_detail::avx2_fma_micro_kernel<Scalar>();
#endif
#ifdef DSML_GEMM_HAS_WASM_SIMD128
    case GemmKernel::wasm_simd128: return gemm_detail::wasm_simd128_micro_kernel<Scalar>();
#endif
    default: return gemm_detail::portable_micro_kernel<Scalar>();
  }
}

std::string shape(Index rows, Index cols) { return std::to_string(rows) + " x " + std::to_string(cols); }

}  // namespace

const char* gemm_kernel_name(GemmKernel kernel) {
  switch (kernel) {
    case GemmKernel::automatic: return "automatic";
    case GemmKernel::eigen: return "eigen";
    case GemmKernel::portable: return "portable";
    case GemmKernel::avx2_fma: return "avx2_fma";
    case GemmKernel::wasm_simd128: return "wasm_simd128";
  }
  return "unknown";
}

GemmKernel parse_gemm_kernel(const char* name) {
  for (GemmKernel k : {GemmKernel::automatic, GemmKernel::eigen, GemmKernel::portable, GemmKernel::avx2_fma,
                       GemmKernel::wasm_simd128})
    if (std::strcmp(name, gemm_kernel_name(k)) == 0) return k;
  throw Error(std::string("unknown GEMM kernel \"") + name +
              "\" (automatic, eigen, portable, avx2_fma, wasm_simd128)");
}

bool gemm_kernel_available(GemmKernel kernel) {
  switch (kernel) {
    case GemmKernel::automatic:
    case GemmKernel::eigen:
    case GemmKernel::portable: return true;
    case GemmKernel::avx2_fma:
#ifdef DSML_GEMM_HAS_AVX2
      return gemm_detail::cpu_has_avx2_fma();
#else
      return false;
#endif
    case GemmKernel::wasm_simd128:
#ifdef DSML_GEMM_HAS_WASM_SIMD128
      return true;
#else
      return false;
#endif
  }
  return false;
}

GemmKernel automatic_gemm_kernel() {
  if (gemm_kernel_available(GemmKernel::wasm_simd128)) return GemmKernel::wasm_simd128;
  if (gemm_kernel_available(GemmKernel::avx2_fma)) return GemmKernel::avx2_fma;
  return GemmKernel::eigen;
}

template <typename Scalar>
GemmMatrix<Scalar> matmul(const GemmMatrix<Scalar>& a, Transpose op_a, const GemmMatrix<Scalar>& b,
                          Transpose op_b, GemmKernel kernel) {
  const View<Scalar> va = view_of(a, op_a), vb = view_of(b, op_b);
  if (va.cols != vb.rows)
    throw Error("matrix product: op(A) is " + shape(va.rows, va.cols) + " and op(B) is " + shape(vb.rows, vb.cols) +
                "; the columns of op(A) must equal the rows of op(B)");
  if (!gemm_kernel_available(kernel))
    throw Error(std::string("the ") + gemm_kernel_name(kernel) + " GEMM kernel is not available in this build on "
                "this CPU (avx2_fma needs x86-64 with AVX2 and FMA; wasm_simd128 a -msimd128 build)");
  if (kernel == GemmKernel::automatic) kernel = automatic_gemm_kernel();
  if (kernel == GemmKernel::eigen) return eigen_product(a, op_a, b, op_b);

  GemmMatrix<Scalar> c(va.rows, vb.cols);
  if (c.size() == 0) return c;
  if (va.cols == 0) return GemmMatrix<Scalar>::Zero(va.rows, vb.cols);
  packed_gemm(micro_kernel<Scalar>(kernel), va, vb, c.data());
  return c;
}

template GemmMatrix<float> matmul(const GemmMatrix<float>&, Transpose, const GemmMatrix<float>&, Transpose,
                                  GemmKernel);
template GemmMatrix<double> matmul(const GemmMatrix<double>&, Transpose, const GemmMatrix<double>&, Transpose,
                                   GemmKernel);

}  // namespace dsml
