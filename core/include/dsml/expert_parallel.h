// dsml/expert_parallel.h — the MoE layer of dsml/moe.h run across R expert-parallel ranks (GShard, Lepikhin et
// al. 2020; Switch Transformer, Fedus et al. 2021), equal to the single-device layer with groups = R.
//
//   rank r holds tokens [r·B/R, (r+1)·B/R) (its group), a replica of the router, and experts
//   [r·E/R, (r+1)·E/R) (E divisible by R, B by R)
//   1. route locally (capacity C per expert for this rank's tokens)
//   2. dispatch: all-to-all of fixed-size buffers — rank r sends rank q, for each of q's experts, C slots of D
//      values (the tokens it routed there, zero rows where a slot is empty): (E/R)·C·D doubles per pair
//   3. each expert runs on its R·C rows (act(0) = 0, so empty slots come out zero)
//   4. combine: the all-to-all back; rank r adds gate × expert output to each token's residual
//   backward: the gradients of the expert outputs go out by all-to-all, expert backward, input gradients come
//   back by all-to-all; router gradients are summed over ranks with an all-reduce (the router is replicated)
// Per step 4 all-to-alls (2 forward, 2 backward), each moving (R − 1)·(E/R)·C·D·8 bytes out of every rank, and one
// all-reduce of E·D router gradients — logged in the CommLog through dsml/comm.h.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "dsml/comm.h"
#include "dsml/moe.h"
#include "dsml/topology.h"

namespace dsml {

struct ExpertParallelStep {
  Eigen::MatrixXd output;     // (B, D), gathered from the ranks (for comparison; nothing logged)
  double loss = 0;            // MSE over the global batch
  double balance_loss = 0;    // the load-balancing loss (moe.h), mean over the ranks' groups; 0 when α = 0
  MoeGradients grads;         // router: all-reduced; experts: from their ranks; d_input: (B, D)
  std::vector<int> load;      // per expert: tokens kept (all ranks)
  std::vector<int> wanted;    // per expert: tokens routed to it before the capacity cut
  int dropped = 0;            // assignments dropped
  int unrouted_tokens = 0;    // tokens all of whose choices were dropped
  int capacity = 0;           // C per (rank, expert)
  double all_to_all_bytes_per_rank = 0;  // what leaves each rank in one of the 4 all-to-alls (expert_all_to_all_bytes)
  CommLog comm;
};

// The bytes of one expert-parallel all-to-all on R ranks, capacity C: every rank holds E·C·D elements of
// `element_bytes` (its own (E/R)·C·D block included — the n that make_schedule's all-to-all takes, `total`), and
// sends the (R − 1)·(E/R)·C·D of them that belong to other ranks (`sent`). One convention for the step's report and
// the price below.
struct ExpertAllToAllBytes {
  double total = 0;  // E·C·D·element_bytes
  double sent = 0;   // (R − 1)·(E/R)·C·D·element_bytes
};
ExpertAllToAllBytes expert_all_to_all_bytes(const MoeConfig& config, int ranks, int capacity, double element_bytes);

// One forward and backward of the MoE layer on (x, targets) with loss = mse_loss(y, targets) across `ranks` ranks.
// config.groups is ignored (it is `ranks`). Throws dsml::Error unless ranks ≥ 1 divides E and B.
ExpertParallelStep expert_parallel_step(const MoeConfig& config, const MoeParams& params, int ranks,
                                        const Eigen::MatrixXd& x, const Eigen::MatrixXd& targets);

// What one all-to-all of expert parallelism costs: every rank sends n = E·C·D·element_bytes (its own block of
// (E/R)·C·D included), C = ⌈capacity_factor·k·tokens_per_rank/E⌉.
struct AllToAllPrice {
  int capacity = 0;
  double bytes_per_rank = 0;   // n
  double closed_form_s = 0;    // pairwise (R − 1)α + ((R − 1)/R)nβ with `link`
  double simulated_s = 0;      // the pairwise schedule simulated on `topology`
};
// Throws dsml::Error on a bad config, tokens_per_rank < 1, element_bytes ≤ 0, or R = topology.ranks() not
// dividing E.
AllToAllPrice price_expert_all_to_all(const MoeConfig& config, int tokens_per_rank, double element_bytes,
                                      const CostModel& link, const Topology& topology);
// The element size a token's activations travel at when a request names none: bf16, as MoE training sends them.
constexpr double kExpertTokenElementBytes = 2;

}  // namespace dsml

namespace dsml {

// The R-rank run beside the single-device layer (groups = R) on one teacher-task batch (TeacherTask with width D,
// seed; parameters init_moe(config, student_seed(seed))): the expert-parallel step and how far it is from the reference.
struct ExpertParallelCheck {
  ExpertParallelStep step;
  double output_relative_difference = 0;    // ‖y_EP − y‖_F / ‖y‖_F
  double gradient_relative_difference = 0;  // max over router, experts' tensors and d_input
};
// Throws as expert_parallel_step, and unless batch ≥ 1.
ExpertParallelCheck check_expert_parallel(const MoeConfig& config, int ranks, int batch, std::uint64_t seed);

}  // namespace dsml
