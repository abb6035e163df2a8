// lazy_hierarchical.cpp — the hierarchical all-reduce as a formula: rank r's step i computed on demand, with no
// list of steps (lazy_schedule.h). The materialised generator is allreduce_hierarchical.cpp (read its comment for
// the algorithm); tests/core/test_lazy_schedule.cpp checks both give the same steps.
//
// Rank r = k·d + l (device l of node k, p = m·d). Each rank takes part in three ring blocks, one after another,
// and its steps are theirs in that order (ring_block_step in generators.h gives a block's step from its index):
//   index 0 … 2(d − 1) − 1              phase 1: reduce-scatter among node k's devices, member l of d; part x is
//                                       slots x·m … x·m + m − 1 (the m chunks device x looks after)
//   next 2(m − 1), then 2(m − 1)        phase 2: reduce-scatter, then all-gather, among device l of every node,
//                                       member k of m; part j is slot l·m + j
//   last 2(d − 1)                       phase 3: all-gather among node k's devices, parts as in phase 1
// A phase-1/3 step names m slots (a contiguous range); every other step one.
#include <memory>
#include <utility>

#include "collectives/generators.h"
#include "dsml/lazy_schedule.h"

namespace dsml::collectives {

namespace {

class HierarchicalAllReduce : public LazySchedule {
 public:
  HierarchicalAllReduce(Schedule header, int devices_per_node)
      : LazySchedule(std::move(header)), d_(devices_per_node), m_(this->header().ranks / devices_per_node) {}

  bool step(int r, std::size_t index, ScheduleStep& out) const override {
    const int k = r / d_, l = r - (r / d_) * d_;
    const std::size_t inside = 2 * static_cast<std::size_t>(d_ - 1), across = 2 * static_cast<std::size_t>(m_ - 1);
    if (index < inside) return node_step(k, l, index, true, out);
    index -= inside;
    if (index < 2 * across) {
      const bool reducing = index < across;
      const RingBlockStep s = ring_block_step(k, m_, reducing ? index : index - across, reducing);
      set_kind(s.send, reducing, out);
      out.peer = s.peer * d_ + l;
      out.slots.set_single(l * m_ + s.part);
      return true;
    }
    index -= 2 * across;
    if (index < inside) return node_step(k, l, index, false, out);
    return false;
  }

 private:
  static void set_kind(bool send, bool reducing, ScheduleStep& out) {
    out.kind = send ? ScheduleStep::Kind::kSend
                    : (reducing ? ScheduleStep::Kind::kRecvReduce : ScheduleStep::Kind::kRecvCopy);
  }

  // A step of phase 1 (`reducing`) or 3 inside node k: part x is the range of m slots starting at x·m.
  bool node_step(int k, int l, std::size_t within, bool reducing, ScheduleStep& out) const {
    const RingBlockStep s = ring_block_step(l, d_, within, reducing);
    set_kind(s.send, reducing, out);
    out.peer = k * d_ + s.peer;
    out.slots.clear();
    out.slots.reserve(static_cast<std::size_t>(m_));  // allocates once in a reused step, then never again
    for (int slot = s.part * m_; slot < (s.part + 1) * m_; ++slot) out.slots.push_back(slot);
    return true;
  }

  int d_, m_;
};

}  // namespace

std::unique_ptr<LazySchedule> lazy_allreduce_hierarchical(const Request& request, Schedule header) {
  header.slot_bytes = split_bytes(request.bytes, request.ranks);
  return std::make_unique<HierarchicalAllReduce>(std::move(header), request.devices_per_node);
}

}  // namespace dsml::collectives
