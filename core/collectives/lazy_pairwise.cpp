// lazy_pairwise.cpp — the pairwise reduce-scatter as a formula: rank r's step i computed on demand in O(1)
// (lazy_schedule.h). The materialised generator is reduce_scatter_pairwise.cpp; there, round k = 1 … p − 1 has
// every rank r send chunk r + k to rank r + k, then add the chunk r that rank r − k sent it. So rank r's steps are
//   index 2(k − 1)       send          slot (r + k) mod p   to rank (r + k) mod p
//   index 2(k − 1) + 1   recv-reduce   slot r               from rank (r − k) mod p
#include <memory>
#include <utility>

#include "collectives/generators.h"
#include "dsml/lazy_schedule.h"

namespace dsml::collectives {

namespace {

class PairwiseReduceScatter : public LazySchedule {
 public:
  explicit PairwiseReduceScatter(Schedule header) : LazySchedule(std::move(header)) {}

  bool step(int r, std::size_t index, ScheduleStep& out) const override {
    const int p = header().ranks;
    if (index >= 2 * static_cast<std::size_t>(p - 1)) return false;
    const int k = static_cast<int>(index / 2) + 1;  // 1 ≤ k < p
    if (index % 2 == 0) {
      const int to = r + k < p ? r + k : r + k - p;
      out.kind = ScheduleStep::Kind::kSend;
      out.peer = to;
      out.slots.set_single(to);
    } else {
      out.kind = ScheduleStep::Kind::kRecvReduce;
      out.peer = r - k >= 0 ? r - k : r - k + p;
      out.slots.set_single(r);
    }
    return true;
  }
};

}  // namespace

std::unique_ptr<LazySchedule> lazy_reduce_scatter_pairwise(const Request& request, Schedule header) {
  header.slot_bytes = split_bytes(request.bytes, request.ranks);
  header.owner = slot_range(0, request.ranks);
  return std::make_unique<PairwiseReduceScatter>(std::move(header));
}

}  // namespace dsml::collectives
