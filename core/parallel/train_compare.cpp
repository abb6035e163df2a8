// train_compare.cpp — a strategy trained beside the single device (see dsml/train_compare.h).
#include "dsml/train_compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "dsml/error.h"
#include "dsml/single_device.h"
#include "dsml/teacher_task.h"

namespace dsml {

TrainComparison train_compare(const TrainConfig& config) {
  const MlpParams initial = init_student(config.model, config.seed);
  std::unique_ptr<ParallelTrainer> trainer =
      make_trainer(config.strategy, config.grid, config.model, config.optimizer, initial, config.options);
  const std::vector<Batch> batches = teacher_batches(config.model, config.seed, config.steps, config.batch);

  TrainComparison out;
  out.losses.assign(batches.size(), std::numeric_limits<double>::quiet_NaN());
  ParallelStep last;
  for (std::size_t s = 0; s < batches.size(); ++s) {
    try {
      ParallelStep step = trainer->step(batches[s]);
      out.losses[s] = step.loss;
      last = std::move(step);
    } catch (const DivergedError&) {  // a gradient with inf or nan: this step computed no loss
      out.diverged_at = static_cast<int>(s);
      break;
    }
    if (!std::isfinite(out.losses[s])) {  // sharded updates do not check gradients; the loss tells
      out.diverged_at = static_cast<int>(s);
      break;
    }
  }
  const SingleDeviceRun single = single_device_run(config.model, config.optimizer, initial, batches);
  out.single_losses = single.losses;
  out.single_diverged_at = single.diverged_at;
  out.trust_ratios = single.trust_ratios;
  for (std::size_t i = 0; i < out.losses.size(); ++i) {
    if (!std::isfinite(out.losses[i]) || !std::isfinite(single.losses[i])) continue;
    const double scale = std::abs(single.losses[i]) > 0 ? std::abs(single.losses[i]) : 1.0;
    out.max_loss_relative_difference =
        std::max(out.max_loss_relative_difference, std::abs(out.losses[i] - single.losses[i]) / scale);
  }
  out.max_relative_difference = out.diverged_at >= 0 || single.diverged_at >= 0
                                    ? std::numeric_limits<double>::quiet_NaN()
                                    : max_relative_difference(trainer->full_params(), single.params);
  out.comm_bytes = busiest_rank_bytes(last.comm, config.grid);
  out.memory = std::move(last.memory);
  return out;
}

std::map<std::string, double> busiest_rank_bytes(const CommLog& log, const RankGrid& grid) {
  std::map<std::string, double> out;
  std::map<std::string, std::map<int, double>> by_sender;  // point-to-point: kind → sending stage → bytes
  const double ranks = grid.size();
  for (const CommRecord& r : log.records()) {
    if (r.stage >= 0) {
      by_sender[r.kind][r.stage] += r.bytes_per_rank;
    } else {
      // ranks / r.ranks groups of this size run the call side by side; a rank is in one of them.
      out[r.kind] += r.bytes_per_rank * (r.ranks > 0 ? r.ranks / ranks : 1.0);
    }
  }
  for (const auto& [kind, senders] : by_sender) {
    double busiest = 0;
    for (const auto& [stage, bytes] : senders) busiest = std::max(busiest, bytes);
    out[kind] += busiest;
  }
  return out;
}

double max_relative_difference(const MlpParams& a, const MlpParams& ref) {
  const auto pa = parameter_tensors(a);
  const auto pr = parameter_tensors(ref);
  if (pa.size() != pr.size())
    throw Error("cannot compare models of " + std::to_string(pa.size()) + " and " + std::to_string(pr.size()) +
                " tensors");
  double worst = 0;
  for (std::size_t k = 0; k < pa.size(); ++k) {
    if (pa[k]->rows() != pr[k]->rows() || pa[k]->cols() != pr[k]->cols())
      throw Error("cannot compare tensor " + std::to_string(k) + ": the shapes differ");
    const double norm = pr[k]->norm();
    worst = std::max(worst, (*pa[k] - *pr[k]).norm() / (norm > 0 ? norm : 1.0));
  }
  return worst;
}

}  // namespace dsml
