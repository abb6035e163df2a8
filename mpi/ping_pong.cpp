// ping_pong.cpp — see ping_pong.h.
#include "ping_pong.h"

#include <mpi.h>

#include <algorithm>
#include <string>

#include "dsml/error.h"

namespace dsml::mpi {

std::vector<double> ping_pong_sizes() { return {8, 64, 512, 4096, 32768, 262144, 1048576, 4194304}; }

PingPong ping_pong(const World& world, int peer, const std::vector<double>& sizes, int repeats) {
  if (world.size < 2) throw Error("ping-pong needs at least 2 ranks, got " + std::to_string(world.size));
  if (peer < 1 || peer >= world.size)
    throw Error("the ping-pong peer must be a rank in [1, " + std::to_string(world.size) + "), got " +
                std::to_string(peer));
  if (repeats < 1) throw Error("repeats must be >= 1, got " + std::to_string(repeats));
  constexpr int kTag = 3;
  PingPong result;
  result.peer = peer;
  std::vector<double> bytes;
  std::vector<double> seconds;
  for (double size : sizes) {
    const auto n = static_cast<int>(size);
    std::vector<char> payload(static_cast<std::size_t>(n), 1);
    std::vector<double> one_way;
    for (int i = 0; i <= repeats; ++i) {  // i = 0 warms up (connections, pinned pages), untimed
      if (world.rank == 0) {
        const double t0 = MPI_Wtime();
        MPI_Send(payload.data(), n, MPI_CHAR, peer, kTag, world.comm);
        MPI_Recv(payload.data(), n, MPI_CHAR, peer, kTag, world.comm, MPI_STATUS_IGNORE);
        if (i > 0) one_way.push_back((MPI_Wtime() - t0) / 2);
      } else if (world.rank == peer) {
        MPI_Recv(payload.data(), n, MPI_CHAR, 0, kTag, world.comm, MPI_STATUS_IGNORE);
        MPI_Send(payload.data(), n, MPI_CHAR, 0, kTag, world.comm);
      }
    }
    if (world.rank == 0) {
      result.points.push_back({size, median(one_way)});
      bytes.push_back(size);
      seconds.push_back(result.points.back().seconds);
    }
  }
  double fit[3] = {0, 0, 0};
  if (world.rank == 0) {
    result.fit = fit_alpha_beta(bytes, seconds);
    fit[0] = result.fit.alpha;
    fit[1] = result.fit.beta;
    fit[2] = result.fit.r_squared;
  }
  MPI_Bcast(fit, 3, MPI_DOUBLE, 0, world.comm);
  result.fit.alpha = fit[0];
  result.fit.beta = fit[1];
  result.fit.r_squared = fit[2];
  result.fit.points = sizes.size();
  return result;
}

double measure_gamma(const World& world) {
  double gamma = 0;
  if (world.rank == 0) {
    constexpr std::size_t kElements = 1 << 20;  // 4 MiB of float32
    std::vector<float> sum(kElements, 1.0f);
    const std::vector<float> add(kElements, 2.0f);
    std::vector<double> times;
    for (int i = 0; i < 7; ++i) {
      const double t0 = MPI_Wtime();
      for (std::size_t e = 0; e < kElements; ++e) sum[e] += add[e];
      times.push_back(MPI_Wtime() - t0);
    }
    volatile float keep = sum[kElements / 2];  // the additions must happen
    (void)keep;
    gamma = median(times) / (4.0 * kElements);
  }
  MPI_Bcast(&gamma, 1, MPI_DOUBLE, 0, world.comm);
  return gamma;
}

CostModel fitted_model(const AlphaBetaFit& fit, double gamma) {
  if (!(fit.beta > 0))
    throw Error("the ping-pong fit gave beta = " + format_number(fit.beta) +
                " s/B (it must be > 0): the times did not grow with the size; try more --repeats");
  return CostModel{std::max(fit.alpha, 0.0), fit.beta, std::max(gamma, 0.0)};
}

}  // namespace dsml::mpi
