// GPU presets as data: each GPU's datasheet and how fast its kernels run, from published kernel measurements —
// never from a training run's throughput, so that published training runs stay a test the planner has not seen.
//
// a100-80gb  NVIDIA A100 80GB SXM (datasheet): 312 TFLOP/s dense BF16, 80 GB HBM2e at 2,039 GB/s, NVLink 3
//            600 GB/s (300 GB/s each way), one 200 Gb/s HDR InfiniBand NIC per GPU (DGX A100; Selene in Narayanan
//            et al. 2021), 108 SMs.
// h100-sxm   NVIDIA H100 SXM5 80GB (datasheet): 989 TFLOP/s dense BF16, 1979 FP8, 80 GB HBM3 at 3.35 TB/s, NVLink 4
//            900 GB/s (450 GB/s each way), one 400 Gb/s NDR NIC per GPU (DGX H100), 132 SMs.
// Kernel measurements:
//   matmul     "Maximum Achievable Matmul FLOPS" (S. Bekman, Machine Learning Engineering, compute/accelerator,
//              MAMF table: torch.matmul, best shape of a brute-force search, mean of 100 iterations): A100 SXM BF16
//              271.2 TFLOP/s (86.9 %, torch 2.6/CUDA 12.6); H100 SXM BF16 794.5 (80.3 %, torch 2.7), FP8 e4m3
//              1402.6 (70.9 %). Tiles 256 × 128, the shape NVIDIA's Matrix Multiplication Background User's Guide
//              names the most efficient cuBLAS tile (§2.3, measured on A100-SXM4-80GB, cuBLAS 11.4).
//   HBM        BabelStream's triad (read two arrays, write one, 2^25 doubles each; Microsoft Azure's AI
//              benchmarking guide, Benchmarks/NVIDIA/HBMBandwidth.py, mean of 5 runs): A100-SXM4-80GB 1.70 TB/s,
//              H100 80GB HBM3 2.97 TB/s.
//   attention  forward + backward TFLOP/s, causal, head dimension 64 and 128, sequence 512 … 16k with 16k tokens
//              a batch (the bar labels of the FlashAttention-2 paper, Dao 2023, Fig. 4 (A100) and Fig. 7 (H100);
//              the flash-attention repository's assets/flash2_{a100,h100}_fwd_bwd_benchmark.png): FlashAttention-2,
//              FlashAttention(-1) and, on the A100, FlashAttention in Triton (the kernel llm-foundry's 2023
//              benchmarks ran as attn_impl: triton). No Triton kernel is measured on the H100.
// The fitted constant (GpuSpec::matmul_in_step): one share for every GPU, the value of the smallest mean |error| over
// Narayanan et al. 2021 Table 1 on a grid of 0.01 (`build/native/published_runs --fit` prints the grid). Table 1's
// rows are therefore in sample; llm-foundry's tables never entered it.
#include <string>
#include <vector>

#include "dsml/error.h"
#include "dsml/planner.h"

namespace dsml {
namespace {

constexpr double kMatmulInStep = 0.78;

const std::vector<double> kSequences{512, 1024, 2048, 4096, 8192, 16384};

AttentionSpeed speed(AttentionKernel kernel, int head_dim, std::vector<double> tflops) {
  for (double& x : tflops) x *= 1e12;
  return {kernel, head_dim, kSequences, tflops};
}

GpuSpec gpu_row(const char* name, double peak, double fp8_peak, double hbm, double hbm_bw, double nvlink,
                double network, KernelSpeeds kernels) {
  GpuSpec g;
  g.name = name;
  g.peak_flops = peak;
  g.fp8_peak_flops = fp8_peak;
  g.hbm_bytes = hbm;
  g.hbm_bandwidth = hbm_bw;
  g.nvlink_bandwidth = nvlink;
  g.nvlink_latency = 5e-6;  // NCCL's small-message all-reduce on a DGX ≈ 10 µs for 2 steps
  g.network_bandwidth = network;
  g.network_latency = 5e-6;  // an InfiniBand hop ≈ 2–5 µs
  g.kernels = std::move(kernels);
  g.matmul_in_step = kMatmulInStep;
  return g;
}

KernelSpeeds a100_kernels() {
  KernelSpeeds k;
  k.matmul_flops = 271.2e12;
  k.hbm_bandwidth = 1.70e12;
  k.sms = 108;
  using K = AttentionKernel;
  //                                         512   1k   2k   4k   8k  16k   (TFLOP/s, causal, fwd + bwd)
  k.attention = {speed(K::kFlash2, 128, {99, 133, 155, 173, 182, 189}),
                 speed(K::kFlash2, 64, {88, 119, 140, 156, 165, 171}),
                 speed(K::kFlash1, 128, {55, 62, 69, 76, 80, 83}),
                 speed(K::kFlash1, 64, {58, 70, 77, 87, 92, 97}),
                 speed(K::kFlashTriton, 128, {50, 61, 68, 74, 78, 80}),
                 speed(K::kFlashTriton, 64, {59, 75, 79, 76, 79, 80})};
  return k;
}

KernelSpeeds h100_kernels() {
  KernelSpeeds k;
  k.matmul_flops = 794.5e12;
  k.matmul_fp8_flops = 1402.6e12;
  k.hbm_bandwidth = 2.97e12;
  k.sms = 132;
  using K = AttentionKernel;
  //                                         512   1k   2k   4k   8k  16k   (TFLOP/s, causal, fwd + bwd)
  k.attention = {speed(K::kFlash2, 128, {163, 221, 265, 294, 308, 328}),
                 speed(K::kFlash2, 64, {141, 192, 232, 257, 273, 284}),
                 speed(K::kFlash1, 128, {98, 109, 108, 126, 135, 137}),
                 speed(K::kFlash1, 64, {104, 123, 136, 138, 149, 156})};
  return k;
}

const std::vector<GpuSpec>& gpus() {
  static const std::vector<GpuSpec> table = {
      //       name         BF16 peak  FP8 peak  HBM    HBM B/s    NVLink B/s  NIC B/s
      gpu_row("a100-80gb", 312e12, 0, 80e9, 2.039e12, 300e9, 25e9, a100_kernels()),
      gpu_row("h100-sxm", 989e12, 1979e12, 80e9, 3.35e12, 450e9, 50e9, h100_kernels()),
  };
  return table;
}

}  // namespace

GpuSpec gpu_preset(const std::string& name) {
  std::string known;
  for (const GpuSpec& g : gpus()) {
    if (g.name == name) return g;
    known += (known.empty() ? "" : ", ") + g.name;
  }
  throw Error("unknown GPU preset \"" + name + "\"; choose one of: " + known);
}

std::vector<std::string> gpu_names() {
  std::vector<std::string> out;
  for (const GpuSpec& g : gpus()) out.push_back(g.name);
  return out;
}

std::vector<GpuSpec> gpu_presets() { return gpus(); }

}  // namespace dsml
