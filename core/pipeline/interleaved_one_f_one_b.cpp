// Interleaved 1F1B (Narayanan et al., "Efficient Large-Scale Language Model Training on GPU Clusters Using
// Megatron-LM", SC 2021, §2.2.2): each of P devices holds v chunks (device r: chunks r, r + P, …, r + (v−1)P),
// so a micro-batch goes round the devices v times. A device's work is v·m "virtual micro-batches"; the k-th of
// them (counted on the device) is
//   forward:   micro-batch (k div P·v)·P + k mod P, local chunk (k div P) mod v        — groups of P micro-batches
//   backward:  the same micro-batch, local chunk v − 1 − (k div P) mod v                 run chunk by chunk
// which is why m must be a multiple of P. Device r warms up with min(2(P − r − 1) + (v − 1)P, v·m) forwards,
// then alternates one forward and one backward, then drains the backwards — 1F1B over virtual micro-batches.
// Each chunk is 1/v of a stage, so the fill and drain cost (P − 1)(t_f + t_b)/v of stage time instead of
// (P − 1)(t_f + t_b): the bubble shrinks v-fold, paid for in v× the point-to-point messages and more activations.
#include <algorithm>
#include <string>

#include "dsml/chunk_schedule.h"
#include "dsml/error.h"

namespace dsml {

ChunkSchedule interleaved_one_f_one_b(int devices, int micro_batches, int chunks_per_device) {
  ChunkSchedule schedule = empty_chunk_schedule("interleaved", devices, chunks_per_device, micro_batches);
  const int P = devices, v = chunks_per_device, m = micro_batches;
  if (m % P != 0)
    throw Error("the interleaved schedule needs the number of micro-batches to be a multiple of the devices (m = " +
                std::to_string(m) + ", P = " + std::to_string(P) + "): micro-batches go round in groups of P");
  const int total = v * m;  // virtual micro-batches per device
  auto micro_batch = [P, v](int k) { return (k / (P * v)) * P + k % P; };
  auto forward_chunk = [P, v](int k) { return (k / P) % v; };
  auto backward_chunk = [P, v](int k) { return v - 1 - (k / P) % v; };
  using Kind = ChunkOp::Kind;
  for (int r = 0; r < P; ++r) {
    auto& ops = schedule.ops[static_cast<std::size_t>(r)];
    auto forward = [&](int k) { ops.push_back({Kind::kForward, micro_batch(k), forward_chunk(k) * P + r}); };
    auto backward = [&](int k) { ops.push_back({Kind::kBackward, micro_batch(k), backward_chunk(k) * P + r}); };
    // v = 1 is plain 1F1B (P − r − 1 warm-up forwards); v > 1 needs the extra round of P to reach the last chunk.
    const int warmup = v == 1 ? std::min(P - r - 1, total) : std::min(2 * (P - r - 1) + (v - 1) * P, total);
    for (int k = 0; k < warmup; ++k) forward(k);
    for (int k = 0; k < total - warmup; ++k) {
      forward(warmup + k);
      backward(k);
    }
    for (int k = total - warmup; k < total; ++k) backward(k);
  }
  return schedule;
}

}  // namespace dsml
