// ZB-H1 (Qi, Wan, Huang, Lin, "Zero Bubble Pipeline Parallelism", ICLR 2024, §2.1): split each backward into B
// (∂loss/∂input — the only thing the previous device waits for) and W (∂loss/∂weights — nobody waits for it).
// Device d of P runs
//   warm-up     min(P − d, m) forwards (1F1B's, counting its first steady forward);
//   steady      for each micro-batch k: B(k), then — while forwards remain — W(oldest) if the device already
//               holds P micro-batches, and the next forward;
//   cool-down   after each remaining B one W, then the Ws still owed.
// A micro-batch's activations are held from F to W, and no device ever holds more than P: 1F1B's peak (device 0),
// so memory does not grow. What moves is time: B reaches the previous device a W earlier at every hop, and the Ws
// left over fill the drain. With t_f = t_b = t_w = 1 and m ≥ P the step takes 3m + P − 1 against 1F1B's
// 3(m + P − 1): bubble (P − 1)(t_f + t_b − t_w) = P − 1, one third of 1F1B's 3(P − 1).
#include <algorithm>

#include "dsml/chunk_schedule.h"

namespace dsml {

ChunkSchedule zero_bubble_h1(int devices, int micro_batches) {
  ChunkSchedule schedule = empty_chunk_schedule("zb-h1", devices, 1, micro_batches);
  const int P = devices, m = micro_batches;
  using Kind = ChunkOp::Kind;
  for (int d = 0; d < P; ++d) {
    auto& ops = schedule.ops[static_cast<std::size_t>(d)];
    int forwards = 0, weights = 0;  // how many F and W the device has run so far; it holds forwards − weights
    auto forward = [&] { ops.push_back({Kind::kForward, forwards++, d}); };
    auto weight = [&] { ops.push_back({Kind::kBackwardWeight, weights++, d}); };
    while (forwards < std::min(P - d, m)) forward();
    for (int k = 0; k < m; ++k) {
      ops.push_back({Kind::kBackwardInput, k, d});
      if (forwards < m) {
        if (forwards - weights == P) weight();
        forward();
      } else {
        weight();  // cool-down: one W after each B (W(k) at the latest, so its B has run)
      }
    }
    while (weights < m) weight();
  }
  return schedule;
}

}  // namespace dsml
