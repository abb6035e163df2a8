// main.cpp — `dsml-mpi`, the course's algorithms run by real processes over MPI: on one machine with mpirun, on
// a cluster with a hostfile, or at the scale of hundreds of hosts under SimGrid SMPI (the same program, built
// with smpicxx). Every rank runs this main; rank 0 prints one line of JSON per result on stdout.
//
//   $ mpirun -np 4 dsml-mpi collective --collective all-reduce --algorithm ring --bytes 1048576
//
// Bad input — an unknown subcommand or flag, a grid that does not fit the ranks, a size that does not divide,
// an algorithm that does not exist — prints "dsml-mpi: error: <message>" once, from rank 0, and every rank
// exits with code 2 after MPI_Finalize (world.h). A wrong result (a collective that differs from the MPI
// library's, training that differs from one device) exits 1.
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "args.h"
#include "commands.h"
#include "world.h"

namespace {

constexpr int kUsageExitCode = 2;
constexpr int kCrashExitCode = 3;

const char kUsage[] = R"(dsml-mpi — the course's collectives and training strategies over MPI.

Usage (prefix every command with mpirun -np P, or smpirun -np P -platform FILE for SimGrid SMPI):
  dsml-mpi verify [--bytes N1,N2,...] [--collective C]
      every collective algorithm of the core (or of C) at each size (default 4,4004,1048588 bytes: one element,
      an odd count, ~1 MiB), run as MPI messages and compared element by element with the MPI library's
      collective on the same data -> one line {"collective", "algorithm", "bytes", "equal"} per case
  dsml-mpi collective --collective C --algorithm A --bytes N [--root R] [--devices-per-node D]
                      [--repetitions K] [model flags]
      -> {"verified", "measured_s" (median of K, slowest rank), "library_s" (the MPI library's own collective),
          "ratio_to_library", "predicted_s" (closed form with the model), "model_error", "busbw_Bps", "model"}
  dsml-mpi sweep [--collective C] [--algorithms A1,A2,...] [--from N] [--to N] [--factor F] [--repetitions K]
                 [model flags]
      Week 2's time-vs-size table on this network: a collective line per (size, algorithm);
      defaults: all-reduce; naive,ring,recursive-doubling,rabenseifner; 1024 ... 67108864 bytes, x4; K = 5
  dsml-mpi ping-pong [--peer R] [--repeats K] [--sizes N1,N2,...]
      Week 1's ping-pong between rank 0 and R (default 1), 8 B ... 4 MiB, median of K = 20 round trips per size
      -> {"points", "alpha_s", "beta_s_per_byte", "bandwidth_Bps", "crossover_bytes", "r_squared", "gamma_s_per_byte"}
  dsml-mpi train --strategy S [--dp N --tp N --pp N] [--layers L --width D --hidden F --batch B --steps K]
                 [--micro-batches M] [--optimizer O --lr X] [--algorithm A] [--bucket-bytes N] [--seed N]
                 [--activation relu|gelu|tanh] [--no-residual] [--tolerance X]
      S: single | dp | dp-accumulate | dp-bucketed | zero1 | zero2 | zero3 | tp | fsdp-tp | pp-gpipe | pp-1f1b
      (dsml/strategy.h); any strategy composes with the other grid axes, as in the lab
      each rank holds only its shard; the result is compared with the core's single-device training
      -> {"max_param_diff", "equal_to_single_device", "loss", "reference_loss", "per_rank": [...]}
  dsml-mpi --help

Model flags: --alpha S and --beta S_PER_B (or --bandwidth B_PER_S) [--gamma S_PER_B] give the alpha-beta-gamma
model; without them alpha and beta are fitted by ping-pong (--peer, --repeats) and gamma is timed on rank 0.
Units: seconds, bytes, bytes per second.)";

dsml::mpi::Run prepare(int argc, char** argv, const dsml::mpi::World& world) {
  if (argc < 2) throw dsml::cli::UsageError("missing subcommand (see dsml-mpi --help)");
  const std::string command = argv[1];
  if (command == "verify") return dsml::mpi::prepare_verify(argc, argv, world);
  if (command == "collective") return dsml::mpi::prepare_collective(argc, argv, world);
  if (command == "sweep") return dsml::mpi::prepare_sweep(argc, argv, world);
  if (command == "ping-pong") return dsml::mpi::prepare_ping_pong(argc, argv, world);
  if (command == "train") return dsml::mpi::prepare_train(argc, argv, world);
  throw dsml::cli::UsageError("unknown subcommand '" + command + "' (see dsml-mpi --help)");
}

// Plan on every rank, agree, run. Returns the exit code every rank returns.
int run(int argc, char** argv, const dsml::mpi::World& world) {
  if (argc >= 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    if (world.rank == 0) std::printf("%s\n", kUsage);
    return 0;
  }
  dsml::mpi::Run command;
  std::string error;
  try {
    command = prepare(argc, argv, world);
  } catch (const std::exception& e) {
    error = e.what();
  }
  const dsml::mpi::Agreement agreement = dsml::mpi::agree_on_error(world, error);
  if (agreement.failed) {
    if (world.rank == 0) {
      if (agreement.rank == 0) std::fprintf(stderr, "dsml-mpi: error: %s\n", agreement.message.c_str());
      else std::fprintf(stderr, "dsml-mpi: error on rank %d: %s\n", agreement.rank, agreement.message.c_str());
    }
    return kUsageExitCode;
  }
  try {
    return command();
  } catch (const std::exception& e) {  // a failure in mid-communication: the other ranks may wait for us
    std::fprintf(stderr, "dsml-mpi: error on rank %d: %s\n", world.rank, e.what());
    std::fflush(stderr);
    MPI_Abort(world.comm, kCrashExitCode);
    return kCrashExitCode;
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int code = run(argc, argv, dsml::mpi::world_of(MPI_COMM_WORLD));
  std::fflush(stdout);
  std::fflush(stderr);
  MPI_Finalize();
  return code;
}
