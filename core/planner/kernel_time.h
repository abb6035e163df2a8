// kernel_time.h (internal to core/planner) — how long one kernel takes on one GPU, from the GPU's measured kernel
// speeds (KernelSpeeds in dsml/planner.h, cited in gpu_presets.cpp). No fitted efficiency enters here.
#pragma once

#include "dsml/planner.h"
#include "transformer_shapes.h"

namespace dsml::planner_detail {

// A matmul's seconds: the slower of its compute and its HBM traffic (the roofline, Williams et al. 2009).
// Compute under tile and wave quantisation (NVIDIA, "Matrix Multiplication Background User's Guide"): the output
// is cut into tile_m × tile_n tiles, each computed by one multiprocessor; the tiles run in waves of `sms`, and a
// wave of full tiles takes what the measured large-matmul rate gives one multiprocessor. So a shape whose tiles
// fill every wave runs at matmul_flops; a ragged last wave or a partial tile runs idle multiprocessors.
// FP8 runs the linear matmuls at matmul_fp8_flops with 1-byte operands.
double matmul_seconds(const Matmul& mm, const GpuSpec& gpu, Precision precision = Precision::kBf16);
// The fraction of the measured rate a shape reaches: useful tile work / (waves · sms · tile work).
double quantisation_efficiency(const Matmul& mm, const KernelSpeeds& k);
// Seconds a memory-bound kernel moving `bytes` takes: bytes / achieved HBM bandwidth.
double stream_seconds(double bytes, const GpuSpec& gpu);
// A fused attention kernel's measured FLOP/s (forward + backward, as FlashAttention counts them) at sequence length
// s and head dimension d_h: the measurement at the nearest head dimension, linear in log s between its lengths,
// held at the ends. Throws naming the kernels `gpu` has measurements of when it has none of `kernel`.
double fused_attention_flops(const GpuSpec& gpu, AttentionKernel kernel, double sequence, double head_dim);

}  // namespace dsml::planner_detail
