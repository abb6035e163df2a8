// checkpoint_closed_forms.cpp — Young's and Daly's checkpoint intervals and Daly's expected wall time
// (dsml/checkpointing.h).
#include <algorithm>
#include <cmath>
#include <string>

#include "dsml/checkpointing.h"
#include "dsml/error.h"

namespace dsml {

double first_order_overhead(double interval, double checkpoint, double mtbf) {
  require_positive("interval (s of work between checkpoints)", interval);
  require_non_negative("checkpoint (s to write one)", checkpoint);
  require_positive("mtbf (s)", mtbf);
  return checkpoint / interval + interval / (2 * mtbf);
}

double young_interval(double checkpoint, double mtbf) {
  require_positive("checkpoint (s to write one)", checkpoint);
  require_positive("mtbf (s)", mtbf);
  return std::sqrt(2 * checkpoint * mtbf);  // d/dτ (δ/τ + τ/2M) = 0
}

double daly_interval(double checkpoint, double mtbf) {
  require_positive("checkpoint (s to write one)", checkpoint);
  require_positive("mtbf (s)", mtbf);
  if (checkpoint >= 2 * mtbf) return mtbf;  // checkpoints cost more than failures lose: Daly's τ* = M
  const double x = checkpoint / (2 * mtbf);
  return std::sqrt(2 * checkpoint * mtbf) * (1 + std::sqrt(x) / 3 + x / 9) - checkpoint;
}

double expected_wall_time(double work, double interval, double checkpoint, double restart, double mtbf,
                          double detection) {
  require_positive("work (s)", work);
  require_positive("interval (s of work between checkpoints)", interval);
  require_non_negative("checkpoint (s to write one)", checkpoint);
  require_non_negative("restart (s)", restart);
  require_positive("mtbf (s)", mtbf);
  require_non_negative("detection (s)", detection);
  // W/τ segments; the expression is per unit of work, so a last partial segment is counted pro rata.
  return work / interval * (mtbf + detection) * std::exp(restart / mtbf) *
         std::expm1((interval + checkpoint) / mtbf);
}

double expected_failures(double work, double interval, double checkpoint, double restart, double mtbf,
                         double detection) {
  return expected_wall_time(work, interval, checkpoint, restart, mtbf, detection) / mtbf;
}

double optimal_interval(double work, double checkpoint, double restart, double mtbf, double detection) {
  const auto cost = [&](double tau) { return expected_wall_time(work, tau, checkpoint, restart, mtbf, detection); };
  // Golden-section search: T(τ) = c·(e^{(τ+δ)/M} − 1)/τ is convex in τ > 0.
  const double phi = (std::sqrt(5.0) - 1) / 2;
  // Beyond 50 M the exponential overflows to inf (equal costs would mislead the search); the optimum is far below.
  double lo = 1e-9 * work, hi = std::min(work, 50 * mtbf);
  double a = hi - phi * (hi - lo), b = lo + phi * (hi - lo);
  double fa = cost(a), fb = cost(b);
  for (int i = 0; i < 200 && hi - lo > 1e-12 * work; ++i) {
    if (fa < fb) {
      hi = b, b = a, fb = fa, a = hi - phi * (hi - lo), fa = cost(a);
    } else {
      lo = a, a = b, fa = fb, b = lo + phi * (hi - lo), fb = cost(b);
    }
  }
  return (lo + hi) / 2;
}

double expected_lost_work(double segment, double mtbf) {
  require_positive("segment (s)", segment);
  require_positive("mtbf (s)", mtbf);
  return mtbf - segment / std::expm1(segment / mtbf);  // E[X | X < L], X ~ Exp(mean M)
}

double fleet_mtbf(double node_mtbf, int nodes) {
  require_positive("node_mtbf (s)", node_mtbf);
  if (nodes < 1) throw Error("nodes must be >= 1, got " + std::to_string(nodes));
  return node_mtbf / nodes;
}

double mean_detection_delay(double heartbeat_period, double timeout) {
  require_non_negative("heartbeat_period (s)", heartbeat_period);
  require_non_negative("heartbeat_timeout (s)", timeout);
  if (heartbeat_period == 0) return timeout;
  return heartbeat_period * std::ceil(timeout / heartbeat_period) - heartbeat_period / 2;
}

double detection_time(double failure_time, double heartbeat_period, double timeout) {
  if (heartbeat_period == 0) return failure_time + timeout;
  const double last_beat = heartbeat_period * std::floor(failure_time / heartbeat_period);
  return last_beat + heartbeat_period * std::ceil(timeout / heartbeat_period);
}

}  // namespace dsml
