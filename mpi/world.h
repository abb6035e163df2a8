// world.h — the MPI job as the rest of dsml-mpi sees it: this process's rank, the number of ranks, and the two
// things every command needs besides messages — agreeing that the input was bad, and medians of timings.
//
// Errors. A learner's mistake (a grid that needs 8 ranks on 4, a batch that does not split, an algorithm that
// does not exist) must print ONE clear line and end EVERY rank with a non-zero exit code — never one rank
// aborting while the others wait for it forever. So every command first builds its plan without sending a
// message (each rank parses the same arguments and so throws the same dsml::Error), then all ranks agree:
//   agree_on_error   each rank offers its error ("" if none); the lowest failing rank's message goes to rank 0
// and every rank learns that the job failed. main() prints it on rank 0 and every rank returns 2 after
// MPI_Finalize. Only an unexpected failure in the middle of communication uses MPI_Abort.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace dsml::mpi {

struct World {
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0;
  int size = 1;
};

World world_of(MPI_Comm comm);

struct Agreement {
  bool failed = false;
  int rank = -1;        // the lowest rank that failed
  std::string message;  // its message; filled on rank 0 only
};

// Collective over world.comm: every rank must call it, with its own error text ("" when it has none).
Agreement agree_on_error(const World& world, const std::string& local_error);

// The MPI library's name and version, up to the first comma or line end ("Open MPI v4.1.4").
std::string library_version();

// Seconds a phase took on the slowest rank: the max over ranks of `seconds`, on every rank.
double slowest(const World& world, double seconds);

// Every rank's `text` (resp. `values`), indexed by rank, on rank 0; empty elsewhere. Collective.
std::vector<std::string> gather_to_root(const World& world, const std::string& text);
std::vector<std::vector<double>> gather_to_root(const World& world, const std::vector<double>& values);

// The median of a non-empty list (the mean of the two middle values for an even count).
double median(std::vector<double> values);

}  // namespace dsml::mpi
