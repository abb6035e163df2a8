// dsml/elastic.h — elastic data parallelism: workers leave and join mid-run, the ring is rebuilt, the data and the
// (ZeRO-1) optimizer state are re-sharded, and training continues as if nothing had happened.
//
// A schedule of world sizes: `initial_workers` ranks from step 0, then each WorldChange{step, workers} from that step
// on. Every step, whatever P is:
//   data      the GLOBAL batch is kept: step t trains on TeacherTask(model, seed).make_batch(t, B), rank d of P on
//             rows [d·B/P, (d+1)·B/P) — the same samples in the same order as one device (torchelastic keeps the
//             global batch the same way; changing it would change the optimisation, not just its speed)
//   ring      every collective is built for the current P (comm.h runs the schedule of that size): "rebuilding the
//             ring" is making the new schedule over the surviving ranks, renumbered 0 … P − 1
//   state     DP: every rank holds the whole model and optimizer state; a joining rank receives a copy (Ψ values
//             of parameters and, for momentum/Adam, of each moment buffer).
//             ZeRO-1 (shard_optimizer): rank d owns shard d (shard_sizes(Ψ, P)) of the optimizer state; at a resize
//             the moment buffers are re-cut for the new P — every element whose owner changes moves (counted in
//             ResizeEvent), a leaving rank hands its shard over before it goes.
//   step      gradients reduce-scattered (ZeRO-1) or all-reduced (DP) and divided by P, the update applied with
//             zero.h's update_shard (elementwise), parameters all-gathered (ZeRO-1).
// The result equals single-device training (single_device_run on the same batches) to rounding (~1e-15: a mean of
// P partial means is summed in another order than one mean) — tested across 4 → 2 → 4 → 3 workers.
//
// When it CANNOT equal one device, and what this code does:
//   - P does not divide the global batch B: equal shards are impossible, the mean of the ranks' means is not the
//     batch mean; refused with an Error (re-weighting unequal shards, Week 3's weighted all-reduce, would fix it).
//   - LARS and LAMB under ZeRO-1 need whole-tensor norms across shards (zero.h's update_shards_layerwise); this
//     elastic trainer supports the elementwise optimizers only (sgd, momentum, adam) and refuses the others.
//   - A rank that CRASHES (WorldChange::crash: it fails during step c, before the step's update, without handing
//     anything over) is handled apart from a graceful leave:
//       DP      every survivor holds the whole model and optimizer state as of the end of step c − 1: the ring is
//               rebuilt over the survivors and step c is redone — nothing is lost but the step in flight.
//       ZeRO-1  the crashed ranks' optimizer shards are gone, and no survivor has them: the run rolls back to its last
//               checkpoint k ≤ c (every checkpoint_interval steps, and the start: parameters and the whole optimizer
//               state), re-cuts that state for the survivors, and recomputes steps k … c − 1 (ResizeEvent::lost_steps).
//               Restoring only the lost shard from the checkpoint would pair step-k moments with step-c parameters:
//               a different run. Rolled back, the result equals the uninterrupted run's from the checkpoint on.
//   - Anything per-worker and random (dropout masks, data augmentation seeded by rank) would change with P; the
//     teacher task has none. Changing B with P (keeping the per-rank batch) changes the training itself.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsml/mlp.h"
#include "dsml/optimizer.h"

namespace dsml {

struct WorldChange {
  int step = 0;         // from this step on (0 < step < steps, increasing)
  int workers = 1;      // P ≥ 1, dividing the global batch
  bool crash = false;   // the P_before − workers leaving ranks crash during `step` (workers < P_before), see above
};

struct ElasticConfig {
  MlpConfig model;
  OptimizerConfig optimizer{OptimizerKind::adam};  // sgd, momentum or adam (Adam, lr 0.01, when not given)
  int batch = 24;                     // B, the global batch, kept whatever P is
  int steps = 10;
  std::uint64_t seed = 0;             // teacher seed; the model starts from init_student(model, seed)
  int initial_workers = 4;
  std::vector<WorldChange> changes;
  bool shard_optimizer = true;        // ZeRO-1; false: plain DP (replicated state)
  int checkpoint_interval = 0;        // a checkpoint at the start of every k-th step (0, k, 2k, …); 0: the start only
  std::string algorithm = "ring";     // for every collective
};

// Throws Error naming the problem (including "global batch of 24 rows is not divisible by 5 workers …", and a crash
// that does not shrink the world).
void validate(const ElasticConfig& config);

struct ResizeEvent {
  int step = 0;
  int from = 0, to = 0;
  double optimizer_bytes_moved = 0;   // fp64 moment elements whose owner changed (ZeRO-1), or sent to joiners (DP)
  double parameter_bytes_to_joiners = 0;  // (to − from)⁺ · Ψ · 8: a joining rank receives the whole model
  bool crash = false;
  int restored_from = -1;             // crash under ZeRO-1: the checkpoint's step k the run rolled back to
  int lost_steps = 0;                 // steps recomputed after the crash: c − k (ZeRO-1), 0 (DP)
  double bytes_restored = 0;          // read from the checkpoint: (1 + moment buffers) · Ψ · 8 (ZeRO-1)
};

struct ElasticResult {
  std::vector<double> losses;         // one per step, before its update (mean over the global batch); a step
                                      // recomputed after a crash keeps its last value
  std::vector<int> workers;           // P at each step
  std::vector<double> step_bytes;     // what the busiest rank sent in each step's collectives (fp64)
  std::vector<ResizeEvent> resizes;
  MlpParams params;                   // after the last step
  // Beside it, as train_compare does: one device on the same batches from the same start (single_device.h).
  std::vector<double> single_losses;
  double max_relative_difference = 0;  // final parameters, max over tensors of |W − W_single| / |W_single|
};

ElasticResult train_elastic(const ElasticConfig& config);

}  // namespace dsml
