// rank_model.cpp — see rank_model.h.
#include "rank_model.h"

#include <algorithm>
#include <cmath>

#include "dsml/error.h"
#include "dsml/pipeline_parallel.h"
#include "dsml/tensor_parallel.h"

namespace dsml::mpi {

Buffer RankModel::flat() const {
  if (shards.empty()) return flatten(slices);
  Buffer all;
  for (const Buffer& s : shards) all.insert(all.end(), s.begin(), s.end());
  return all;
}

Buffer flatten_block(const Eigen::MatrixXd& w_in, const Eigen::MatrixXd& w_out) { return flatten({&w_in, &w_out}); }

MlpBlock unflatten_block(const Buffer& flat, int hidden, int width) {
  MlpBlock block{Eigen::MatrixXd(hidden, width), Eigen::MatrixXd(width, hidden)};
  unflatten(flat, {&block.w_in, &block.w_out});
  return block;
}

RankModel rank_model(const TrainPlan& plan, const MlpParams& full, RankCoord coord) {
  const RankGrid& g = plan.grid;
  RankModel m;
  m.blocks = plan.model.layers / g.pp;
  m.hidden = plan.model.hidden / g.tp;
  m.width = plan.model.width;
  m.unit = 2 * static_cast<std::size_t>(m.width) * static_cast<std::size_t>(m.hidden);
  const MlpParams stage = split_pipeline_stages(full, g.pp)[static_cast<std::size_t>(coord.p)];
  m.slices = split_tensor_parallel(stage, g.tp)[static_cast<std::size_t>(coord.t)];
  if (plan.sharded()) {
    for (const MlpBlock& b : m.slices.blocks) m.shards.push_back(shard_of(flatten_block(b.w_in, b.w_out), g.dp, coord.d));
    m.slices.blocks.clear();
  }
  return m;
}

MlpParams assemble_model(const TrainPlan& plan, const std::vector<Buffer>& flat_by_rank, double& replica_gap) {
  const RankGrid& g = plan.grid;
  const int blocks = plan.model.layers / g.pp;
  const int hidden = plan.model.hidden / g.tp;
  const int width = plan.model.width;
  const std::size_t unit = 2 * static_cast<std::size_t>(width) * static_cast<std::size_t>(hidden);
  const auto of = [&](int d, int t, int p) -> const Buffer& {
    return flat_by_rank[static_cast<std::size_t>(rank_of(g, RankCoord{d, t, p}))];
  };
  replica_gap = 0;
  std::vector<MlpParams> stages;
  for (int p = 0; p < g.pp; ++p) {
    std::vector<MlpParams> slices(static_cast<std::size_t>(g.tp));
    for (int t = 0; t < g.tp; ++t) {
      for (int j = 0; j < blocks; ++j) {
        Buffer flat;  // block j's slice t, flattened
        if (plan.sharded()) {
          for (int d = 0; d < g.dp; ++d) {
            const Buffer& mine = of(d, t, p);
            const std::size_t size = shard_sizes(unit, g.dp)[static_cast<std::size_t>(d)];
            const auto at = static_cast<std::ptrdiff_t>(static_cast<std::size_t>(j) * size);  // blocks' shards in a row
            flat.insert(flat.end(), mine.begin() + at, mine.begin() + at + static_cast<std::ptrdiff_t>(size));
          }
        } else {
          const auto at = static_cast<std::ptrdiff_t>(static_cast<std::size_t>(j) * unit);
          flat.assign(of(0, t, p).begin() + at, of(0, t, p).begin() + at + static_cast<std::ptrdiff_t>(unit));
          for (int d = 1; d < g.dp; ++d)
            for (std::size_t e = 0; e < unit; ++e)
              replica_gap = std::max(replica_gap, std::abs(of(d, t, p)[static_cast<std::size_t>(at) + e] - flat[e]));
        }
        slices[static_cast<std::size_t>(t)].blocks.push_back(unflatten_block(flat, hidden, width));
      }
    }
    stages.push_back(gather_tensor_parallel(slices));
  }
  return gather_pipeline_stages(stages);
}

}  // namespace dsml::mpi
