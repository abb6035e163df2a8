// cost_model.cpp — T(n) = α + β·n and the quantities a learner reads off it.
//
// Hockney, "The communication challenge for MPP: Intel Paragon and Meiko CS-2", Parallel Computing 20 (1994);
// Thakur, Rabenseifner & Gropp, "Optimization of collective communication operations in MPICH", IJHPCA 19 (2005).
// Units throughout: seconds, bytes, bytes per second.
#include "dsml/cost_model.h"

#include "dsml/error.h"

namespace dsml {

CostModel CostModel::from_bandwidth(double latency_s, double bandwidth_bytes_per_s, double gamma) {
  require_non_negative("latency (s)", latency_s);
  require_positive("bandwidth (bytes/s)", bandwidth_bytes_per_s);
  CostModel model;
  model.alpha = latency_s;
  model.beta = 1.0 / bandwidth_bytes_per_s;  // s per byte
  model.gamma = gamma;
  validate(model);  // catches a bandwidth so large that 1/bandwidth underflows to 0, and a bad γ
  return model;
}

void validate(const CostModel& model) {
  require_non_negative("alpha (latency, s)", model.alpha);
  require_positive("beta (s per byte = 1/bandwidth)", model.beta);
  require_non_negative("gamma (s per byte reduced)", model.gamma);
}

double message_time(const CostModel& model, double bytes) {
  validate(model);
  require_non_negative("bytes", bytes);
  return model.alpha + model.beta * bytes;
}

double crossover_size(const CostModel& model) {
  validate(model);
  return model.alpha / model.beta;  // below n* latency dominates, above it bandwidth does
}

double effective_bandwidth(const CostModel& model, double bytes) {
  validate(model);
  require_positive("bytes", bytes);
  // n / (α + β·n): half of the peak 1/β exactly at n = n*, approaching 1/β as n grows.
  return bytes / (model.alpha + model.beta * bytes);
}

double messages_time(const CostModel& model, double count, double bytes) {
  validate(model);
  require_non_negative("count", count);
  require_non_negative("bytes", bytes);
  // Every message pays α again: this is why gradient bucketing sends few large messages.
  return count * (model.alpha + model.beta * bytes);
}

}  // namespace dsml
