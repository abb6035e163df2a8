// dsml/collective_executor.h — running a Schedule on real buffers, and checking it computes its collective.
//
// The correctness executor of "one algorithm, many executors": no clocks, just data. Every rank keeps one
// buffer per slot; a send copies the listed slots into a message; the matching receive (FIFO per source and
// destination, as in the simulator) copies or adds it into its own slots. Sends never block, so the only way a
// rank gets stuck is a receive whose message never comes: then the executor names the wait-for cycle, the same
// way dsml::simulate reports a deadlock.
//
// verify() seeds every rank with distinct integer-valued data — rank q's value at element g of the collective's
// data is (q + 1) + (p + 1)·g, so a sum that misses or double-counts a rank's contribution is off by exactly
// that rank's value and the message can name it:
//   "rank 3 slot 2: expected 1088, got 1084 (rank 3's contribution is missing)"
#pragma once

#include <string>
#include <vector>

#include "dsml/schedule.h"

namespace dsml {

struct SlotBuffer {
  bool held = false;           // the rank has this slot's data (its own at the start, or received)
  std::vector<double> values;  // one per element, sized to the slot; NaN while not held
};
using RankBuffers = std::vector<SlotBuffer>;  // [slot]
using Buffers = std::vector<RankBuffers>;     // [rank][slot]

// Elements in a slot of `bytes` bytes: ⌈bytes / element_bytes⌉. The ceiling, not the nearest whole number: a
// schedule a learner writes may give a slot any byte count, and a slot holding part of an element still needs
// that element's storage (rounding 6 bytes of float32 down to 1 element would drop data). The course's generators
// split whole elements (chunking.cpp), where the ceiling is exact; comm.h's executors use this one too.
long long slot_elements(double bytes, int element_bytes);

// What each rank holds before the collective (schedule.h lists it per collective), filled with verify()'s data:
// rank q, element g (counted across the slots in order) → (q + 1) + (p + 1)·g. Slots a rank does not hold yet
// are NaN. Throws dsml::Error if element_bytes < 1, or if the buffers would exceed 2^27 values in total.
Buffers initial_buffers(const Schedule& schedule, int element_bytes = 4);

// Runs the schedule on `buffers` (one RankBuffers per rank, each slot's values sized to the slot) and returns
// them. Throws dsml::Error naming the rank and step when a step sends a slot its rank does not hold, adds into
// one it does not hold, or receives a message of the wrong shape, and when a message is never received;
// dsml::DeadlockError with the wait-for cycle when ranks wait for messages that never come.
Buffers execute_on_buffers(const Schedule& schedule, Buffers buffers);
Buffers execute_on_buffers(const Schedule& schedule, int element_bytes = 4);  // on initial_buffers()

struct VerifyResult {
  bool ok = false;
  std::string message;  // on failure, the first wrong rank and slot, or the execution error; on success a summary
};

// Executes the schedule on initial_buffers() and compares every rank's slots with what the collective promises.
// Never throws on a wrong schedule: the problem is in the message.
VerifyResult verify(const Schedule& schedule, int element_bytes = 4);

}  // namespace dsml
