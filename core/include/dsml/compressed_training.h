// dsml/compressed_training.h — data-parallel SGD on the teacher task where every worker's gradient is compressed
// before it is averaged, with or without error feedback; loss per step beside the bytes it cost.
//
// Step t, P workers, b rows each (rows [w·b, (w+1)·b) of TeacherTask(model, seed).make_batch(t, P·b), as
// data_parallel.h does — so with compressor none this IS synchronous data-parallel SGD):
//   g_w   worker w's gradient on its rows (every tensor separately below)
//   v_w = g_w + e_w        with error feedback (Seide et al. 2014; Karimireddy et al. 2019), v_w = g_w without
//   c_w = C(v_w)           what worker w contributes (compression.h)
//   e_w ← v_w − c_w        the error kept for the next step (error feedback only; otherwise e_w stays 0)
//   u   = aggregate(c_1 … c_P), θ ← θ − η·u   (plain SGD: error feedback's analysis is for SGD)
// aggregate is the mean of the c_w, except
//   sign:     majority vote (Bernstein et al. 2018): u = mean_w(scale_w)·sign(Σ_w sign(v_w)) — each worker sends
//             its signs and its scale ‖v_w‖₁/n; a tie votes +1. With P = 1 it is scaled_sign(v).
//   powersgd: P = mean_w(M_w·Q) (all-reduce), P̂ = orthogonalise(P), Q_w = M_wᵀ·P̂, u = P̂·mean_w(Q_w)ᵀ (all-reduce);
//             c_w = P̂·Q_wᵀ, so u is again the mean of the c_w. Q is warm-started from the previous step's mean
//             (Vogels et al. 2019). We keep e_w = v_w − P̂·Q_wᵀ (the worker's own part of the shared subspace).
// Because u = mean_w c_w for every linear aggregate, error feedback loses nothing: after T steps
//   θ_T = θ_0 − η·(Σ_t mean_w g_{w,t} − mean_w e_{w,T})   exactly (tested); majority vote breaks this identity.
// Randomness: random-k draws its indices from (seed, step, tensor) — the same on every worker, so the k values
// can be all-reduced; QSGD draws per (seed, step, worker, tensor); PowerSGD's first Q from (seed, tensor).
// Bytes: per step, what one worker sends with the ring algorithms for the calls compressed_collectives lists.
//
// What it shows on the teacher task (2 blocks of (8, 32), 4 workers × 4 rows, η = 0.05, 300 steps, seed 3; held-out
// loss from 2.83; `dsml compress … --seed 3 --eval-batch 32`):
//   none 0.0906 at 6144 B/step; top-k 1% 0.291, with EF 0.0914 (288 B/step — EF brings it onto the uncompressed
//   curve; seeds 0–2 alike, within 5%); random-k 1% 1.76, with EF 0.295 (72 B/step); PowerSGD r = 1 0.237, with EF
//   0.0913 (960 B/step); int8 0.0906 either way (EF changes nothing visible: its error is ≤ max|g|/254);
//   QSGD s = 16 0.0902 / 0.0904 (2352 B/step).
// Where error feedback HURTS: it assumes a contraction, E‖v − C(v)‖² ≤ (1 − δ)‖v‖². QSGD with s = 4 on 256 values
// has variance up to min(n/s², √n/s) = 4·‖v‖², and the residual grows until the run diverges (nan by step 50);
// the usual remedy is to scale an unbiased compressor with variance ω·‖v‖² by 1/(1 + ω), which makes it a
// contraction — not done here, so the page can show the failure; with s = 16 (ω ≤ 1) EF is harmless. Majority-vote sign with EF at η = 0.05
// diverges too (each worker's residual is against ITS scaled sign, not the vote); at η = 0.01 EF helps it (0.426 →
// 0.296).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsml/compression.h"
#include "dsml/mlp.h"

namespace dsml {

struct CompressedTrainingConfig {
  MlpConfig model;
  int workers = 4;            // P ≥ 1
  int batch_per_worker = 8;   // b ≥ 1
  int steps = 50;             // ≥ 1
  double lr = 0.05;           // η > 0
  CompressorConfig compressor;
  bool error_feedback = false;
  std::uint64_t seed = 0;     // teacher seed; the student starts from init_student(model, seed)
  int eval_batch = 64;        // rows of the held-out batch (make_batch(kEvalBatchStep, ·)) the loss is measured on
};

// Throws Error naming the first bad field.
void validate(const CompressedTrainingConfig& config);

struct CompressedTrainingResult {
  std::vector<double> losses;            // held-out loss before step 1, then after every step (steps + 1 values)
  std::vector<double> cumulative_bytes;  // bytes one worker has sent by then (steps + 1 values, the first 0)
  double bytes_per_step = 0.0;           // one worker, ring algorithms
  double uncompressed_bytes_per_step = 0.0;  // the same with compressor none (ring all-reduce of the fp32 gradient)
  double payload_bytes = 0.0;            // one worker's compressed message per step (Σ over tensors)
  std::vector<CollectiveCall> collectives;   // what carries it (compressed_collectives)
  double final_error_norm = 0.0;         // √(Σ_w ‖e_w‖²) at the end (0 without error feedback)
  MlpParams params;                      // the model at the end
  MlpParams gradient_sum;                // Σ_t mean_w g_{w,t} (for the error-feedback identity)
  MlpParams mean_error;                  // mean_w e_w at the end
};

CompressedTrainingResult train_compressed(const CompressedTrainingConfig& config);

}  // namespace dsml
