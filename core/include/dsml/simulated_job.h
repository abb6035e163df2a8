// dsml/simulated_job.h — the capstone: one complete data-parallel training job, simulated end to end. P workers
// on one hardware preset train with a (possibly compressed) gradient exchange; some of them straggle; nodes fail
// and the job rolls back to its last checkpoint. The result is what a scaling report needs: the loss, the bytes,
// the wall time split by where it went, the failures, and the efficiency against P.
//
// Each ingredient is an earlier week's model, used as is:
//   compute      step_cost (step_cost.h): the dp-bucketed step of `model` on P devices, b rows each — its compute_s
//   comm         compressed_step_seconds (compression.h): the calls that carry the compressor's messages (ring
//                all-reduce for linear codes, all-gather otherwise), one after another; with compressor none this
//                is one all-reduce of every gradient, the step cost model's dp-bucketed step with one bucket
//   stragglers   the slow-node speed model (speed_model.h): each worker's compute takes `slowdown` times longer
//                with probability p, independently per worker and step; the synchronous step waits for the slowest:
//                step_t = compute·max_w X(w, t) + comm, straggler wait = compute·(max_w X(w, t) − 1)
//   failures     simulate_checkpointing (checkpointing.h), one run: the failure-free time W = Σ step_t is its work,
//                checkpointed every Δ steps (τ = Δ·W/steps s of work, so an interval is Δ steps on average), P
//                nodes of MTBF m (fleet MTBF m/P), detection D, restart R. Replayed steps take the mean step time
//                (the straggler draws are not redrawn). A job expected to fail more than kMaxExpectedFailures
//                times (one interval of many fleet MTBFs is retried ~e^{τ/M} times) is refused, in steps.
//   loss         train_compressed (compressed_training.h): the teacher task at a size a tab trains, on the same P
//                workers with the same compressor, lr and steps (teacher seed task_seed). A rollback replays the same batches from the same
//                checkpointed parameters, so failures change when the loss is reached, never the loss curve.
//   bytes        compressed_bytes_sent (compression.h): what one worker sends per step for `model`.
// The wall time is split exactly: wall = compute + comm + straggler wait + checkpoint writes + lost work + restarts
// (lost work: progress, work or checkpoint writing, thrown away by failures; restarts: detection + restart time).
//
// Efficiency is weak scaling (b rows per device at every P): the fraction of the wall time that is useful compute,
//   E = steps·compute / wall  ≤ 1,
// so P devices deliver P·E times one ideal device (no communication, no waits, no failures, no checkpoints).
// The sweep over P (job_scaling) uses expectations, not draws: E[max_w X] for the stragglers (expected_round_compute)
// and Daly's expected wall time for the failures (expected_wall_time); without failures it falls monotonically
// with P (communication, the expected slowest worker and the number of checkpoints' share can only grow).
// Not modelled: compute hidden behind communication (the step is compute then communication), the time to compress
// and decompress, bytes re-sent by replayed steps.
#pragma once

#include <cstdint>
#include <vector>

#include "dsml/compression.h"
#include "dsml/cost_model.h"
#include "dsml/mlp.h"

