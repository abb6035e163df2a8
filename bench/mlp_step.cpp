// mlp_step.cpp — one training step of the residual GELU MLP (forward + backward + SGD update), fp32, through the
// very kernels the core runs in double (dsml/block_kernels.h). Built from this one file natively (the bench/
// glob in CMakeLists.txt) and for Node (target mlp_step_wasm, the core's flags), so bench/mlp_step.sh can set them
// beside TensorFlow.js (mlp_step_tfjs.mjs) and NumPy (mlp_step_numpy.py).
//
//   build/native/mlp_step --width 512 --hidden 2048 --layers 4 --batch 64 --repeats 20 [--kernel eigen]
//   node build/wasm/bench/mlp_step.cjs --width 512 --hidden 2048 --layers 4 --batch 64 --repeats 20
// --kernel picks the products' GEMM (dsml/gemm.h): automatic (default: the fastest here, reported as dsml-…),
// eigen (Eigen's product, the core before its own kernels: eigen-…), portable, avx2_fma, wasm_simd128.
//
// Per block, x (B, D), W_in (F, D), W_out (D, F):  H = x·W_inᵀ, A = gelu(H), x' = x + A·W_outᵀ;
// loss = mean (x_L − T)²; backward through block_out_backward / block_in_backward plus the residual's identity
// path. FLOPs counted are the six products per block, 3 · 2·B·D·F · 2·L per step (forward 2, backward 4); the
// elementwise work (GELU, its derivative, the update) is done but not counted. The SGD update is there because a
// training step has one, and because tfjs-backend-wasm caches packed weights by tensor id: fresh weights every
// step keep that cache from flattering tfjs. One thread everywhere (Eigen is built without OpenMP).
// Inputs, targets and weights come from a 32-bit LCG shared with the tfjs script, so every implementation prints
// the same first-step loss and gradient checksum up to float rounding — the check that they compute one thing.
// Timing: the check step, warmup − 1 more steps, then the median (and min) of `repeats` timed steps.
#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "dsml/block_kernels.h"

namespace {

using Matrix = dsml::BlockMatrix<float>;

struct Options {
  int width = 512, hidden = 2048, layers = 4, batch = 64, repeats = 20, warmup = 3;
  dsml::GemmKernel kernel = dsml::GemmKernel::automatic;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i += 2) {
    const std::string key = argv[i];
    if (i + 1 >= argc) { std::fprintf(stderr, "%s needs a value\n", key.c_str()); std::exit(2); }
    if (key == "--kernel") {
      try {
        o.kernel = dsml::parse_gemm_kernel(argv[i + 1]);
      } catch (const dsml::Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        std::exit(2);
      }
      continue;
    }
    const int value = std::atoi(argv[i + 1]);
    if (key == "--width") o.width = value;
    else if (key == "--hidden") o.hidden = value;
    else if (key == "--layers") o.layers = value;
    else if (key == "--batch") o.batch = value;
    else if (key == "--repeats") o.repeats = value;
    else if (key == "--warmup") o.warmup = value;
    else {
      std::fprintf(stderr, "unknown option %s (--width --hidden --layers --batch --repeats --warmup --kernel)\n", key.c_str());
      std::exit(2);
    }
  }
  if (o.width < 1 || o.hidden < 1 || o.layers < 1 || o.batch < 1 || o.repeats < 1 || o.warmup < 0) {
    std::fprintf(stderr, "sizes and repeats must be >= 1, warmup >= 0\n");
    std::exit(2);
  }
  if (!dsml::gemm_kernel_available(o.kernel)) {
    std::fprintf(stderr, "the %s GEMM kernel is not available here\n", dsml::gemm_kernel_name(o.kernel));
    std::exit(2);
  }
  if (o.kernel == dsml::GemmKernel::automatic) o.kernel = dsml::automatic_gemm_kernel();
  return o;
}

// The LCG of bench/mlp_step_tfjs.mjs (Numerical Recipes constants): uniform in [−1, 1) from the top 24 bits.
struct Lcg {
  std::uint32_t state;
  float next() {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(static_cast<double>(state >> 8) / 16777216.0 * 2.0 - 1.0);
  }
};

