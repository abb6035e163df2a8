// zero_shard_update.cpp — one optimizer update on a flat shard of the parameters (ZeRO's "each rank updates its
// partition").
//
// Why this is exact for SGD, momentum and Adam: their update of element i reads only w_i, g_i and that element's
// moments (sgd.cpp, adam.cpp). Cutting the flat parameter vector anywhere — even through the middle of a tensor —
// and updating the pieces separately gives the same numbers as updating whole tensors. LARS and LAMB scale each
// tensor by a trust ratio of its whole norm; a shard would see a partial norm, so they are refused here.
#include <string>
#include <utility>

#include "dsml/error.h"
#include "dsml/zero.h"

namespace dsml {

void update_shard(const OptimizerConfig& config, std::int64_t t, Buffer& params, const Buffer& grads,
                  ShardMoments& moments) {
  if (config.kind == OptimizerKind::lars || config.kind == OptimizerKind::lamb)
    throw Error(std::string(optimizer_name(config.kind)) +
                " needs each tensor's whole norm, which a shard does not have (it would need an extra all-reduce of "
                "squared norms); use sgd, momentum or adam, whose updates are elementwise");
  if (t < 1) throw Error("the step t of a shard update must be >= 1 (1-based), got " + std::to_string(t));
  if (params.size() != grads.size())
    throw Error("shard update: " + std::to_string(params.size()) + " parameters but " + std::to_string(grads.size()) +
                " gradients");
  const auto n = static_cast<Eigen::Index>(params.size());
  const bool first = uses_first_moment(config.kind);    // momentum buffer / Adam's m
  const bool second = uses_second_moment(config.kind);  // Adam's v (LAMB's is refused above)
  for (const auto& [used, state] : {std::pair{first, &moments.first}, std::pair{second, &moments.second}})
    if (used && state->size() != 0 && state->size() != n)
      throw Error("shard update: optimizer state of " + std::to_string(state->size()) + " values for a shard of " +
                  std::to_string(n) + " (give the shard's size, or nothing to start from zeros)");
  const double lr = warmup_lr(config.lr, t - 1, config.warmup_steps);  // what Optimizer::current_lr() gives at t
  Eigen::MatrixXd w = Eigen::Map<const Eigen::MatrixXd>(params.data(), n, 1);  // (shard, 1)
  const Eigen::MatrixXd g = Eigen::Map<const Eigen::MatrixXd>(grads.data(), n, 1);
  if (first && moments.first.size() == 0) moments.first = Eigen::MatrixXd::Zero(n, 1);  // lazily, like Optimizer
  if (second && moments.second.size() == 0) moments.second = Eigen::MatrixXd::Zero(n, 1);
  switch (config.kind) {
    case OptimizerKind::sgd: sgd_update(config, lr, w, g); break;
    case OptimizerKind::momentum: momentum_update(config, lr, w, g, moments.first); break;
    case OptimizerKind::adam: adam_update(config, lr, t, w, g, moments.first, moments.second); break;
    default: break;  // refused above
  }
  std::copy(w.data(), w.data() + n, params.begin());
}

void check_shard_state(OptimizerKind kind, std::size_t params, std::size_t m_size, std::size_t v_size,
                       bool in_place) {
  const std::pair<const char*, std::size_t> moments[] = {{"m", uses_first_moment(kind) ? m_size : params},
                                                          {"v", uses_second_moment(kind) ? v_size : params}};
  for (const auto& [name, size] : moments) {
    if (size == params || (size == 0 && !in_place)) continue;
    throw Error(std::string(name) + " has " + std::to_string(size) + " numbers, expected " +
                (in_place ? "one per parameter, " + std::to_string(params) +
                                " (in place, the state is updated, not created: start from zeros)"
                          : "0 (zeros: the start) or one per parameter, " + std::to_string(params)));
  }
}

}  // namespace dsml
