// step_plan.cpp — what the implementations in core/parallel/ do in one step, strategy by strategy, as phases:
// compute (FLOPs per rank) and collectives (n values over every group of an axis at once), each with what it
// waits for when compute and communication overlap (step_plan.h). One phase per collective call of the
// implementation, in its order, with its label.
#include "parallel/step_plan.h"

#include <cmath>
#include <string>
#include <vector>

#include "dsml/data_parallel.h"
#include "dsml/error.h"

namespace dsml::step_plan {

namespace {

// The groups of a dp × tp grid (pp = 1): dp groups are the tp columns {(d, t) : d}, tp groups the replicas.
Groups groups_along(const RankGrid& g, bool along_dp) {
  Groups groups;
  for (int outer = 0; outer < (along_dp ? g.tp : g.dp); ++outer) {
    groups.emplace_back();
    for (int inner = 0; inner < (along_dp ? g.dp : g.tp); ++inner)
      groups.back().push_back(rank_of(g, along_dp ? RankCoord{inner, outer, 0} : RankCoord{outer, inner, 0}));
  }
  return groups;
}

class Builder {
 public:
  explicit Builder(std::vector<Phase>& phases) : phases_(phases) {}

  int compute(const std::string& label, double flops, std::vector<int> after = {}) {
    phases_.push_back(Phase{"compute", label, flops, 0, Axis::dp, std::move(after), -1});
    return static_cast<int>(phases_.size()) - 1;
  }
  int collective(const std::string& kind, const std::string& label, double values, Axis axis, std::vector<int> after,
                 int issued_at = -1) {
    phases_.push_back(Phase{kind, label, 0, values, axis, std::move(after), issued_at});
    return static_cast<int>(phases_.size()) - 1;
  }

