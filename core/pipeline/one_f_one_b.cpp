// 1F1B / PipeDream-Flush (Narayanan et al., "Memory-Efficient Pipeline-Parallel DNN Training", ICML 2021, and
// "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM", SC 2021).
//
// Same ops as GPipe, reordered. Stage s (of P) runs
//   warm-up     w = min(P − 1 − s, m) forwards — just enough to fill the pipe below it;
//   steady      m − w times: forward(w + k), then backward(k) — one forward, one backward;
//   cool-down   the w backwards still owed.
// A backward frees its micro-batch's activations, so stage s never holds more than w + 1 ≤ min(P − s, m) of
// them (stage 0: min(P, m)), against m for GPipe. The makespan, and so the bubble (P − 1)/(m + P − 1), is
// unchanged: the flush at the end of the step still drains the pipe.
#include <algorithm>

#include "dsml/pipeline_schedule.h"

namespace dsml {

PipelineSchedule one_f_one_b(int stages, int micro_batches) {
  PipelineSchedule schedule = empty_pipeline_schedule("1f1b", stages, micro_batches);
  for (int s = 0; s < stages; ++s) {
    const int warmup = std::min(stages - 1 - s, micro_batches);
    for (int i = 0; i < warmup; ++i) add_forward(schedule, s, i);
    for (int k = 0; k < micro_batches - warmup; ++k) {
      add_forward(schedule, s, warmup + k);
      add_backward(schedule, s, k);
    }
    for (int i = micro_batches - warmup; i < micro_batches; ++i) add_backward(schedule, s, i);
  }
  return schedule;
}

}  // namespace dsml
