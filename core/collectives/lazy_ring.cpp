// lazy_ring.cpp — the ring all-reduce, all-gather and reduce-scatter as formulas: rank r's step i computed on
// demand in O(1), with no list of steps (lazy_schedule.h). The materialised generators are beside this file
// (allreduce_ring.cpp, allgather_ring.cpp, reduce_scatter_ring.cpp); diff them: the loops there, over steps k and
// ranks i, are the formulas here, and tests/core/test_lazy_schedule.cpp checks both give the same steps.
//
// Every rank of a ring runs one or two phases of p − 1 rounds; in round k it sends one part to r + 1, then
// receives one from r − 1 (mod p). A rank's steps are therefore, for phase f and round k,
//   index 2(p − 1)·f + 2k       send          part (r − k − 1) mod p   (reduce-scatter phase)
//                                               part (r − k) mod p       (all-gather phase)
//   index 2(p − 1)·f + 2k + 1   recv-reduce   part (r − k − 2) mod p   (reduce-scatter phase)
//                                recv-copy     part (r − k − 1) mod p   (all-gather phase)
// and part i is the one slot (i + shift) mod p: shift 1 in the all-reduce (rank r ends its reduce-scatter with
// chunk r + 1, the textbook numbering), 0 in the stand-alone all-gather and reduce-scatter (rank r owns chunk r).
#include <memory>
#include <utility>

#include "collectives/generators.h"
#include "dsml/lazy_schedule.h"

namespace dsml::collectives {

namespace {

class RingSchedule : public LazySchedule {
 public:
  // `reduce_phase`, `gather_phase`: which of the two phases run, in that order.
  RingSchedule(Schedule header, bool reduce_phase, bool gather_phase, int shift)
      : LazySchedule(std::move(header)), reduce_(reduce_phase), gather_(gather_phase), shift_(shift) {}

  bool step(int r, std::size_t index, ScheduleStep& out) const override {
    const int p = header().ranks;
    const std::size_t per_phase = 2 * static_cast<std::size_t>(p - 1);  // 0 when p = 1: no steps at all
    // Which phase, without a division: there are at most two.
    std::size_t within = index;
    bool reducing = reduce_;
    if (within >= per_phase) {
      if (!(reduce_ && gather_) || within >= 2 * per_phase) return false;
      within -= per_phase;
      reducing = false;
    }
    // The ring's member r is rank r; its part i is slot (i + shift) mod p.
    const RingBlockStep s = ring_block_step(r, p, within, reducing);
    const int slot = s.part + shift_ >= p ? s.part + shift_ - p : s.part + shift_;
    out.kind = s.send ? ScheduleStep::Kind::kSend
                      : (reducing ? ScheduleStep::Kind::kRecvReduce : ScheduleStep::Kind::kRecvCopy);
    out.peer = s.peer;
    out.slots.set_single(slot);
    return true;
  }

 private:
  bool reduce_;
  bool gather_;
  int shift_;
};

}  // namespace

std::unique_ptr<LazySchedule> lazy_allreduce_ring(const Request& request, Schedule header) {
  header.slot_bytes = split_bytes(request.bytes, request.ranks);
  return std::make_unique<RingSchedule>(std::move(header), true, true, 1);
}

std::unique_ptr<LazySchedule> lazy_allgather_ring(const Request& request, Schedule header) {
  header.slot_bytes = split_bytes(request.bytes, request.ranks);
  header.owner = slot_range(0, request.ranks);
  return std::make_unique<RingSchedule>(std::move(header), false, true, 0);
}

std::unique_ptr<LazySchedule> lazy_reduce_scatter_ring(const Request& request, Schedule header) {
  header.slot_bytes = split_bytes(request.bytes, request.ranks);
  header.owner = slot_range(0, request.ranks);
  return std::make_unique<RingSchedule>(std::move(header), true, false, 0);
}

}  // namespace dsml::collectives
