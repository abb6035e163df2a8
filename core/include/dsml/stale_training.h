// dsml/stale_training.h — training the teacher task for real under a parameter-server run's consistency regime.
//
// A simulated run (param_server.h) decides WHEN things happen and on WHICH parameters each gradient is computed;
// this replays its log on real numbers: every worker keeps its own copy of each shard (what the last reply
// carried), computes its gradient on that copy, and each shard applies what it receives —
//   asp/ssp:     θ_k ← θ_k − η_τ·g_k              with the τ the run measured, η_τ = η or η/(τ+1) (staleness-aware,
//                                                 Zhang et al. 2016); with one shard this is exactly
//                                                 θ_{t+1} = θ_t − η∇L(θ_{t−τ_t});
//   bsp/backup:  θ_k ← θ_k − η·(1/P)·Σ g_k        over the round's P accepted gradients (synchronous SGD).
// Data: worker w's gradient for round/clock r uses rows [w·b, (w+1)·b) of TeacherTask(model, seed).make_batch(r, W·b),
// so round r of bsp is exactly step r of single-device training on make_batch(r, W·b) (equal to ~1e-12), and
// asp with one worker is exactly sequential SGD. The student starts from init_student(model, seed), as everywhere.
// The SGD step is core/optim's sgd_update on each shard's slice (flattened in parameter_tensors order).
#pragma once

#include <cstdint>
#include <vector>

#include "dsml/mlp.h"
#include "dsml/param_server.h"

namespace dsml {

struct StaleTrainingConfig {
  MlpConfig model;
  int batch_per_worker = 8;       // b ≥ 1
  double lr = 0.05;               // η > 0
  bool staleness_aware = false;   // η/(τ+1) for asp/ssp updates
  std::uint64_t seed = 0;
  int eval_batch = 64;            // rows of the fixed held-out batch the curve is measured on
  int record_every = 1;           // the curve's loss after every record_every-th update the servers apply (≥ 1):
                                  // a caller that reads only whole steps of P·K applications skips the rest
};

// The servers' model measured after an update: `updates` counts applied updates (each shard's apply counts 1/K,
// so with K shards a whole update is 1), `time` is simulated seconds.
struct LossPoint {
  double time = 0.0;
  double updates = 0.0;
  double loss = 0.0;
};

struct StaleTrainingResult {
  std::vector<LossPoint> curve;   // the initial model (time 0, updates 0) first, then after every record_every-th
                                  // applied update (each shard's apply is one)
  double final_loss = 0.0;
  MlpParams params;               // the servers' model at the end
};

// Replays `run` (made with `ps`, whose parameters must equal parameter_count(config.model)). Throws Error otherwise.
StaleTrainingResult train_on_param_server(const ParamServerResult& run, const ParamServerConfig& ps,
                                          const StaleTrainingConfig& config);

// Both at once: ps.parameters is set to the model's size, the run simulated on `topology`, then replayed.
struct ParamServerTraining {
  ParamServerResult run;
  StaleTrainingResult training;
};
ParamServerTraining train_param_server(const Topology& topology, ParamServerConfig ps,
                                       const StaleTrainingConfig& config);

// The held-out batch the curve uses: make_batch(2^40, eval_batch) of the teacher (no training step reaches it).
constexpr std::uint64_t kEvalBatchStep = std::uint64_t{1} << 40;

}  // namespace dsml
