// collective_case.h — one collective, one size: the course's schedule over MPI, checked element by element
// against the MPI library's own collective on the same data, then both timed.
//
// Timing: each repetition starts from the same input after an MPI_Barrier; a rank's time is MPI_Wtime around its
// part (the whole schedule for the course — its packing and reductions are part of the algorithm — the MPI call
// alone for the library), and the repetition's time is the slowest rank's. The median over repetitions is
// reported (so one descheduled run does not decide).
#pragma once

#include <string>
#include <vector>

#include "schedule_runner.h"
#include "world.h"

namespace dsml::mpi {

struct CaseResult {
  bool equal = false;
  std::string mismatch;         // rank 0: the first difference (collective_data.h), when not equal
  std::string library_call;     // "MPI_Allreduce", …
  std::vector<double> course_s;   // per repetition, the slowest rank's seconds (empty with 0 repetitions)
  std::vector<double> library_s;
};

// Collective over world.comm; every rank passes its own RankSchedule of the same schedule.
CaseResult run_case(const World& world, const RankSchedule& schedule, int repetitions);

// The schedule of (collective, algorithm) on world.size ranks, this rank's part. Throws dsml::Error (unknown
// names, bytes not a multiple of 4, …) on every rank alike.
RankSchedule rank_schedule(const World& world, const std::string& collective, const std::string& algorithm,
                           double bytes, int root, int devices_per_node);

// For "hierarchical" when the user gives none: the smallest divisor d of p with 1 < d < p (2 nodes or more of
// d devices), or 1 when p is prime.
int default_devices_per_node(int ranks);

}  // namespace dsml::mpi
