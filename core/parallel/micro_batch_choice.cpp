// micro_batch_choice.cpp — how many micro-batches, and what full recomputation trades (dsml/parallel_design.h).
#include <cmath>
#include <limits>
#include <string>

#include "dsml/error.h"
#include "dsml/parallel_design.h"

namespace dsml {

double pipeline_step_with_overhead(int stages, double compute_s, double overhead_s, int micro_batches) {
  if (stages < 1) throw Error("a pipeline needs at least 1 stage, got " + std::to_string(stages));
  if (micro_batches < 1) throw Error("a pipeline needs at least 1 micro-batch, got " + std::to_string(micro_batches));
  require_positive("compute time", compute_s);
  require_non_negative("per-micro-batch overhead", overhead_s);
  return (micro_batches + stages - 1) * (compute_s / micro_batches + overhead_s);
}

MicroBatchChoice optimal_micro_batches(int stages, double compute_s, double overhead_s, int max_micro_batches) {
  if (max_micro_batches < 1)
    throw Error("the largest number of micro-batches must be >= 1, got " + std::to_string(max_micro_batches));
  MicroBatchChoice choice;
  choice.best_step_s = pipeline_step_with_overhead(stages, compute_s, overhead_s, 1);
  choice.step_s.push_back(choice.best_step_s);
  choice.closed_form = overhead_s > 0 ? std::sqrt((stages - 1) * compute_s / overhead_s)
                                      : std::numeric_limits<double>::infinity();
  for (int m = 2; m <= max_micro_batches; ++m) {
    const double step = pipeline_step_with_overhead(stages, compute_s, overhead_s, m);
    choice.step_s.push_back(step);
    if (step < choice.best_step_s) {
      choice.best = m;
      choice.best_step_s = step;
    }
  }
  return choice;
}

RecomputationTradeoff full_recomputation_tradeoff(double sequence, double micro_batch, double hidden, double heads,
                                                  int tensor_parallel, bool sequence_parallel) {
  RecomputationTradeoff r;
  r.kept_bytes = transformer_layer_activation_bytes(sequence, micro_batch, hidden, heads, tensor_parallel,
                                                    sequence_parallel, Recomputation::kNone);
  r.recomputed_bytes = transformer_layer_activation_bytes(sequence, micro_batch, hidden, heads, tensor_parallel,
                                                          sequence_parallel, Recomputation::kFull);
  r.saved_fraction = 1.0 - r.recomputed_bytes / r.kept_bytes;
  r.compute_factor = (1.0 + 2.0 + 1.0) / (1.0 + 2.0);  // forward + backward (2×) + the forward again
  return r;
}

}  // namespace dsml
