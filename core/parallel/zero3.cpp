// zero3.cpp — ZeRO stage 3 / FSDP: the parameters themselves are sharded; a block exists whole only while it is
// being used (Rajbhandari et al. 2020 §5.3; Zhao et al., "PyTorch FSDP", VLDB 2023).
//
// Rank d holds, per block l, shard d of the block's flattened (w_in, w_out): about 2DF/N values. A step:
//   forward,  l = 0 … L−1:  all-gather block l → run it on the rank's rows → free the gathered weights
//   backward, l = L−1 … 0:  all-gather block l again (it was freed) → backward through it → reduce-scatter
//                           its gradient (rank d keeps shard d of the mean) → free weights and full gradient
//   update:   each rank updates its parameter shards with its gradient shards — no gather afterwards
// Per rank and step: 2 all-gathers + 1 reduce-scatter of Ψ = 3(N−1)/N·Ψ values, 1.5× DP's all-reduce, for
// parameters, gradients and optimizer state all divided by N. Running a one-block MLP per block is the same
// arithmetic as the stacked forward/backward (mlp.cpp loops over the same blocks), so results match exactly.
#include <string>

#include "dsml/zero.h"
#include "parallel/local_gradient.h"

namespace dsml {

namespace {

// The gathered flat (w_in, w_out) of one block as a one-block MlpParams. Lives only inside one loop iteration.
MlpParams materialise_block(const MlpConfig& block_config, const Buffer& flat) {
  MlpParams block = zeros_like(block_config);
  unflatten(flat, {&block.blocks[0].w_in, &block.blocks[0].w_out});
  return block;
}

}  // namespace

ParallelStep Zero::step_sharded(const Batch& global_batch) {
  const int N = grid_.dp;
  const auto n = static_cast<std::size_t>(N);
  const std::size_t L = units_.size();
  MlpConfig block_config = config_;
  block_config.layers = 1;
  ParallelStep out;

  std::vector<Batch> rows(n);
  std::vector<Eigen::MatrixXd> x(n);  // (B/N, D) each rank's activations between blocks
  for (int d = 0; d < N; ++d) {
    rows[static_cast<std::size_t>(d)] = batch_shard(global_batch, N, d);
    x[static_cast<std::size_t>(d)] = rows[static_cast<std::size_t>(d)].inputs;
  }
  auto shards_of_block = [&](std::size_t l) {
    std::vector<Buffer> shards(n);
    for (std::size_t d = 0; d < n; ++d) shards[d] = param_shards_[d][l];
    return shards;
  };

  // Forward, block by block: gather, compute, free. The activations (what backward needs) stay per rank.
  std::vector<std::vector<MlpForward>> saved(n, std::vector<MlpForward>(L));
  for (std::size_t l = 0; l < L; ++l) {
    const std::vector<Buffer> full = zero_gather_params(shards_of_block(l), options_.algorithm, &out.comm,
                                                        "block " + std::to_string(l) + " params (forward)");
    for (std::size_t d = 0; d < n; ++d) {
      saved[d][l] = mlp_forward(block_config, materialise_block(block_config, full[d]), x[d]);
      x[d] = saved[d][l].output;
    }
  }  // `full` goes out of scope each iteration: the block's weights are freed

  std::vector<double> activations(n, 0.0);  // what each rank keeps for backward: every block's x and H
  for (std::size_t d = 0; d < n; ++d)
    for (const MlpForward& kept : saved[d]) activations[d] += parallel::kept_bytes(kept);

  std::vector<Eigen::MatrixXd> dy(n);  // (B/N, D) ∂loss/∂(block output) per rank
  for (std::size_t d = 0; d < n; ++d) {
    out.loss += mse_loss(x[d], rows[d].targets) / N;
    dy[d] = mse_loss_gradient(x[d], rows[d].targets);
  }

  // Backward, last block first: re-gather, backward, reduce-scatter the block's gradient, free.
  for (std::size_t l = L; l-- > 0;) {
    const std::vector<Buffer> full = zero_gather_params(shards_of_block(l), options_.algorithm, &out.comm,
                                                        "block " + std::to_string(l) + " params (backward)");
    std::vector<Buffer> block_grads(n);  // (2DF) per rank, transient
    for (std::size_t d = 0; d < n; ++d) {
      const MlpGradients g = mlp_backward(block_config, materialise_block(block_config, full[d]), saved[d][l], dy[d]);
      dy[d] = g.d_input;
      block_grads[d] = flatten({&g.params.blocks[0].w_in, &g.params.blocks[0].w_out});
      saved[d][l] = MlpForward{};  // this block's activations are no longer needed
    }
    std::vector<Buffer> mine = zero_reduce_scatter_gradients(block_grads, options_.algorithm, &out.comm,
                                                             "block " + std::to_string(l) + " grads");
    for (std::size_t d = 0; d < n; ++d) grad_shards_[d][l] = std::move(mine[d]);
  }

  // Update: shard by shard, nothing to gather — the next forward gathers what it needs.
  update_all(param_shards_, grad_shards_, &out.comm);
  for (std::size_t d = 0; d < n; ++d) out.memory.push_back(memory(static_cast<int>(d), activations[d]));
  return out;
}

}  // namespace dsml
