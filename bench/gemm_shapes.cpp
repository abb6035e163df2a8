// gemm_shapes.cpp — the six products of one MLP block (dsml/block_kernels.h) at the size of bench/mlp_step.sh,
// fp32 by default, through each GEMM kernel this build and CPU have (dsml/gemm.h), one thread. Built natively
// (the bench/ glob) and for Node (target gemm_shapes_wasm):
//
//   build/native/gemm_shapes [--batch 64 --width 512 --hidden 2048 --repeats 20 --double --kernel avx2_fma]
//   node build/wasm/bench/gemm_shapes.cjs [same options]
//
//   name      product       op(A) · op(B)   m × n × k
//   h         x · W_inᵀ     N · T           B × F × D
//   y         A · W_outᵀ    N · T           B × D × F
//   d_w_out   dYᵀ · A       T · N           D × F × B
//   d_a       dY · W_out    N · N           B × F × D
//   d_w_in    dHᵀ · x       T · N           F × D × B
//   d_x       dH · W_in     N · N           B × D × F
// Prints one line per kernel and product: the fastest and the median of `repeats` runs (ms) and GFLOP/s of the
// fastest (2·m·n·k per product). The fastest run is the one a busy neighbour disturbed least.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "dsml/error.h"
#include "dsml/gemm.h"

namespace {

using dsml::GemmKernel;
using dsml::Transpose;

struct Shape {
  const char* name;
  char a_rows, a_cols;  // 'B', 'D' or 'F', as the core stores the operand
  Transpose op_a;
  char b_rows, b_cols;
  Transpose op_b;
};

// Operands as the core stores them: x, dY (B, D); A, dH (B, F); W_in (F, D); W_out (D, F).
const Shape kShapes[] = {
    {"h", 'B', 'D', Transpose::no, 'F', 'D', Transpose::yes},
    {"y", 'B', 'F', Transpose::no, 'D', 'F', Transpose::yes},
    {"d_w_out", 'B', 'D', Transpose::yes, 'B', 'F', Transpose::no},
    {"d_a", 'B', 'D', Transpose::no, 'D', 'F', Transpose::no},
    {"d_w_in", 'B', 'F', Transpose::yes, 'B', 'D', Transpose::no},
    {"d_x", 'B', 'F', Transpose::no, 'F', 'D', Transpose::no},
};

struct Sizes {
  int batch = 64, width = 512, hidden = 2048, repeats = 20;
  bool fp64 = false;
  const char* only = nullptr;  // --kernel: just this one
  int operator()(char dim) const { return dim == 'B' ? batch : dim == 'D' ? width : hidden; }
};

template <typename Scalar>
void run_all(const Sizes& s) {
  using Matrix = dsml::GemmMatrix<Scalar>;
  std::printf("%s, B=%d D=%d F=%d, %d runs each\n", s.fp64 ? "fp64" : "fp32", s.batch, s.width, s.hidden,
              s.repeats);
  std::printf("%-13s %-8s %9s %9s %8s\n", "kernel", "product", "min ms", "median", "GFLOP/s");
  for (GemmKernel kernel : {GemmKernel::eigen, GemmKernel::portable, GemmKernel::avx2_fma, GemmKernel::wasm_simd128}) {
    if (!dsml::gemm_kernel_available(kernel)) continue;
    if (s.only && dsml::parse_gemm_kernel(s.only) != kernel) continue;
    for (const Shape& shape : kShapes) {
      const Matrix a = Matrix::Random(s(shape.a_rows), s(shape.a_cols));
      const Matrix b = Matrix::Random(s(shape.b_rows), s(shape.b_cols));
      const double m = shape.op_a == Transpose::no ? a.rows() : a.cols();
      const double k = shape.op_a == Transpose::no ? a.cols() : a.rows();
      const double n = shape.op_b == Transpose::no ? b.cols() : b.rows();
      std::vector<double> seconds;
      double sink = 0;
      for (int r = 0; r <= s.repeats; ++r) {  // run 0 warms caches and the allocator up, untimed
        const auto start = std::chrono::steady_clock::now();
        const Matrix c = dsml::matmul<Scalar>(a, shape.op_a, b, shape.op_b, kernel);
        const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        sink += static_cast<double>(c(0, 0));
        if (r > 0) seconds.push_back(t);
      }
      std::sort(seconds.begin(), seconds.end());
      std::printf("%-13s %-8s %9.3f %9.3f %8.1f%s\n", dsml::gemm_kernel_name(kernel), shape.name,
                  seconds.front() * 1e3, seconds[seconds.size() / 2] * 1e3, 2 * m * n * k / seconds.front() * 1e-9,
                  sink == 12345.678 ? " " : "");  // keeps the products from being optimised away
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Sizes s;
  for (int i = 1; i < argc; ++i) {
    const std::string key = argv[i];
    if (key == "--double") { s.fp64 = true; continue; }
    if (i + 1 >= argc) { std::fprintf(stderr, "%s needs a value\n", key.c_str()); return 2; }
    if (key == "--kernel") {
      s.only = argv[++i];
      try {
        dsml::parse_gemm_kernel(s.only);
      } catch (const dsml::Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
      }
      continue;
    }
    const int value = std::atoi(argv[++i]);
    if (key == "--batch") s.batch = value;
    else if (key == "--width") s.width = value;
    else if (key == "--hidden") s.hidden = value;
    else if (key == "--repeats") s.repeats = value;
    else { std::fprintf(stderr, "unknown option %s (--batch --width --hidden --repeats --double --kernel)\n", argv[i - 1]); return 2; }
  }
  if (s.batch < 1 || s.width < 1 || s.hidden < 1 || s.repeats < 1) {
    std::fprintf(stderr, "sizes and repeats must be >= 1\n");
    return 2;
  }
  if (s.fp64) run_all<double>(s);
  else run_all<float>(s);
  return 0;
}
