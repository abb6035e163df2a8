// dsml/moe_mlp.h — the course's MLP stack with mixture-of-experts blocks: the model the lab trains when it has an
// expert-parallel axis. Chosen blocks are the MoE layer of dsml/moe.h (E experts, each a block of width D and
// hidden F, a router, top-k gating, a capacity per token group); the others are the usual residual MLP blocks.
//
//   block l is MoE when (l + 1) mod moe_every = 0 (moe_every = 2: blocks 1, 3, …, as GShard and Switch
//   Transformer put an MoE layer in every other transformer block), dense otherwise
//   x_{l+1} = x_l + act(x_l·W_inᵀ)·W_outᵀ  (dense)      x_{l+1} = moe_l(x_l)  (MoE: its own residual)
// Token groups. The capacity cut is per group of B/G consecutive rows in every MoE block — the groups a parallel
// run routes separately. The lab cuts the global batch into dp shards of m micro-batches, shard d's micro-batch mb
// being rows [(d·m + mb)·B/(dp·m), …): G = dp·m reproduces exactly what its ranks route.
// Single-device training (train_moe_mlp) is trainSingle's (dsml/single_device.h) with this model: the same
// teacher TeacherTask(mlp, seed) (a dense MLP: the student need not represent it exactly), the student from
// init_moe_mlp(config, student_seed(seed)), batch s = make_batch(s, B), MSE loss plus every MoE block's load-balancing loss
// (α = balance_coefficient; none at 0), the whole model in one Optimizer.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "dsml/mlp.h"
#include "dsml/moe.h"
#include "dsml/optimizer.h"

namespace dsml {

struct MoeMlpConfig {
  MlpConfig mlp;                  // L, D, F, activation; residual must be true (an MoE layer is residual)
  int experts = 4;                // E per MoE block
  int top_k = 1;                  // 1 or 2
  double capacity_factor = 1.25;
  int moe_every = 2;              // every moe_every-th block is MoE
  int groups = 1;                 // G token groups for the capacity cut
  double balance_coefficient = 0; // α of every MoE block's load-balancing loss (moe.h; Switch: 0.01)
};

// Throws dsml::Error naming the problem: a bad MLP, residual off, moe_every < 1 or > L (no MoE block), or a bad MoE
// layer (validate(MoeConfig)).
void validate(const MoeMlpConfig& config);
bool is_moe_block(const MoeMlpConfig& config, int block);
// Token-to-expert assignments one step routes: batch · k per MoE block (what the dropped counts are out of).
long long routed_assignments(const MoeMlpConfig& config, int batch);
// The MoE layer of every MoE block: D, F, the activation, E, k, the capacity factor, G.
MoeConfig moe_layer_config(const MoeMlpConfig& config);

// Block l's weights: `dense` for a dense block, `moe` for an MoE block (the other left empty).
struct MoeMlpBlock {
  MlpBlock dense;
  MoeParams moe;
};
struct MoeMlpParams {
  std::vector<MoeMlpBlock> blocks;
};

// Dense block l = init_mlp(mlp, seed).blocks[l] (so the dense blocks start as the dense model's); MoE block l =
// init_moe(layer, seed + 1000·(l + 1)) — its router and experts from seeds no other block uses (E ≤ 256).
MoeMlpParams init_moe_mlp(const MoeMlpConfig& config, std::uint64_t seed);
MoeMlpParams zeros_like(const MoeMlpConfig& config);

// The tensors in a fixed order, block by block: dense W_in, W_out; MoE router (E × D), then expert 0's W_in,
// W_out, expert 1's, … — what the optimizer walks over and the bindings hand to JavaScript.
std::vector<Eigen::MatrixXd*> parameter_tensors(MoeMlpParams& params);
std::vector<const Eigen::MatrixXd*> parameter_tensors(const MoeMlpParams& params);

struct MoeMlpForward {
  Eigen::MatrixXd output;               // (B, D)
  std::vector<Eigen::MatrixXd> inputs;  // x_l per block
  std::vector<MlpForward> dense;        // per block (empty at MoE blocks)
  std::vector<MoeForward> moe;          // per block (empty at dense blocks); routing holds load and drops
};
// Throws dsml::Error on a bad config, x not (B, D), B not divisible by G, or params not matching config.
MoeMlpForward moe_mlp_forward(const MoeMlpConfig& config, const MoeMlpParams& params, const Eigen::MatrixXd& x);

struct MoeMlpGradients {
  Eigen::MatrixXd d_input;  // (B, D)
  MoeMlpParams params;      // same shapes as the parameters
};
MoeMlpGradients moe_mlp_backward(const MoeMlpConfig& config, const MoeMlpParams& params,
                                 const MoeMlpForward& forward, const Eigen::MatrixXd& d_output);

// What one MoE block's router did in a step: assignments wanted and kept per expert, and dropped.
struct MoeBlockLoad {
  int block = 0;
  std::vector<int> wanted;
  std::vector<int> kept;
  int dropped = 0;
};

struct MoeMlpRun {
  std::vector<double> losses;          // per step, before its update: the MSE (the balance loss apart)
  std::vector<double> balance_losses;  // per step: Σ over MoE blocks of their load-balancing loss (0 when α = 0)
  std::vector<int> dropped;            // per step: assignments dropped, summed over MoE blocks
  long long assignments = 0;           // per step: assignments routed, what `dropped` is out of (routed_assignments)
  MoeMlpParams params;                 // after the last step
  std::vector<MoeBlockLoad> last_load; // per MoE block, in the last step
};
// `steps` steps of single-device training as described above. Throws dsml::Error on a bad config, optimizer,
// batch < 1 or not divisible by G, or steps < 1; DivergedError (error.h) if a gradient is not finite.
MoeMlpRun train_moe_mlp(const MoeMlpConfig& config, const OptimizerConfig& optimizer, int batch, int steps,
                        std::uint64_t seed);

}  // namespace dsml
