// single_device_run.cpp — a whole deterministic run on one device (see dsml/single_device.h), stopping at divergence.
// Its own file because it catches DivergedError: in the wasm build only files that catch are compiled with
// -fexceptions (CMakeLists.txt), and the landing pads cost a JS trampoline per call in everything they cover.
#include <cmath>
#include <limits>

#include "dsml/error.h"
#include "dsml/single_device.h"

namespace dsml {

SingleDeviceRun single_device_run(const MlpConfig& model, const OptimizerConfig& optimizer, const MlpParams& initial,
                                  const std::vector<Batch>& batches) {
  SingleDevice device(RankGrid{}, model, optimizer, initial);
  SingleDeviceRun run;
  run.losses.assign(batches.size(), std::numeric_limits<double>::quiet_NaN());
  for (std::size_t s = 0; s < batches.size(); ++s) {
    try {
      run.losses[s] = device.step(batches[s]).loss;
    } catch (const DivergedError&) {
      run.diverged_at = static_cast<int>(s);
      break;
    }
    if (!device.optimizer().trust_ratios().empty()) run.trust_ratios.push_back(device.optimizer().trust_ratios());
    if (!std::isfinite(run.losses[s])) {
      run.diverged_at = static_cast<int>(s);
      break;
    }
  }
  run.params = device.full_params();
  return run;
}

}  // namespace dsml
