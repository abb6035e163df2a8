// dsml/step_cost.h — what ONE training step of the MLP costs under each parallel strategy: a per-rank
// timeline of compute and communication, the time broken down by kind, and the memory each rank holds.
//
// The model mirrors the strategy implementations in core/parallel/ call for call: every collective a strategy
// logs in its CommLog, in the same order, over the same groups, with the same number of elements.
//   single        —
//   dp            naive DDP: after backward, one all-reduce per parameter tensor (2L of D·F values), over dp, last
//   dp-accumulate tensor first; dp-accumulate (and dp with micro_batches = k) computes k micro-batches first
//   dp-bucketed   the Ψ = 2·L·D·F gradients cut into DDP's buckets (gradient_buckets: ⌊bucket_bytes /
//                 element_bytes⌋ values, from the last parameter backwards), one all-reduce per bucket
//   zero1, zero2  per bucket (the same buckets): reduce-scatter grads; after the update, per bucket: all-gather
//                 params — the bytes and the α terms of dp-bucketed exactly (ZeRO §7.2.1), so DP and ZeRO-1/2 are
//                 priced alike: both bucketed (zero.h)
//   zero3         per block, forward: all-gather(2DF) then compute; backward, last block first:
//                 all-gather(2DF), compute, reduce-scatter(2DF)
//   tp            per block: forward compute then all-reduce of (B, D) (Megatron's g); backward compute then
//                 all-reduce of (B, D) (f's backward), over tp ranks                    (tensor_parallel.h)
//   fsdp-tp       zero3 over dp per tp column (slices of 2DF/tp values) around tp blocks of (B/dp, D)
//   pp-gpipe      stage s holds L/pp blocks; per micro-batch an activation (B/m, D) forward and a gradient
//   pp-1f1b       (B/m, D) back per stage boundary; time = time_pipeline_schedule(gpipe | one_f_one_b)
//
// FLOPs (matrix products only; activations, residual adds, the loss and the optimizer update are ignored):
// a (B, D)·(D, F) product is 2·B·D·F FLOPs. A block's forward makes two, x·W_inᵀ and act(H)·W_outᵀ:
// 4·B·D·F. Backward makes four (dA, dW_out, dW_in, dx): 2× forward. Recomputation (checkpointing at block
// boundaries, as mlp_forward(keep_activations = false)) redoes x·W_inᵀ in backward: + 2·B·D·F per block.
// A rank's share: B/dp rows, F/tp hidden units, L/pp blocks, B/m rows per micro-batch.
//
// Time. A collective lasts
//   closed form (CostModel): closed_form_time of the collective on its group (collective_cost.h), or
//   simulated (Topology): the makespan of all groups' schedules run together on the network — so TP groups
//   that share a link slow each other down (dsml::simulate).
// Without overlap (overlap = false) a step is a sequence of phases, every rank waiting for each to finish
// (bulk-synchronous): total = compute + Σ collectives. With overlap, each rank has a compute stream and a
// communication stream: a collective is issued when its data is ready — a bucket's gradients when backward has
// passed its first parameter, an FSDP all-gather one block ahead (a prefetch, issued when the block before
// starts computing) — and collectives run one at a time in the order issued, beside compute; a compute phase
// waits only for the collectives whose results it needs (a gathered block, a TP all-reduce). total is then the
// end of the last phase on either stream, and comm_s still counts every collective's full duration (total −
// compute_s − bubble_s is the part compute did not hide).
// Pipelines are timed by time_pipeline_schedule with t_f, t_b per stage per micro-batch and p2p_s = the time
// of one (B/m, D) message (on a topology: the slowest neighbouring-stage route). Its sends are eager — they
// cost the sender nothing and arrive p2p_s later, already beside compute — so overlap changes no pipeline time;
// it adds each send to the timeline on the sending stage's comm stream. The breakdown is: bubble_s =
// makespan(p2p = 0) − compute_s, comm_s["send"] = makespan(p2p) − makespan(0).
//
// Memory per rank, the conventions of the implementations (element_bytes, 4 = fp32 by default; the course's
// implementations hold 8-byte doubles): params, grads and optimizer_states (2 = Adam's m and v) × the values
// the rank owns (full, a tp slice, a stage, or shard_sizes' shard of each bucket or block), and activations =
// what mlp_forward keeps for backward, per block x (B, D) and H (B, F) for the rank's rows and hidden units (only
// x with recomputation), for one micro-batch (dp family: B/(dp·k) rows) or × the micro-batches a pipeline stage
// holds at its peak (peak_in_flight_activations). Nothing is allocated in proportion to the model, so real model
// sizes (billions of parameters) are priced directly.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "dsml/comm.h"
#include "dsml/cost_model.h"
#include "dsml/memory_accountant.h"
#include "dsml/mlp.h"
#include "dsml/rank_grid.h"
#include "dsml/strategy.h"
#include "dsml/topology.h"

