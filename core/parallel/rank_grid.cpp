// rank_grid.cpp — rank ↔ (d, t, p) on a dp × tp × pp grid, tensor-parallel index fastest (see rank_grid.h).
#include "dsml/rank_grid.h"

#include <string>

#include "dsml/error.h"

namespace dsml {

void validate(const RankGrid& grid) {
  if (grid.dp < 1 || grid.tp < 1 || grid.pp < 1)
    throw Error("rank grid sizes must all be >= 1, got dp = " + std::to_string(grid.dp) +
                ", tp = " + std::to_string(grid.tp) + ", pp = " + std::to_string(grid.pp));
}

RankCoord coord(const RankGrid& grid, int rank) {
  validate(grid);
  if (rank < 0 || rank >= grid.size())
    throw Error("rank must be in [0, " + std::to_string(grid.size()) + "), got " + std::to_string(rank));
  RankCoord c;
  c.t = rank % grid.tp;
  c.d = (rank / grid.tp) % grid.dp;
  c.p = rank / (grid.tp * grid.dp);
  return c;
}

int rank_of(const RankGrid& grid, RankCoord c) {
  validate(grid);
  if (c.d < 0 || c.d >= grid.dp || c.t < 0 || c.t >= grid.tp || c.p < 0 || c.p >= grid.pp)
    throw Error("coordinate (d = " + std::to_string(c.d) + ", t = " + std::to_string(c.t) + ", p = " +
                std::to_string(c.p) + ") is outside the grid dp = " + std::to_string(grid.dp) + ", tp = " +
                std::to_string(grid.tp) + ", pp = " + std::to_string(grid.pp));
  return (c.p * grid.dp + c.d) * grid.tp + c.t;
}

}  // namespace dsml
