// expert_parallel.cpp — the MoE layer across R ranks (dsml/expert_parallel.h): local routing, all-to-all dispatch,
// experts on their own ranks, all-to-all combine; and the same path backwards.
#include <string>
#include <utility>

#include "dsml/error.h"
#include "dsml/expert_parallel.h"

namespace dsml {
namespace {

// The slot buffers of one rank: [destination rank][local expert i·C·D + slot·D + d], zeros where empty.
using SlotBlocks = std::vector<Buffer>;

void put_row(Buffer& block, int local_expert, int slot, int capacity, const Eigen::RowVectorXd& row) {
  const std::size_t at = (static_cast<std::size_t>(local_expert) * capacity + slot) * static_cast<std::size_t>(row.size());
  for (Eigen::Index d = 0; d < row.size(); ++d) block[at + d] = row(d);
}

Eigen::RowVectorXd get_row(const Buffer& block, int local_expert, int slot, int capacity, int width) {
  const std::size_t at = (static_cast<std::size_t>(local_expert) * capacity + slot) * static_cast<std::size_t>(width);
  Eigen::RowVectorXd row(width);
  for (int d = 0; d < width; ++d) row(d) = block[at + d];
  return row;
}

}  // namespace

ExpertParallelStep expert_parallel_step(const MoeConfig& model, const MoeParams& params, int ranks,
                                        const Eigen::MatrixXd& x, const Eigen::MatrixXd& targets) {
  validate(model);
  const int R = ranks, E = model.experts, k = model.top_k, D = model.width;
  if (R < 1 || E % R != 0)
    throw Error("expert parallelism needs the ranks R to divide the experts: E = " + std::to_string(E) +
                ", R = " + std::to_string(R));
  const auto B = static_cast<int>(x.rows());
  if (B < 1 || B % R != 0 || x.cols() != D || targets.rows() != B || targets.cols() != D)
    throw Error("inputs and targets must both be B x D = B x " + std::to_string(D) + " with B divisible by R = " +
                std::to_string(R));
  MoeConfig local = model;
  local.groups = 1;
  const int b = B / R, per_rank = E / R;
  const MlpConfig ec = expert_config(model);
  ExpertParallelStep result;

  // 1. Route on every rank.
  std::vector<MoeRouting> routing;
  for (int r = 0; r < R; ++r) routing.push_back(moe_route(local, params, x.middleRows(r * b, b)));
  // Each rank's balance loss is its own group's; the layer's is their mean (moe.h), so each rank's gradient of
  // it is 1/R of what a one-group route computes — the router gradients are then summed over ranks below.
  for (MoeRouting& r : routing) {
    r.balance_gradient /= R;
    result.balance_loss += r.balance_loss / R;
  }
  const int C = routing[0].capacity;
  result.capacity = C;
  result.all_to_all_bytes_per_rank = expert_all_to_all_bytes(model, R, C, sizeof(double)).sent;
  const std::size_t block_size = static_cast<std::size_t>(per_rank) * C * D;
  auto empty_blocks = [&] { return std::vector<SlotBlocks>(R, SlotBlocks(R, Buffer(block_size, 0.0))); };
  // Every kept assignment of rank r: token t (global row), choice j, expert e, slot.
  auto for_each_kept = [&](int r, auto&& visit) {
    for (int i = 0; i < b; ++i)
      for (int j = 0; j < k; ++j)
        if (routing[r].slot[i][j] >= 0) visit(r * b + i, i, j, routing[r].expert[i][j], routing[r].slot[i][j]);
  };

  // 2. Dispatch the tokens.
  std::vector<SlotBlocks> outgoing = empty_blocks();
  for (int r = 0; r < R; ++r)
    for_each_kept(r, [&](int t, int, int, int e, int slot) { put_row(outgoing[r][e / per_rank], e % per_rank, slot, C, x.row(t)); });
  const std::vector<SlotBlocks> arrived = all_to_all(outgoing, {"pairwise", &result.comm, "dispatch tokens"});

  // 3. Experts on their ranks: expert e = q·E/R + i sees rows [r·C, (r+1)·C) from each source rank r.
  std::vector<MlpForward> expert_forward(static_cast<std::size_t>(E));
  std::vector<SlotBlocks> returning = empty_blocks();
  for (int q = 0; q < R; ++q) {
    for (int i = 0; i < per_rank; ++i) {
      const int e = q * per_rank + i;
      Eigen::MatrixXd xe(static_cast<Eigen::Index>(R) * C, D);
      for (int r = 0; r < R; ++r)
        for (int s = 0; s < C; ++s) xe.row(r * C + s) = get_row(arrived[q][r], i, s, C, D);
      expert_forward[e] = mlp_forward(ec, params.experts[e], xe);
      for (int r = 0; r < R; ++r)
        for (int s = 0; s < C; ++s) put_row(returning[q][r], i, s, C, expert_forward[e].output.row(r * C + s));
    }
  }
  // 4. Combine: back to the tokens' ranks; y = x + Σ gate · expert output.
  const std::vector<SlotBlocks> outputs = all_to_all(returning, {"pairwise", &result.comm, "combine outputs"});
  result.output = x;
  std::vector<std::vector<Eigen::RowVectorXd>> expert_out(static_cast<std::size_t>(B), std::vector<Eigen::RowVectorXd>(k));
  for (int r = 0; r < R; ++r) {
    for_each_kept(r, [&](int t, int i, int j, int e, int slot) {
      expert_out[t][j] = get_row(outputs[r][e / per_rank], e % per_rank, slot, C, D);
      result.output.row(t) += routing[r].gate[i][j] * expert_out[t][j];
    });
  }
  result.loss = mse_loss(result.output, targets);
  const Eigen::MatrixXd dy = mse_loss_gradient(result.output, targets);  // rows 2(y − T)/(B·D), each rank its own

  // Backward. Gate gradients and expert-output gradients on the tokens' ranks, sent to the experts.
  std::vector<std::vector<std::vector<double>>> d_gate(R, std::vector<std::vector<double>>(b, std::vector<double>(k, 0.0)));
  std::vector<SlotBlocks> d_out = empty_blocks();
  for (int r = 0; r < R; ++r) {
    for_each_kept(r, [&](int t, int i, int j, int e, int slot) {
      d_gate[r][i][j] = dy.row(t).dot(expert_out[t][j]);
      put_row(d_out[r][e / per_rank], e % per_rank, slot, C, routing[r].gate[i][j] * dy.row(t));
    });
  }
  const std::vector<SlotBlocks> d_arrived = all_to_all(d_out, {"pairwise", &result.comm, "dispatch output grads"});
  std::vector<SlotBlocks> d_back = empty_blocks();
  result.grads.experts.resize(static_cast<std::size_t>(E));
  for (int q = 0; q < R; ++q) {
    for (int i = 0; i < per_rank; ++i) {
      const int e = q * per_rank + i;
      Eigen::MatrixXd de(static_cast<Eigen::Index>(R) * C, D);
      for (int r = 0; r < R; ++r)
        for (int s = 0; s < C; ++s) de.row(r * C + s) = get_row(d_arrived[q][r], i, s, C, D);
      MlpGradients g = mlp_backward(ec, params.experts[e], expert_forward[e], de);
      result.grads.experts[e] = std::move(g.params);
      for (int r = 0; r < R; ++r)
        for (int s = 0; s < C; ++s) put_row(d_back[q][r], i, s, C, g.d_input.row(r * C + s));
    }
  }
  const std::vector<SlotBlocks> d_inputs = all_to_all(d_back, {"pairwise", &result.comm, "combine input grads"});

  // Input and router gradients on each rank; the router's summed over ranks.
  result.grads.d_input = dy;  // the residual
  std::vector<Buffer> router_grads;
  for (int r = 0; r < R; ++r) {
    for_each_kept(r, [&](int t, int, int, int e, int slot) {
      result.grads.d_input.row(t) += get_row(d_inputs[r][e / per_rank], e % per_rank, slot, C, D);
    });
    const Eigen::MatrixXd d_logits = moe_router_backward(routing[r], d_gate[r]);  // (b, E)
    result.grads.d_input.middleRows(r * b, b) += d_logits * params.router;
    const Eigen::MatrixXd g = d_logits.transpose() * x.middleRows(r * b, b);     // (E, D)
    router_grads.push_back(flatten({&g}));
  }
  all_reduce(router_grads, {"ring", &result.comm, "router grads"});
  result.grads.router = Eigen::MatrixXd(E, D);
  unflatten(router_grads[0], {&result.grads.router});

  result.load.assign(E, 0);
  result.wanted.assign(E, 0);
  for (const MoeRouting& r : routing) {
    for (int e = 0; e < E; ++e) {
      result.load[e] += r.load[e];
      result.wanted[e] += r.wanted[e];
    }
    result.dropped += r.dropped;
    result.unrouted_tokens += r.unrouted_tokens;
  }
  return result;
}

}  // namespace dsml
