// collective_case.cpp — see collective_case.h.
#include "collective_case.h"

#include <mpi.h>

#include "collective_data.h"
#include "library_collective.h"

namespace dsml::mpi {

CaseResult run_case(const World& world, const RankSchedule& schedule, int repetitions) {
  const std::vector<float> input = initial_data(schedule);
  const LibraryCollective library(schedule);
  CaseResult result;
  result.library_call = library.call();

  std::vector<float> course = input;
  schedule.run(course.data(), world.comm);
  std::vector<float> reference;
  library.run(input, reference, world.comm);
  const Agreement agreement = agree_on_error(world, compare_with_library(schedule, course, reference, library.call()));
  result.equal = !agreement.failed;
  result.mismatch = agreement.message;

  for (int i = 0; i < repetitions; ++i) {
    course = input;
    MPI_Barrier(world.comm);
    const double t0 = MPI_Wtime();
    schedule.run(course.data(), world.comm);
    result.course_s.push_back(slowest(world, MPI_Wtime() - t0));
  }
  for (int i = 0; i < repetitions; ++i) {
    MPI_Barrier(world.comm);
    result.library_s.push_back(slowest(world, library.run(input, reference, world.comm)));
  }
  return result;
}

RankSchedule rank_schedule(const World& world, const std::string& collective, const std::string& algorithm,
                           double bytes, int root, int devices_per_node) {
  return RankSchedule(make_schedule(collective, algorithm, world.size, bytes, root, devices_per_node), world.rank);
}

int default_devices_per_node(int ranks) {
  for (int d = 2; d < ranks; ++d)
    if (ranks % d == 0) return d;
  return 1;
}

}  // namespace dsml::mpi
