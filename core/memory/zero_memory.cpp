// Model-state memory per device under ZeRO stages 0–3 (Rajbhandari et al., SC 2020, §5 and Figure 1).
//
// Each stage partitions one more of the three model states across the N_d data-parallel devices; a device
// keeps 1/N_d of what is partitioned and all of what is not. The communication price (not counted here):
// stages 1 and 2 move the same bytes as plain data parallelism (reduce-scatter + all-gather = all-reduce),
// stage 3 adds an all-gather of the parameters in forward and again in backward — 1.5× the volume.
#include <string>

#include "dsml/error.h"
#include "dsml/memory_accountant.h"

namespace dsml {

MemoryBreakdown memory_per_device(double parameters, int dp_devices, int zero_stage, double activation_bytes) {
  require_positive("parameter count", parameters);
  require_non_negative("activation bytes", activation_bytes);
  if (dp_devices < 1) {
    throw Error("data-parallel devices must be >= 1, got " + std::to_string(dp_devices));
  }
  if (zero_stage < 0 || zero_stage > 3) {
    throw Error("ZeRO stage must be 0, 1, 2 or 3, got " + std::to_string(zero_stage));
  }
  const double n = dp_devices;
  MemoryBreakdown m;
  m.params = kFp16ParameterBytes * parameters / (zero_stage >= 3 ? n : 1.0);
  m.grads = kFp16GradientBytes * parameters / (zero_stage >= 2 ? n : 1.0);
  m.optimizer = kAdamStateBytes * parameters / (zero_stage >= 1 ? n : 1.0);
  m.activations = activation_bytes;
  m.total = m.params + m.grads + m.optimizer + m.activations;
  return m;
}

}  // namespace dsml
