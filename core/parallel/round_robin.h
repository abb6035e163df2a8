// parallel/round_robin.h — private to core/parallel: the executor the pipeline engine (chunk_pipeline_parallel.cpp,
// behind the plain pipeline too) runs a schedule's per-device op lists with. Rounds; in each round every device,
// in order 0 … P − 1, runs its next op if `ready` says what it needs has arrived (otherwise it skips the round).
// Each result has exactly one producer and one consumer and each device's ops run in order, so the numbers do not
// depend on this interleaving — only the memory held does, and that is fixed by each device's op order.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "dsml/error.h"

namespace dsml::round_robin {

// ready(device, op) → bool; run(device, op, round). Throws Error("<what> stalled in round r") if a round moves no
// device while some are unfinished — a checked schedule never does; this guards the executor.
template <typename Op, typename Ready, typename Run>
void execute(const std::vector<std::vector<Op>>& ops, Ready&& ready, Run&& run, const std::string& what) {
  std::vector<std::size_t> pc(ops.size(), 0);
  for (int round = 0;; ++round) {
    bool moved = false, done = true;
    for (std::size_t d = 0; d < ops.size(); ++d) {
      if (pc[d] == ops[d].size()) continue;
      done = false;
      const Op& op = ops[d][pc[d]];
      if (!ready(static_cast<int>(d), op)) continue;
      run(static_cast<int>(d), op, round);
      ++pc[d];
      moved = true;
    }
    if (done) return;
    if (!moved) throw Error(what + " stalled in round " + std::to_string(round));
  }
}

}  // namespace dsml::round_robin