// Filled in row-major order whatever Eigen's storage order, so the JS side (row-major tensors) gets the same values.
Matrix uniform(Lcg& rng, int rows, int cols, float scale) {
  Matrix m(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(i, j) = rng.next() * scale;
  return m;
}

struct Block { Matrix w_in, w_out; };     // (F, D), (D, F)
struct Grads { Matrix d_w_in, d_w_out; };

// One step: forward keeping x_l, H_l, A_l; MSE gradient; backward through the block kernels; SGD update.
// Returns the loss; the gradients stay in `grads`.
float train_step(const Matrix& x0, const Matrix& target, std::vector<Block>& blocks, std::vector<Grads>& grads,
                 float lr, dsml::GemmKernel kernel) {
  const auto gelu = dsml::Activation::gelu;
  const std::size_t layers = blocks.size();
  std::vector<Matrix> xs(layers), hs(layers), as(layers);
  Matrix x = x0;
  for (std::size_t l = 0; l < layers; ++l) {
    xs[l] = x;
    hs[l] = dsml::pre_activation<float>(x, blocks[l].w_in, kernel);
    as[l] = dsml::activate<float>(gelu, hs[l]);
    x += dsml::block_out_forward<float>(as[l], blocks[l].w_out, kernel);
  }
  const Matrix diff = x - target;
  const float n = static_cast<float>(diff.size());
  const float loss = diff.squaredNorm() / n;
  Matrix dy = diff * (2.0f / n);  // ∂loss/∂x_L of the mean over B·D
  for (std::size_t l = layers; l-- > 0;) {
    auto out = dsml::block_out_backward<float>(dy, as[l], blocks[l].w_out, kernel);
    auto in = dsml::block_in_backward<float>(gelu, out.d_a, hs[l], xs[l], blocks[l].w_in, kernel);
    grads[l].d_w_out = std::move(out.d_w_out);
    grads[l].d_w_in = std::move(in.d_w_in);
    dy += in.d_x;  // the identity path of the residual plus the block's own dx
  }
  for (std::size_t l = 0; l < layers; ++l) {
    blocks[l].w_in -= lr * grads[l].d_w_in;
    blocks[l].w_out -= lr * grads[l].d_w_out;
  }
  return loss;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const int D = o.width, F = o.hidden, L = o.layers, B = o.batch;
  Lcg rng{12345u};
  const Matrix x0 = uniform(rng, B, D, 1.0f), target = uniform(rng, B, D, 1.0f);
  std::vector<Block> blocks(L);
  for (Block& b : blocks) {
    b.w_in = uniform(rng, F, D, 1.0f / std::sqrt(static_cast<float>(D)));
    b.w_out = uniform(rng, D, F, 1.0f / std::sqrt(static_cast<float>(F)));
  }
  std::vector<Grads> grads(L);
  const float lr = 1e-3f;

  // The first step is also the check: its loss and the sum of every gradient entry, before any update.
  const std::vector<Block> initial = blocks;
  const float loss = train_step(x0, target, blocks, grads, lr, o.kernel);
  double checksum = 0.0;
  for (const Grads& g : grads) checksum += static_cast<double>(g.d_w_in.sum()) + static_cast<double>(g.d_w_out.sum());
  blocks = initial;

  for (int i = 1; i < o.warmup; ++i) train_step(x0, target, blocks, grads, lr, o.kernel);
  std::vector<double> seconds;
  for (int i = 0; i < o.repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    train_step(x0, target, blocks, grads, lr, o.kernel);
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  const double flops = 3.0 * 2.0 * B * D * F * 2.0 * L;
#if defined(__EMSCRIPTEN__)
  const char* platform = "wasm";
#else
  const char* platform = "native";
#endif
  const std::string impl = std::string(o.kernel == dsml::GemmKernel::eigen ? "eigen-" : "dsml-") + platform;
  std::printf("{\"impl\": \"%s\", \"gemm\": \"%s\", \"eigen_simd\": \"%s\", \"eigen_cache_kib\": [%td, %td, %td], \"threads\": 1, "
              "\"width\": %d, \"hidden\": %d, \"layers\": %d, \"batch\": %d, \"repeats\": %d, "
              "\"seconds_per_step\": %.6g, \"min_seconds\": %.6g, \"gflops\": %.4g, "
              "\"flops_per_step\": %.0f, \"loss\": %.7g, \"grad_checksum\": %.7g}\n",
              impl.c_str(), dsml::gemm_kernel_name(o.kernel), Eigen::SimdInstructionSetsInUse(), Eigen::l1CacheSize() / 1024, Eigen::l2CacheSize() / 1024,
              Eigen::l3CacheSize() / 1024, D, F, L, B, o.repeats, median, seconds.front(),
              flops / median / 1e9, flops, loss, checksum);
  return 0;
}
