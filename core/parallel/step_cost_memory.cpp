// step_cost_memory.cpp — the bytes each rank holds in one training step, by the conventions of the strategy
// implementations (what their ParallelStep::memory counts), at config.element_bytes per value.
//
//   params     the values the rank owns: the full model (single, the dp family, zero1, zero2), its shard of every
//              block (zero3: shard_sizes(2DF, dp)[d] per block), its tp slice (2DF/tp per block), its stage's
//              blocks, or its shard of its slice (fsdp-tp: shard_sizes(2DF/tp, dp)[d] per block)
//   grads      the same, except zero1 keeps the whole gradient buffer and zero2 only its shard of every bucket
//   optimizer  optimizer_states × the values the rank updates (zero1/zero2: its shard of every bucket)
//   activations per block the rank runs, what mlp_forward keeps: x (rows, D) and H (rows, F/tp); with
//              recomputation x only (mlp_block_activation_values); rows = B/(dp·k) for the dp family (one
//              micro-batch alive at a time); pipelines × the micro-batches the stage holds at its peak (GPipe m,
//              1F1B min(P − s, m))
// Counts are 64-bit integers or doubles, never buffers: a model of 10¹¹ parameters costs nothing to price.
#include <cstdint>
#include <vector>

#include "dsml/data_parallel.h"
#include "dsml/pipeline_schedule.h"
#include "dsml/step_cost.h"

namespace dsml {

namespace {

// shard_sizes(n, parts)[index] without building the vector: the first n mod parts shards one larger.
double shard_size(std::uint64_t n, int parts, int index) {
  const auto p = static_cast<std::uint64_t>(parts);
  return static_cast<double>(n / p + (static_cast<std::uint64_t>(index) < n % p ? 1 : 0));
}

}  // namespace

std::vector<MemoryBreakdown> step_memory(const StepCostConfig& c) {
  validate(c);
  const RankGrid& g = c.grid;
  const Strategy s = c.strategy;
  const double e = c.element_bytes;
  const double L = c.model.layers, D = c.model.width, F = c.model.hidden;
  const std::uint64_t block_values =
      2 * static_cast<std::uint64_t>(c.model.width) * static_cast<std::uint64_t>(c.model.hidden);
  const std::uint64_t psi = static_cast<std::uint64_t>(c.model.layers) * block_values;

  // Activation values one rank keeps per block per micro-batch: rows × (D + hidden), or rows × D.
  const double rows = static_cast<double>(c.batch) / g.dp / c.micro_batches;
  const double per_block = mlp_block_activation_values(rows, D, F / g.tp, !c.recompute);
  std::vector<int> in_flight(static_cast<std::size_t>(g.pp), 1);
  if (is_pipeline(s))
    in_flight = peak_in_flight_activations(s == Strategy::pp_gpipe ? gpipe(g.pp, c.micro_batches)
                                                                    : one_f_one_b(g.pp, c.micro_batches));
  std::vector<Bucket> buckets;  // zero1, zero2: rank d owns shard d of every bucket
  if (zero_stage(s) == 1 || zero_stage(s) == 2) buckets = gradient_buckets(psi, bucket_values(c.bucket_bytes, e));

  std::vector<MemoryBreakdown> out;
  for (int r = 0; r < g.size(); ++r) {
    const RankCoord at = coord(g, r);
    double params = 0, grads = 0, updated = 0;  // values
    const double blocks = L / g.pp;
    if (!buckets.empty()) {
      double shard = 0;
      for (const Bucket& b : buckets) shard += shard_size(b.end - b.begin, g.dp, at.d);
      params = static_cast<double>(psi);
      grads = s == Strategy::zero1 ? static_cast<double>(psi) : shard;
      updated = shard;
    } else if (s == Strategy::zero3 || s == Strategy::fsdp_tp) {
      const std::uint64_t unit = block_values / static_cast<std::uint64_t>(g.tp);  // a block (zero3) or its slice
      params = grads = updated = L * shard_size(unit, g.dp, at.d);
    } else {  // single, the dp family: the full model; tp: a slice; pipelines: a stage
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
