// dsml/hogwild.h — Hogwild! (Niu, Recht, Ré & Wright 2011): T threads run SGD on one shared model with no locks.
//
// The task is sparse least squares, the setting Hogwild! was made for: n features, a hidden w* ~ N(0, 1)^n;
// example i touches a support S_i of k = max(1, round(sparsity·n)) distinct features drawn uniformly, with values
// x_j = z_j/√k (z ~ N(0, 1), so E‖x‖² = 1), and label y_i = w*·x_i. Loss = mean (w·x − y)² over 256 held-out
// examples. One update: read w on S_i, r = w·x_i − y_i, then w_j −= η·r·x_j for j ∈ S_i.
//
// The simulated interleaving: threads run in lockstep waves. In a wave each of the T threads reads its support
// (all reads see the model as the wave began), then the T write-backs land in a seeded random order. So every
// update overlaps exactly the T − 1 others of its wave (delay τ ≤ T − 1, the bound Niu et al. assume).
//   atomic = true   each coordinate's write is an atomic add (w_j ← w_j − η·r·x_j on the CURRENT w_j): nothing is
//                   lost, updates are only computed on stale reads (Hogwild!'s assumption).
//   atomic = false  a plain read-modify-write (w_j ← read_j − η·r·x_j): a thread overwrites what another wrote to
//                   the same coordinate since its read — a lost update.
// A collision: an update whose support meets another update's of its wave. With supports uniform and
// independent, P(two are disjoint) = q = C(n−k, k)/C(n, k), so
//   P(collision) = 1 − q^(T−1)            (k = 1: 1 − (1 − 1/n)^(T−1))
// T = 1 is plain sequential SGD.
#pragma once

#include <cstdint>
#include <vector>

namespace dsml {

struct HogwildConfig {
  int threads = 4;          // T ≥ 1
  int features = 1000;      // n ≥ 1
  double sparsity = 0.01;   // k/n ∈ (0, 1]
  int updates = 10000;      // total over all threads, rounded up to whole waves of T
  double lr = 0.5;          // η > 0
  bool atomic = true;
  int points = 50;          // loss measured after about this many evenly spaced waves (≥ 1)
  std::uint64_t seed = 0;
};

struct HogwildResult {
  int support = 0;                   // k
  int updates = 0;                   // done: waves·T
  double collision_rate = 0.0;       // measured: colliding updates / updates
  double predicted_collision_rate;   // 1 − q^(T−1)
  int lost_writes = 0;               // atomic = false: coordinate writes overwritten by a later stale write
  std::vector<double> loss_updates;  // the x axis of `loss`: updates done when measured (0 first)
  std::vector<double> loss;
  double final_loss = 0.0;
};

// Throws Error naming the bad field.
HogwildResult simulate_hogwild(const HogwildConfig& config);

// 1 − q^(T−1), q = C(n−k, k)/C(n, k) = Π_{i<k} (n−k−i)/(n−i) (0 when 2k > n).
double hogwild_collision_probability(int threads, int features, int support);
// k = max(1, round(sparsity·n)).
int hogwild_support(int features, double sparsity);

}  // namespace dsml
