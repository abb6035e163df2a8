// lr_schedule.cpp — the two learning-rate rules of large-batch training (Goyal et al. 2017, "Accurate, Large
// Minibatch SGD: Training ImageNet in 1 Hour").
//
// Linear scaling: with k× the batch, one step averages k× as many examples, so take a k× larger step:
//   lr = base · B / B_ref.
// Warm-up: that large rate diverges while the weights are still random, so ramp to it linearly over w steps:
//   lr_t = base · min(1, (t + 1) / w),   t = 0, 1, 2, …  (step 0 already uses base/w, never 0).
#include <string>

#include "dsml/error.h"
#include "dsml/optimizer.h"

namespace dsml {

double warmup_lr(double base_lr, std::int64_t step, std::int64_t warmup_steps) {
  require_non_negative("base learning rate", base_lr);
  if (step < 0) throw Error("step must be >= 0, got " + std::to_string(step));
  if (warmup_steps < 0) throw Error("warmup_steps must be >= 0, got " + std::to_string(warmup_steps));
  if (warmup_steps == 0 || step + 1 >= warmup_steps) return base_lr;
  return base_lr * static_cast<double>(step + 1) / static_cast<double>(warmup_steps);
}

double linear_scaled_lr(double base_lr, double batch_size, double reference_batch_size) {
  require_non_negative("base learning rate", base_lr);
  require_positive("batch size", batch_size);
  require_positive("reference batch size", reference_batch_size);
  return base_lr * batch_size / reference_batch_size;
}

}  // namespace dsml