namespace dsml {

struct JobConfig {
  // The job as the hardware runs it (defaults: the lab's A100-class preset, a 4.3 B-parameter MLP, bf16).
  int workers = 64;                       // P
  int steps = 2000;                       // ≥ 1
  MlpConfig model{32, 4096, 16384};       // priced, never allocated: Ψ = 2·L·D·F
  int rows_per_worker = 4096;             // b (think tokens)
  double flops_per_s = 150e12;            // one device, sustained
  CostModel network{10e-6, 1.0 / 25e9, 0.0};  // InfiniBand, 25 GB/s per GPU (P = 64 spans 8 nodes)
  int element_bytes = 2;                  // bf16 gradients on the wire
  CompressorConfig compressor;            // its element_bytes is set to element_bytes
  bool error_feedback = true;             // front ends start from job_error_feedback_default(compressor.kind)
  // Stragglers.
  double straggler_probability = 0.0;     // p ∈ [0, 1], per worker per step
  double slowdown = 2.0;                  // ≥ 1
  // Failures and checkpoints.
  bool failures = true;                   // false: no failures (checkpoints are still written)
  double node_mtbf = 2 * 86400.0;         // m, s
  int checkpoint_every = 200;             // Δ, steps, ≥ 1 (≥ steps: one checkpoint, at the end)
  double checkpoint_seconds = 20.0;       // C, s to write one
  double restart_seconds = 300.0;         // R
  double detection_seconds = 30.0;        // D (heartbeat timeout)
  // The loss: the teacher task trained by the same P workers.
  MlpConfig task{2, 8, 32};
  int task_rows_per_worker = 4;
  double lr = 0.05;
  int eval_batch = 64;
  std::uint64_t task_seed = 3;            // the teacher (and the student's start): apart from `seed`, so another
                                          // draw of stragglers and failures trains the same curve
  bool train = true;                      // false: run_job leaves losses empty (a caller that has the curve)
  std::uint64_t seed = 0;                 // stragglers and failures (each its own stream)
  // Training to a target (time_to_target, below; `steps` is then the cap).
  double target_loss = 0.1;               // > 0, held-out loss of the teacher task
  bool asynchronous = false;              // SSP through a sharded parameter server instead of the synchronous ring
  int staleness = 0;                      // SSP's bound s >= 0 (asynchronous only)
};

// Throws Error naming the first bad field.
void validate(const JobConfig& config);

// Where the wall time went, s. The fields sum to the wall time.
struct WallSplit {
  double compute = 0, communication = 0, straggler_wait = 0, checkpoints = 0, lost_work = 0, restarts = 0;
  double total() const { return compute + communication + straggler_wait + checkpoints + lost_work + restarts; }
};

// The job's clock, without the training (simulated_job_timing.cpp).
struct JobTiming {
  double step_compute = 0;     // s per step, no straggler
  double step_comm = 0;        // s per step
  double work = 0;             // W = Σ step_t, s: the job without failures or checkpoints
  WallSplit split;
  double wall = 0;             // split.total()
  int failures = 0;            // every failure (simulate_checkpointing's count)
  int checkpoints = 0;         // checkpoints written and kept
  int slow_steps = 0;          // steps with at least one straggler
  double interval = 0;         // τ = Δ·W/steps, s
  double fleet_mtbf = 0;       // m/P, s
  double expected_wall = 0;    // Daly's complete model at (W, τ, C, R, m/P, D); W + ⌈steps/Δ⌉·C without failures
  double efficiency = 0;       // steps·step_compute / wall
};
JobTiming time_job(const JobConfig& config);

// The whole job (simulated_job.cpp).
struct JobRun {
  JobTiming timing;
  std::vector<double> losses;          // held-out loss of the teacher task before step 1, then after each step
                                       // (empty unless config.train)
  double bytes_per_step = 0;           // one worker sends, for `model`
  double uncompressed_bytes_per_step = 0;
  double bytes_per_worker = 0;         // bytes_per_step · steps
  bool composes_with_all_reduce = true;
  // The checkpoint interval the closed forms recommend at the fleet MTBF, in steps of the mean step W/steps.
  double young_steps = 0, daly_steps = 0, optimal_steps = 0;  // optimal: minimises Daly's expected wall time
  double expected_wall_at_optimal = 0;  // s
};
JobRun run_job(const JobConfig& config);

// Error feedback's default for each compressor on this job, the better of on and off at the defaults above
// (64 workers, 1000 steps, η = 0.05, k/n = 0.001; final loss with / without): top-k 0.0500 / 0.272, PowerSGD
// 0.0527 / 0.0670, SignSGD (majority vote) 0.0252 / 0.0463 — on; random-k diverges / 1.69 (with 64 workers its
// residuals grow until the run diverges), 8-bit 0.05273 either way, QSGD 0.05272 / 0.05279 (unbiased: nothing to
// feed back), none — off. The capstone page and `dsml capstone` both start from it.
bool job_error_feedback_default(CompressorKind kind);

// One point of the sweep over P, in expectation (above).
struct JobScalingPoint {
  int workers = 1;
  double step_compute = 0, step_comm = 0, straggler_wait = 0;  // s per step (the wait in expectation)
  double expected_wall = 0;          // s (Daly's model with failures on; W + checkpoints otherwise)
  double efficiency = 0;             // steps·step_compute / expected_wall
  double failure_free_efficiency = 0;  // the same without failures (checkpoints still written)
};
// config.workers is replaced by each entry (each 1 … 1024; 1 to 64 entries). Throws Error otherwise.
std::vector<JobScalingPoint> job_scaling(const JobConfig& config, const std::vector<int>& workers);

// --- Time to a loss target (time_to_target.cpp) --------------------------------------------------------------------
// Train the teacher task until its held-out loss first reaches config.target_loss, at most config.steps steps (the
// cap), and price the time it took on the job's hardware.
//   synchronous    the run above: step t of P workers (train_compressed, any compressor); steps_to_target = the
//                  first t with loss_t <= target. Its failure-free time is time_job's for those t steps (compute,
//                  communication, this seed's straggler draws).
//   asynchronous   SSP with bound s (Ho et al. 2013; param_server.h's regime, Week 4): P workers and P server shards
//                  (each shard 1/P of the parameters, so each worker's link carries Ψ·e bytes out and Ψ·e in a
//                  clock, as the ring's does) on one switch with the job's α, β; a worker's compute is the step's,
//                  slowed by the same slow-node stragglers; the run is simulate_param_server's and the loss is its
//                  log replayed on the teacher task (train_on_param_server — the one SSP engine of the course).
//                  Each update applies (η/P)·g_w, so a clock of P updates moves as far as one synchronous step of
//                  η·mean: with s = 0 every worker waits for the slowest each clock and the run IS the synchronous
//                  one (compressor none; tested equal to rounding). The loss is read after every P updates (a step's
//                  worth of data: P gradients of b rows; with s = 0 the clock boundaries): steps_to_target = the first
//                  t whose reading is <= target, time = the simulated instant of that reading.
//                  Gradients are not compressed (refused otherwise): a parameter server sums what it receives.
// Both: wall = Daly's expected wall time of that failure-free time with a checkpoint every Δ steps, at the fleet
// MTBF m/P, detection D and restart R (failures on); the time plus ⌈steps/Δ⌉ checkpoint writes otherwise.
// A run stops as soon as the target is reached: it trains 64 steps, then twice as many, … up to the cap (a longer
// run repeats the shorter one's prefix, so the answer does not depend on where it stopped).
struct TargetRun {
  int workers = 1;
  bool reached = false;         // false: the cap came first; steps, time and wall are then the cap's
  double steps = 0;             // to the target (asynchronous: P updates a step)
  double updates = 0;           // gradients of b rows applied by then: steps·P
  double loss = 0;              // the first loss <= target, or the last at the cap
  double work = 0;              // s, failure-free time to there
  double wall = 0;              // s, expected with failures and checkpoints (above)
  int max_staleness = 0;        // the largest τ applied by then (asynchronous; 0 for synchronous)
  std::vector<double> curve_steps, curve_loss;  // the held-out loss to there, every step (asynchronous: every P updates)
};
// Throws Error naming the first bad field (target_loss must be > 0; staleness >= 0; asynchronous needs compressor none).
TargetRun time_to_target(const JobConfig& config);

// time_to_target for each P (config.workers replaced; 1 to 16 entries, each 1 … 256, without the curves); best is the
// index of the smallest expected wall time among the points that reached the target (−1 when none did).
struct TargetSweep {
  std::vector<TargetRun> points;
  int best = -1;
};
TargetSweep target_scaling(const JobConfig& config, const std::vector<int>& workers);

}  // namespace dsml
