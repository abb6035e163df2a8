// schedule_runner.h — the fourth executor of "one algorithm, many executors" (DESIGN.md): a collective schedule
// (dsml/schedule.h) run by real processes, each rank walking ITS list of steps with MPI point-to-point messages.
//
// A rank's data is one contiguous buffer, slot s at [offset[s], offset[s + 1]) (SlotLayout), so the same
// schedule works on float32 elements (the collective benchmarks) and on doubles (the training strategies: the
// schedules count 4-byte elements, so they are built for 4·n bytes, one schedule element = one double).
//
// How the steps become MPI calls, in order:
//   send         pack the listed slots' current contents into a fresh message, MPI_Isend it — packed at once,
//                because the schedule's sends are eager: the message is what the slots held AT THIS STEP, even if
//                a later receive overwrites them while the message is still on its way;
//   recv-copy    MPI_Irecv into a message buffer; copied into its slots when the receives are completed;
//   recv-reduce  the same, then added into its slots element by element (the reduction the γ term prices).
// Posted receives are completed (MPI_Waitall) and applied in step order only when a later send needs one of the
// slots they write, and at the end — so consecutive steps overlap as the schedule allows (a ring step's send and
// receive are in flight together). The schedule's FIFO matching per (source, destination) is MPI's own
// non-overtaking rule for one communicator and tag. The whole schedule never deadlocks if it does not deadlock
// with eager sends (the buffer executor and the simulator check that): MPI_Isend never waits for the receiver.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "dsml/schedule.h"

namespace dsml::mpi {

// Where every slot of a schedule lives in one buffer of elements (4-byte elements of the schedule's bytes).
struct SlotLayout {
  std::vector<std::size_t> offset;  // slots + 1 entries: slot s is [offset[s], offset[s + 1])
  std::size_t slots() const { return offset.size() - 1; }
  std::size_t elements(std::size_t slot) const { return offset[slot + 1] - offset[slot]; }
  std::size_t total() const { return offset.back(); }
};

SlotLayout slot_layout(const Schedule& schedule);

// One rank's part of a schedule: the header (collective, ranks, root, slot sizes, owners) and this rank's steps
// only — a 256-rank ring all-reduce has 130 560 steps, every rank needs 510 of them.
class RankSchedule {
 public:
  RankSchedule(Schedule schedule, int rank);

  // Runs this rank's steps on `data` (layout().total() elements) over `comm`, whose size must be the
  // schedule's rank count and in which this process is `rank`. Every rank of comm must call it.
  template <typename T>
  void run(T* data, MPI_Comm comm) const;

  const Schedule& header() const { return header_; }  // steps cleared
  const SlotLayout& layout() const { return layout_; }
  const std::vector<ScheduleStep>& steps() const { return steps_; }
  int rank() const { return rank_; }

 private:
  Schedule header_;
  SlotLayout layout_;
  std::vector<ScheduleStep> steps_;
  int rank_;
};

extern template void RankSchedule::run<float>(float*, MPI_Comm) const;
extern template void RankSchedule::run<double>(double*, MPI_Comm) const;

}  // namespace dsml::mpi
