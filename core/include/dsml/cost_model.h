// dsml/cost_model.h — the α–β–γ cost model (Hockney 1994; Thakur, Rabenseifner & Gropp 2005).
//
// Sending n bytes between two processes takes T(n) = α + β·n seconds:
//   α  latency, seconds per message (software overhead + wire latency)
//   β  inverse bandwidth, seconds per byte (β = 1 / bandwidth[B/s])
//   γ  reduction cost, seconds per byte combined (used by reducing collectives)
// The crossover size n* = α/β is where latency and transfer time are equal:
// messages much smaller than n* are latency-bound, much larger ones bandwidth-bound.
#pragma once

namespace dsml {

struct CostModel {
  double alpha = 0.0;  // s per message
  double beta = 0.0;   // s per byte
  double gamma = 0.0;  // s per byte reduced

  // Builds a model from a latency in seconds and a bandwidth in bytes per second.
  static CostModel from_bandwidth(double latency_s, double bandwidth_bytes_per_s, double gamma = 0.0);
};

// Throws dsml::Error unless α ≥ 0, β > 0, γ ≥ 0 and all are finite.
void validate(const CostModel& model);

// T(n) = α + β·n, in seconds. n ≥ 0 bytes.
double message_time(const CostModel& model, double bytes);

// n* = α / β, in bytes.
double crossover_size(const CostModel& model);

// Achieved bandwidth n / T(n), in bytes per second; tends to 1/β as n → ∞. n > 0.
double effective_bandwidth(const CostModel& model, double bytes);

// Time to send `count` messages of `bytes` each, one after another: count·(α + β·bytes).
// (Week 1's bucketing question: 200 × 50 KB versus one 10 MB message.)
double messages_time(const CostModel& model, double count, double bytes);

}  // namespace dsml
