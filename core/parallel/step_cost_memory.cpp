// step_cost_memory.cpp — the bytes each rank holds in one training step, by the conventions of the strategy
// implementations (what their memory() / MemoryBreakdown count), at config.element_bytes per value.
//
//   params     the values the rank owns: the full model (single, dp, zero1, zero2), its shard of every block
//              (zero3: shard_sizes(2DF, dp)[d] per block), its tp slice (2DF/tp per block), its stage's blocks,
//              or its shard of its slice (fsdp-tp: shard_sizes(2DF/tp, dp)[d] per block)
//   grads      the same, except zero1 keeps the full all-reduced gradient and zero2 only its shard of Ψ
//   optimizer  optimizer_states × the values the rank updates (zero1/zero2: its shard of Ψ)
//   activations per block the rank runs, what mlp_forward keeps: x (rows, D) and H (rows, F/tp); with
//              recomputation x only (mlp_block_activation_values); pipelines × the micro-batches the stage
//              holds at its peak (GPipe m, 1F1B min(P − s, m))
// The strategies that do not report activations (DataParallel, Zero: RankMemory) still get them here.
#include <algorithm>
#include <string>
#include <vector>

#include "dsml/comm.h"
#include "dsml/pipeline_schedule.h"
#include "dsml/step_cost.h"

namespace dsml {

std::vector<MemoryBreakdown> step_memory(const StepCostConfig& c) {
  validate(c);
  const RankGrid& g = c.grid;
  const double e = c.element_bytes;
  const double L = c.model.layers, D = c.model.width, F = c.model.hidden;
  const std::size_t block_values = 2 * static_cast<std::size_t>(c.model.width) * static_cast<std::size_t>(c.model.hidden);
  const std::size_t psi = static_cast<std::size_t>(c.model.layers) * block_values;
  const std::string& s = c.strategy;
  const bool pipeline = s == "pp-gpipe" || s == "pp-1f1b";

  // Activation values one rank keeps per block per micro-batch: rows × (D + hidden), or rows × D.
  const double rows = static_cast<double>(c.batch) / g.dp / (pipeline ? c.micro_batches : 1);
  const double hidden = F / g.tp;
  const double per_block = mlp_block_activation_values(rows, D, hidden, !c.recompute);
  std::vector<int> in_flight(static_cast<std::size_t>(g.pp), 1);
  if (pipeline) {
    const PipelineSchedule schedule = s == "pp-gpipe" ? gpipe(g.pp, c.micro_batches)
                                                      : one_f_one_b(g.pp, c.micro_batches);
    in_flight = peak_in_flight_activations(schedule);
  }

  std::vector<MemoryBreakdown> out;
  for (int r = 0; r < g.size(); ++r) {
    const RankCoord at = coord(g, r);
    double params = 0, grads = 0, updated = 0;  // values
    const double blocks = L / g.pp;
    if (s == "zero1" || s == "zero2") {
      const double shard = static_cast<double>(shard_sizes(psi, g.dp)[static_cast<std::size_t>(at.d)]);
      params = static_cast<double>(psi);
      grads = s == "zero1" ? static_cast<double>(psi) : shard;
      updated = shard;
    } else if (s == "zero3" || s == "fsdp-tp") {
      const std::size_t unit = block_values / static_cast<std::size_t>(g.tp);  // a block (zero3) or its slice
      params = L * static_cast<double>(shard_sizes(unit, g.dp)[static_cast<std::size_t>(at.d)]);
      grads = updated = params;
    } else {  // single, dp, dp-bucketed: the full model; tp: a slice; pipelines: a stage
      params = grads = updated = blocks * 2.0 * D * F / g.tp;
    }
    MemoryBreakdown m;
    m.params = e * params;
    m.grads = e * grads;
    m.optimizer = e * c.optimizer_states * updated;
    m.activations = e * blocks * per_block * in_flight[static_cast<std::size_t>(at.p)];
    m.total = m.params + m.grads + m.optimizer + m.activations;
    out.push_back(m);
  }
  return out;
}

}  // namespace dsml
