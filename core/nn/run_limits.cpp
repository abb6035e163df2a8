// run_limits.cpp — the size checks every training request and simulated job pass (dsml/run_limits.h).
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

}  // namespace dsml::limits
