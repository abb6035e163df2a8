// ping_pong.h — the course's ping-pong (Week 1, the "w1-ping-pong" exercise and the page's widget), on MPI:
// α and β of THIS cluster, fitted by least squares (dsml/fit.h) to the median one-way times.
//
//   rank 0: t0 = MPI_Wtime(); MPI_Send(n bytes → peer); MPI_Recv(n bytes ← peer); one way = (MPI_Wtime() − t0)/2
//   peer:   MPI_Recv(n bytes ← 0); MPI_Send(the same n bytes → 0)
// per size: one warm-up round trip, then `repeats` timed ones; their median is the point (n, t). The sizes are
// the widget's ladder, 8 B … 4 MB. Ranks other than 0 and the peer take no part.
//
// γ (seconds per byte reduced) is measured the same way on one rank: the median time of adding two float32
// buffers of 4 MiB, divided by their 4 MiB — the reduction a recv-reduce step performs.
#pragma once

#include <vector>

#include "dsml/cost_model.h"
#include "dsml/fit.h"
#include "world.h"

namespace dsml::mpi {

struct PingPongPoint {
  double bytes = 0;
  double seconds = 0;  // median one-way time
};

struct PingPong {
  int peer = 1;
  std::vector<PingPongPoint> points;  // on rank 0 (empty elsewhere)
  AlphaBetaFit fit;                   // on every rank (broadcast from rank 0)
};

// The widget's sizes: 8 B, 64 B, 512 B, 4 KiB, 32 KiB, 256 KiB, 1 MiB, 4 MiB.
std::vector<double> ping_pong_sizes();

// Collective over world.comm (every rank calls it); needs at least 2 ranks and 1 ≤ peer < size.
PingPong ping_pong(const World& world, int peer, const std::vector<double>& sizes, int repeats);

// γ in seconds per byte, measured on rank 0 and broadcast; 0 when the clock does not advance (SMPI with
// simulated computation off).
double measure_gamma(const World& world);

// The model the collectives are predicted with: α, β from the fit (α clamped at 0: least squares over sizes
// spanning six decades can put the intercept slightly below zero), γ as given.
CostModel fitted_model(const AlphaBetaFit& fit, double gamma);

}  // namespace dsml::mpi
