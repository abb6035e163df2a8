// library_collective.h — the MPI library's own collective on the same data and slot layout as a schedule:
// what the course's algorithm is checked against, element by element, and raced against.
//
//   broadcast → MPI_Bcast   reduce → MPI_Reduce   all-reduce → MPI_Allreduce   all-gather → MPI_Allgatherv
//   reduce-scatter → MPI_Reduce_scatter   all-to-all → MPI_Alltoallv
// The library does not know about slots: a rank's owned slots are packed into the contiguous block the MPI call
// expects (in owner order for the v-variants) and unpacked afterwards. Only the MPI call itself is timed.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "schedule_runner.h"

namespace dsml::mpi {

class LibraryCollective {
 public:
  explicit LibraryCollective(const RankSchedule& schedule);

  // `input` is this rank's buffer before the collective (slot layout); `output` receives the result in slot
  // layout (the promised slots; others are left as in `input`). Returns the seconds the MPI call took here.
  double run(const std::vector<float>& input, std::vector<float>& output, MPI_Comm comm) const;

  const std::string& call() const { return call_; }  // "MPI_Allreduce", …

 private:
  const RankSchedule& schedule_;
  std::string call_;
  std::vector<int> counts_;      // per rank: elements it contributes (all-gather) or receives (reduce-scatter)
  std::vector<int> displs_;
  std::vector<std::vector<int>> slots_of_;  // per rank: its owned slots in slot order (all-gather, reduce-scatter)
};

}  // namespace dsml::mpi
