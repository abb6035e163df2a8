// run_limits.cpp — the size checks every training request, grid and simulated run pass (dsml/run_limits.h).
#include "dsml/run_limits.h"

#include <string>

#include "dsml/error.h"

namespace dsml::limits {

void check_run_size(const MlpConfig& model, int batch, int steps) {
  if (static_cast<double>(model.layers) * model.width * model.hidden > kModelWeights)
    throw Error("model: layers·width·hidden must be at most 1e8 (a lab model, not a real one; stepCost prices real "
                "ones)");
  if (steps > kSteps) throw Error("steps must be at most " + std::to_string(kSteps));
  if (static_cast<double>(batch) * model.width > kBatchValues) throw Error("batch·width must be at most 1e7");
}

void check_job_size(int workers, int steps) {
  if (static_cast<double>(workers) * steps > kJobWorkerSteps) throw Error("workers·steps must be at most 4e6");
}

void check_grid_size(const RankGrid& grid) {
  if (static_cast<double>(grid.dp) * grid.tp * grid.pp > kGridRanks)
    throw Error("dp·tp·pp must be at most " + std::to_string(kGridRanks) + " ranks");
}

void check_ps_size(int workers, int servers, int iterations) {
  const double pushes = static_cast<double>(workers) * servers * iterations;
  if (pushes > kPsPushes)
    throw Error("workers·servers·iterations must be <= 2e6 (pushes a tab simulates at once), got " +
                format_number(pushes));
}

void check_ps_training_size(int workers, int iterations, int batch, double parameters) {
  if (static_cast<double>(workers) * iterations * batch * parameters > kPsTrainedValues)
    throw Error("workers·iterations·batch·parameters must be <= 2e10 (what a tab trains in seconds)");
}

void check_moe_size(int experts, const MlpConfig& mlp) {
  if (static_cast<double>(experts) * mlp.layers * mlp.width * mlp.hidden > kMoeWeights)
    throw Error("experts·layers·width·hidden must be <= 1e8 for a run in a tab");
}

void check_expert_parallel_size(int batch, int width, int hidden) {
  if (static_cast<double>(batch) * width * hidden > kModelWeights)
    throw Error("batch·width·hidden must be <= 1e8 for a run in a tab");
}

void check_speed_draws(int workers, int iterations) {
  if (static_cast<double>(workers) * iterations > kSpeedDraws) throw Error("workers·iterations must be <= 4e6");
}

}  // namespace dsml::limits
