// matmul.cpp — does -msimd128 help Eigen in wasm? bench/simd.sh builds this twice (with and without) and
// runs both in Node. Prints GFLOP/s of a 256×256 float matrix product (the MLP lab's hot loop).
#include <Eigen/Dense>
#include <chrono>
#include <cstdio>

int main() {
  const int n = 256, reps = 20;
  Eigen::MatrixXf a = Eigen::MatrixXf::Random(n, n), b = Eigen::MatrixXf::Random(n, n), c(n, n);
  c.noalias() = a * b;  // warm-up
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) c.noalias() = a * b;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%.2f GFLOP/s (checksum %.3f)\n", 2.0 * n * n * n * reps / s / 1e9, c.sum());
  return 0;
}
