// GPipe (Huang et al., "GPipe: Efficient Training of Giant Neural Networks using Pipeline Parallelism",
// NeurIPS 2019): every stage runs all m forwards, then all m backwards ("all forward, all backward").
//
// Stage s runs forward(i) as soon as micro-batch i arrives, so the last stage finishes its forwards at
// (m + P − 1)·t_f; the backwards then drain the pipe the other way in (m + P − 1)·t_b. The price is memory:
// every stage holds the activations of all m micro-batches at the turn (compare one_f_one_b.cpp).
#include "dsml/pipeline_schedule.h"

namespace dsml {

PipelineSchedule gpipe(int stages, int micro_batches) {
  PipelineSchedule schedule = empty_pipeline_schedule("gpipe", stages, micro_batches);
  for (int s = 0; s < stages; ++s) {
    for (int i = 0; i < micro_batches; ++i) add_forward(schedule, s, i);
    // Backwards in micro-batch order (picotron's AFAB does the same); reverse order has the same makespan.
    for (int i = 0; i < micro_batches; ++i) add_backward(schedule, s, i);
  }
  return schedule;
}

}  // namespace dsml