namespace dsml {

struct StepCostConfig {
  MlpConfig model;             // L, D, F (activation and residual do not change the FLOP count)
  int batch = 8;               // B, global batch rows
  RankGrid grid;               // must fit the strategy (check_grid)
  Strategy strategy = Strategy::single;
  int micro_batches = 1;       // m: pipelines; k: gradient accumulation for the dp family. Others need 1.
  double flops_per_s = 1e12;   // one device's sustained speed, FLOP/s
  double element_bytes = 4;    // fp32; 8 to compare with the fp64 implementations
  int optimizer_states = 2;    // values of optimizer state per parameter: 0 SGD, 1 momentum, 2 Adam
  bool recompute = false;      // checkpoint at block boundaries: keep x only, recompute H in backward
  bool overlap = false;        // compute and communication streams (see above); false: one after the other
  bool layerwise_norms = false;  // LARS/LAMB: strategies that split tensors (ZeRO, TP, FSDP+TP) all-reduce 2 sums of
                                 // squares per tensor before the update ("trust-ratio norms"); replicated DP needs none
  std::string algorithm = "ring";            // make_schedule's algorithm for every collective
  double bucket_bytes = 25.0 * 1024 * 1024;  // dp-bucketed, zero1, zero2: > 0
};

// One stretch of one rank's timeline. Seconds from the start of the step.
struct StepSpan {
  int rank = 0;
  std::string kind;   // "compute", "all-reduce", "all-gather", "reduce-scatter"; pipelines: "forward",
                      // "backward", "send"
  std::string label;  // "block 1 forward", "blocks[0].w_in", "bucket 0", "micro-batch 3"
  double start = 0;
  double end = 0;
  std::string stream = "compute";  // "compute" or "comm": the stream it runs on (see overlap above)
};

struct StepCost {
  std::vector<StepSpan> spans;         // by phase, then rank (pipelines: by stage, in execution order)
  double compute_s = 0;                // per rank (every rank computes the same amount)
  std::map<std::string, double> comm_s;  // by kind: "all-reduce", "all-gather", "reduce-scatter", "send" —
                                         // the collectives' full durations, hidden behind compute or not
  double bubble_s = 0;                 // pipelines: idle time of a stage; 0 otherwise
  double total_s = 0;                  // without overlap: compute_s + Σ comm_s + bubble_s; with: ≤ that
  CommLog comm;                        // every collective or send the step issues, one record per group call,
                                       // bytes_per_rank in element_bytes (the CommLog convention of comm.h)
  std::vector<MemoryBreakdown> memory;  // per rank, bytes
};

// FLOPs of one block's forward on `rows` rows and `hidden` hidden units: 4·rows·D·hidden.
double block_forward_flops(double rows, double width, double hidden);

// Closed-form communication on the switch of `model` (γ = model.gamma). Throws dsml::Error on a grid that does
// not fit the strategy (e.g. tp ≠ 1 for dp), B not divisible by dp·m, F not divisible by tp, L not divisible by
// pp, micro-batches for a strategy that takes none, or a non-positive speed, element size or bucket size.
StepCost step_cost(const StepCostConfig& config, const CostModel& model);

// Simulated communication on `topology` (ranks() == grid.size()), reductions at γ = gamma s per byte.
StepCost step_cost(const StepCostConfig& config, const Topology& topology, double gamma = 0);

// The checks step_cost makes, on their own (throws dsml::Error naming the first problem).
void validate(const StepCostConfig& config);

// Memory per rank alone (step_cost_memory.cpp); the same checks.
std::vector<MemoryBreakdown> step_memory(const StepCostConfig& config);

}  // namespace dsml
