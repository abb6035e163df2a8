// dsml/rank_grid.h — the dp × tp × pp grid of simulated ranks, as a value.
//
// Every parallel strategy takes the grid as an argument; nothing global says "how many ranks there are", so
// several grids (a DP run beside a TP run) can live in one wasm instance. Ranks are numbered with the
// tensor-parallel index fastest, then data-parallel, then pipeline stage (Megatron-LM's order: TP peers sit next
// to each other, on the same node, because they talk every layer):
//   rank = (p·dp + d)·tp + t        d ∈ [0, dp), t ∈ [0, tp), p ∈ [0, pp)
#pragma once

namespace dsml {

struct RankGrid {
  int dp = 1;  // data-parallel replicas (or ZeRO/FSDP shards)
  int tp = 1;  // tensor-parallel ranks per layer
  int pp = 1;  // pipeline stages
  int size() const { return dp * tp * pp; }
};

struct RankCoord {
  int d = 0;  // data-parallel index
  int t = 0;  // tensor-parallel index
  int p = 0;  // pipeline stage
};

// Throws dsml::Error unless dp, tp and pp are all >= 1.
void validate(const RankGrid& grid);

// rank → (d, t, p); throws Error if rank is outside [0, grid.size()).
RankCoord coord(const RankGrid& grid, int rank);
// (d, t, p) → rank; throws Error if a coordinate is out of range.
int rank_of(const RankGrid& grid, RankCoord c);

}  // namespace dsml