 private:
  std::vector<Phase>& phases_;
};

std::vector<int> when(int phase) { return phase < 0 ? std::vector<int>{} : std::vector<int>{phase}; }

// ZeRO-3 and FSDP+TP (zero3.cpp, fsdp_tensor_parallel.cpp): per block, gather the (slice's) parameters, compute,
// and for FSDP+TP the block's TP all-reduce; backward likewise, then reduce-scatter the block's gradient. Each
// all-gather is issued when the compute phase before its block starts: FSDP's one-block-ahead prefetch.
void plan_sharded(const StepCostConfig& c, bool tp, double fwd, double bwd, double activation, Builder& b) {
  const int L = c.model.layers;
  const double slice = 2.0 * c.model.width * c.model.hidden / c.grid.tp;  // one block's (tp slice's) values
  const std::string block = "block ";
  int previous = -1;  // the compute phase before, whose start issues the next gather
  int input = -1;     // the TP all-reduce whose result the next compute needs
  std::vector<int> scattered;  // the gradients' reduce-scatters
  for (int l = 0; l < L; ++l) {
    const std::string n = std::to_string(l);
    const int gather = b.collective("all-gather", block + n + " params forward", slice, Axis::dp, {}, previous);
    std::vector<int> needs = {gather};
    if (input >= 0) needs.push_back(input);
    previous = b.compute(block + n + " forward", fwd, needs);
    if (tp) input = b.collective("all-reduce", block + n + " g forward (Y)", activation, Axis::tp, {previous});
  }
  for (int l = L; l-- > 0;) {
    const std::string n = std::to_string(l);
    const int gather = b.collective("all-gather", block + n + " params backward", slice, Axis::dp, {}, previous);
    std::vector<int> needs = {gather};
    if (input >= 0) needs.push_back(input);
    previous = b.compute(block + n + " backward", bwd, needs);
    if (tp) input = b.collective("all-reduce", block + n + " f backward (dX)", activation, Axis::tp, {previous});
    scattered.push_back(b.collective("reduce-scatter", block + n + " grads", slice, Axis::dp, {previous}));
  }
  // LARS/LAMB: the per-tensor sums of squares of every shard (2 per tensor, 2L tensors), all-reduced over every
  // rank (zero3.cpp over dp, fsdp_tensor_parallel.cpp over dp·tp).
  if (c.layerwise_norms) b.collective("all-reduce", "trust-ratio norms", 4.0 * L, tp ? Axis::all : Axis::dp, scattered);
}

// Megatron TP (tensor_parallel.cpp): each block's g all-reduce feeds the next block, each f all-reduce the block
// below — communication on the critical path, nothing to overlap.
void plan_tensor_parallel(const StepCostConfig& c, double fwd, double bwd, double activation, Builder& b) {
  const std::string block = "block ";
  int input = -1;
  for (int l = 0; l < c.model.layers; ++l) {
    const int f = b.compute(block + std::to_string(l) + " forward", fwd, when(input));
    input = b.collective("all-reduce", block + std::to_string(l) + " g forward (Y)", activation, Axis::tp, {f});
  }
  int last = -1;
  for (int l = c.model.layers; l-- > 0;) {
    last = b.compute(block + std::to_string(l) + " backward", bwd, when(input));
    input = b.collective("all-reduce", block + std::to_string(l) + " f backward (dX)", activation, Axis::tp, {last});
  }
  // LARS/LAMB: each rank holds slices of every tensor; 2 sums of squares per tensor, all-reduced over tp.
  if (c.layerwise_norms) b.collective("all-reduce", "trust-ratio norms", 4.0 * c.model.layers, Axis::tp, {last});
}

// single, the dp family, ZeRO-1/2 (data_parallel.cpp, zero.cpp): forward, backward block by block (last first),
// then the gradients' collectives, each waiting only for the backward of the blocks it holds.
void plan_replicated(const StepCostConfig& c, double fwd, double bwd, Builder& b) {
  const Strategy s = c.strategy;
  const int L = c.model.layers;
  const int k = c.micro_batches;  // gradient accumulation: only the last micro-batch's backward can overlap
  const double block_values = 2.0 * c.model.width * c.model.hidden;
  if (k > 1)
    b.compute("micro-batches 0-" + std::to_string(k - 2) + " forward and backward", (k - 1.0) / k * L * (fwd + bwd));
  b.compute(k > 1 ? "micro-batch " + std::to_string(k - 1) + " forward" : "forward", L * fwd / k);
  std::vector<int> backward(static_cast<std::size_t>(L));
  for (int l = L; l-- > 0;)
    backward[static_cast<std::size_t>(l)] = b.compute("block " + std::to_string(l) + " backward", bwd / k);

  if (s == Strategy::dp || s == Strategy::dp_accumulate) {  // one all-reduce per tensor, last tensor first
    for (int l = L; l-- > 0;)
      for (const char* tensor : {"w_out", "w_in"})
        b.collective("all-reduce", "blocks[" + std::to_string(l) + "]." + tensor, block_values / 2, Axis::dp,
                     {backward[static_cast<std::size_t>(l)]});
    return;
  }
  if (!is_bucketed(s)) return;  // single
  const std::uint64_t psi = static_cast<std::uint64_t>(L) * static_cast<std::uint64_t>(block_values);
  const std::vector<Bucket> buckets = gradient_buckets(psi, bucket_values(c.bucket_bytes, c.element_bytes));
  std::vector<int> reduced;
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    // Ready when backward has passed the bucket's first value (the lowest block it touches finishes last).
    const auto lowest = static_cast<std::size_t>(static_cast<double>(buckets[i].begin) / block_values);
    const int ready = backward[lowest];
    const double values = static_cast<double>(buckets[i].end - buckets[i].begin);
    const std::string name = "bucket " + std::to_string(i);
    if (s == Strategy::dp_bucketed) b.collective("all-reduce", name, values, Axis::dp, {ready});
    else reduced.push_back(b.collective("reduce-scatter", name + " grads", values, Axis::dp, {ready}));
  }
  // ZeRO-1/2: after the optimizer update, which runs once every bucket's gradients are reduced (zero.cpp) — and
  // for LARS/LAMB once the shards' sums of squares (2 per tensor) are all-reduced.
  int update = reduced.empty() ? -1 : reduced.back();
  if (c.layerwise_norms && !reduced.empty())
    update = b.collective("all-reduce", "trust-ratio norms", 4.0 * L, Axis::dp, reduced);
  for (std::size_t i = 0; i < reduced.size(); ++i)
    b.collective("all-gather", "bucket " + std::to_string(i) + " params",
                 static_cast<double>(buckets[i].end - buckets[i].begin), Axis::dp, {update});
}

}  // namespace

Plan plan_step(const StepCostConfig& c) {
  const RankGrid& g = c.grid;
  Plan plan;
  plan.dp_groups = groups_along(g, true);
  plan.tp_groups = groups_along(g, false);
  plan.all_ranks.emplace_back();
  for (int r = 0; r < g.size(); ++r) plan.all_ranks.back().push_back(r);
  // Per rank and block: B/dp rows, F/tp hidden units.
  const double rows = static_cast<double>(c.batch) / g.dp;
  const double fwd = block_forward_flops(rows, c.model.width, static_cast<double>(c.model.hidden) / g.tp);
  const double bwd = 2 * fwd + (c.recompute ? fwd / 2 : 0);  // recompute x·W_inᵀ: half a forward
  const double activation = rows * c.model.width;            // (B/dp, D) values of a TP all-reduce
  Builder b(plan.phases);
  if (c.strategy == Strategy::zero3 || c.strategy == Strategy::fsdp_tp)
    plan_sharded(c, c.strategy == Strategy::fsdp_tp, fwd, bwd, activation, b);
  else if (c.strategy == Strategy::tp)
    plan_tensor_parallel(c, fwd, bwd, activation, b);
  else
    plan_replicated(c, fwd, bwd, b);
  return plan;
}

}  // namespace dsml::step_plan
