// kernel_time.cpp — a kernel's seconds from the GPU's measured speeds (kernel_time.h).
#include "kernel_time.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "dsml/error.h"

namespace dsml::planner_detail {

double quantisation_efficiency(const Matmul& mm, const KernelSpeeds& k) {
  const double tiles_m = std::ceil(mm.m / k.tile_m), tiles_n = std::ceil(mm.n / k.tile_n);
  const double tiles = std::ceil(mm.count) * tiles_m * tiles_n;  // the batch's products share the waves
  const double waves = std::ceil(tiles / k.sms);
  return (mm.count * mm.m * mm.n) / (waves * k.sms * k.tile_m * k.tile_n);
}

double matmul_seconds(const Matmul& mm, const GpuSpec& gpu, Precision precision) {
  const KernelSpeeds& k = gpu.kernels;
  const bool fp8 = precision == Precision::kFp8 && mm.kind == Matmul::kLinear;
  const double rate = (fp8 ? k.matmul_fp8_flops : k.matmul_flops) * gpu.matmul_in_step;
  const double compute = mm.flops() / (rate * quantisation_efficiency(mm, k));
  const double bytes = mm.elements() * (fp8 ? 1.0 : 2.0);
  return std::max(compute, stream_seconds(bytes, gpu));
}

double stream_seconds(double bytes, const GpuSpec& gpu) { return bytes / gpu.kernels.hbm_bandwidth; }

double fused_attention_flops(const GpuSpec& gpu, AttentionKernel kernel, double s, double head_dim) {
  const AttentionSpeed* best = nullptr;
  std::string measured;
  for (const AttentionSpeed& m : gpu.kernels.attention) {
    measured += std::string(measured.empty() ? "" : ", ") + attention_kernel_name(m.kernel);
    if (m.kernel != kernel) continue;
    if (!best || std::fabs(m.head_dim - head_dim) < std::fabs(best->head_dim - head_dim)) best = &m;
  }
  if (!best)
    throw Error("no measurement of " + std::string(attention_kernel_name(kernel)) + " on the " + gpu.name +
                (measured.empty() ? std::string(" (none of any fused kernel): choose unfused")
                                  : "; measured: " + measured + ", or unfused"));
  const std::vector<double>& at = best->sequences;
  const std::vector<double>& rate = best->flops;
  if (s <= at.front()) return rate.front();
  if (s >= at.back()) return rate.back();
  std::size_t i = 1;
  while (at[i] < s) ++i;
  const double x = (std::log(s) - std::log(at[i - 1])) / (std::log(at[i]) - std::log(at[i - 1]));
  return rate[i - 1] + x * (rate[i] - rate[i - 1]);
}

}  // namespace dsml::planner_detail
