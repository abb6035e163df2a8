// dsml/optimizer.h — SGD, momentum, Adam, LARS and LAMB over a list of parameter tensors.
//
// Optimizer state is plain matrices, one per parameter tensor and of its shape, so ZeRO (Rajbhandari et al.
// 2020) can later keep only a rank's slice of it. The per-tensor update functions below are the whole math of
// each method; the Optimizer class only schedules the learning rate, owns the state and loops over tensors.
// Note for sharding: LARS and LAMB need ‖w‖ and ‖g‖ (or ‖update‖) of the *whole* tensor — a sharded step must
// all-reduce those norms (sums of squares) before applying the trust ratio.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "dsml/mlp.h"

namespace dsml {

enum class OptimizerKind { sgd, momentum, adam, lars, lamb };

// "sgd", "momentum", "adam", "lars", "lamb"; throws Error on anything else.
OptimizerKind parse_optimizer(const std::string& name);
const char* optimizer_name(OptimizerKind kind);
// The state each kind keeps per tensor: a first moment (momentum buffer, Adam/LAMB m, LARS momentum) for all but
// SGD, a second moment (v) for Adam and LAMB. The Optimizer, ZeRO's shard update and the lab's optimizerStep read it
// here.
bool uses_first_moment(OptimizerKind kind);
bool uses_second_moment(OptimizerKind kind);

struct OptimizerConfig {
  OptimizerKind kind = OptimizerKind::sgd;
  double lr = 0.01;                  // base learning rate γ (before warm-up)
  double momentum = 0.9;             // μ, momentum and LARS; in [0, 1)
  double beta1 = 0.9;                // Adam/LAMB first-moment decay; in [0, 1)
  double beta2 = 0.999;              // Adam/LAMB second-moment decay; in [0, 1)
  double epsilon = 1e-8;             // Adam/LAMB denominator guard; > 0
  double weight_decay = 0.0;         // λ ≥ 0: L2 for SGD/momentum/LARS, decoupled (AdamW) for Adam/LAMB
  double trust_coefficient = 0.001;  // η for LARS; > 0
  int warmup_steps = 0;              // w ≥ 0; 0 = no warm-up
};

// Throws Error naming the first bad field ("beta2 must be in [0, 1), got 1").
void validate(const OptimizerConfig& config);

// ---- learning-rate rules (pure functions) ----------------------------------------------------------------
// Linear warm-up (Goyal et al. 2017): lr_t = base·min(1, (t+1)/w) for 0-based step t; base when w = 0.
double warmup_lr(double base_lr, std::int64_t step, std::int64_t warmup_steps);
// Linear scaling rule (Goyal et al. 2017): multiply the batch by k, multiply the learning rate by k.
//   lr = base·B/B_ref
double linear_scaled_lr(double base_lr, double batch_size, double reference_batch_size);

// ---- trust ratios (pure functions) -----------------------------------------------------------------------
// LARS layer-wise local lr (You, Gitman & Ginsburg 2017, eq. 6): η·‖w‖/(‖g‖ + λ‖w‖); 1 when either norm is 0.
double lars_trust_ratio(double weight_norm, double grad_norm, double eta, double weight_decay);
// LAMB per-tensor ratio (You et al. 2019, Alg. 2 with φ = identity): ‖w‖/‖u‖; 1 when either norm is 0.
double lamb_trust_ratio(double weight_norm, double update_norm);

// ---- per-tensor updates ------------------------------------------------------------------------------------
// `lr` is the already-scheduled rate for this step, `t` the 1-based step number (bias correction).
// State matrices (m, v) must have w's shape; they start at zero. All update w (and the state) in place.
void sgd_update(const OptimizerConfig& c, double lr, Eigen::MatrixXd& w, const Eigen::MatrixXd& g);
void momentum_update(const OptimizerConfig& c, double lr, Eigen::MatrixXd& w, const Eigen::MatrixXd& g,
                     Eigen::MatrixXd& m);
void adam_update(const OptimizerConfig& c, double lr, std::int64_t t, Eigen::MatrixXd& w, const Eigen::MatrixXd& g,
                 Eigen::MatrixXd& m, Eigen::MatrixXd& v);
// Adam's direction m̂/(√v̂ + ε) after g is folded into the moments (m, v updated in place): the part Adam and
// LAMB share (adam.cpp); each then adds λ·w and scales the step its own way.
Eigen::MatrixXd adam_direction(const OptimizerConfig& c, std::int64_t t, const Eigen::MatrixXd& g, Eigen::MatrixXd& m,
                               Eigen::MatrixXd& v);
// LARS and LAMB return the trust ratio they scaled this tensor's step by (what a page shows per layer).
double lars_update(const OptimizerConfig& c, double lr, Eigen::MatrixXd& w, const Eigen::MatrixXd& g,
                   Eigen::MatrixXd& m);
double lamb_update(const OptimizerConfig& c, double lr, std::int64_t t, Eigen::MatrixXd& w, const Eigen::MatrixXd& g,
                 Eigen::MatrixXd& m, Eigen::MatrixXd& v);

// ---- the optimizer ---------------------------------------------------------------------------------------
struct OptimizerState {
  std::int64_t step = 0;                // updates taken so far
  std::vector<Eigen::MatrixXd> first;   // m per tensor: momentum buffer / first moment (empty for SGD)
  std::vector<Eigen::MatrixXd> second;  // v per tensor: second moment (Adam, LAMB only)
};

class Optimizer {
 public:
  explicit Optimizer(const OptimizerConfig& config);  // validates

  // One update of every tensor: params[i] ← update(params[i], grads[i]). State is created (zeros) on the
  // first call; later calls must pass the same number of tensors with the same shapes. Throws DivergedError
  // (error.h) if a gradient holds inf or nan: the run has diverged.
  void step(const std::vector<Eigen::MatrixXd*>& params, const std::vector<const Eigen::MatrixXd*>& grads);
  // The same over an MLP, tensors in parameter_tensors() order.
  void step(MlpParams& params, const MlpParams& grads);

  double current_lr() const;  // the rate the next step() will use: warmup_lr(config.lr, state.step, w)
  const OptimizerConfig& config() const { return config_; }
  const OptimizerState& state() const { return state_; }
  OptimizerState& state() { return state_; }  // for checkpointing and (later) ZeRO sharding
  // LARS, LAMB: the trust ratio each tensor's last update used, in tensor order; empty for the other kinds.
  const std::vector<double>& trust_ratios() const { return trust_ratios_; }

 private:
  OptimizerConfig config_;
  OptimizerState state_;
  std::vector<double> trust_ratios_;
};

}  // namespace dsml
