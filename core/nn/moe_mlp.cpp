// moe_mlp.cpp — the MLP stack with MoE blocks (dsml/moe_mlp.h): each block's forward and backward is the dense
// block's (mlp_forward / mlp_backward with one layer) or the MoE layer's (moe_forward / moe_backward), chained.
#include "dsml/moe_mlp.h"

#include <string>
#include <utility>

#include "dsml/error.h"
#include "dsml/teacher_task.h"

namespace dsml {

namespace {

MlpConfig one_block(const MoeMlpConfig& config) {
  MlpConfig c = config.mlp;
  c.layers = 1;
  return c;
}

MlpParams as_stack(const MlpBlock& block) { return MlpParams{{block}}; }

}  // namespace

void validate(const MoeMlpConfig& c) {
  validate(c.mlp);
  if (!c.mlp.residual) throw Error("an MLP with MoE blocks must be residual (an MoE layer adds to its input)");
  if (c.moe_every < 1 || c.moe_every > c.mlp.layers)
    throw Error("moe_every must be between 1 and the number of blocks L = " + std::to_string(c.mlp.layers) +
                " (every moe_every-th block is MoE), got " + std::to_string(c.moe_every));
  validate(moe_layer_config(c));
}

bool is_moe_block(const MoeMlpConfig& c, int block) { return (block + 1) % c.moe_every == 0; }

long long routed_assignments(const MoeMlpConfig& c, int batch) {
  long long moe_blocks = 0;
  for (int l = 0; l < c.mlp.layers; ++l) moe_blocks += is_moe_block(c, l) ? 1 : 0;
  return static_cast<long long>(batch) * c.top_k * moe_blocks;
}

MoeConfig moe_layer_config(const MoeMlpConfig& c) {
  MoeConfig m;
  m.width = c.mlp.width;
  m.hidden = c.mlp.hidden;
  m.activation = c.mlp.activation;
  m.experts = c.experts;
  m.top_k = c.top_k;
  m.capacity_factor = c.capacity_factor;
  m.groups = c.groups;
  m.balance_coefficient = c.balance_coefficient;
  return m;
}

MoeMlpParams init_moe_mlp(const MoeMlpConfig& config, std::uint64_t seed) {
  validate(config);
  const MlpParams dense = init_mlp(config.mlp, seed);
  MoeMlpParams p;
  p.blocks.resize(static_cast<std::size_t>(config.mlp.layers));
  for (int l = 0; l < config.mlp.layers; ++l) {
    if (is_moe_block(config, l))
      p.blocks[l].moe = init_moe(moe_layer_config(config), seed + 1000 * static_cast<std::uint64_t>(l + 1));
    else
      p.blocks[l].dense = dense.blocks[l];
  }
  return p;
}

MoeMlpParams zeros_like(const MoeMlpConfig& config) {
  validate(config);
  const MoeConfig layer = moe_layer_config(config);
  MoeMlpParams p;
  p.blocks.resize(static_cast<std::size_t>(config.mlp.layers));
  for (int l = 0; l < config.mlp.layers; ++l) {
    if (!is_moe_block(config, l)) {
      p.blocks[l].dense = zeros_like(one_block(config)).blocks[0];
      continue;
    }
    p.blocks[l].moe.router = Eigen::MatrixXd::Zero(layer.experts, layer.width);
    p.blocks[l].moe.experts.assign(static_cast<std::size_t>(layer.experts), zeros_like(expert_config(layer)));
  }
  return p;
}

namespace {

template <typename Params, typename Tensor>
std::vector<Tensor*> tensors_of(Params& params) {
  std::vector<Tensor*> out;
  for (auto& b : params.blocks) {
    if (b.moe.experts.empty()) {
      out.push_back(&b.dense.w_in);
      out.push_back(&b.dense.w_out);
      continue;
    }
    out.push_back(&b.moe.router);
    for (auto& e : b.moe.experts) {
      out.push_back(&e.blocks[0].w_in);
      out.push_back(&e.blocks[0].w_out);
    }
  }
  return out;
}

}  // namespace

std::vector<Eigen::MatrixXd*> parameter_tensors(MoeMlpParams& p) { return tensors_of<MoeMlpParams, Eigen::MatrixXd>(p); }
std::vector<const Eigen::MatrixXd*> parameter_tensors(const MoeMlpParams& p) {
  return tensors_of<const MoeMlpParams, const Eigen::MatrixXd>(p);
}

MoeMlpForward moe_mlp_forward(const MoeMlpConfig& config, const MoeMlpParams& params, const Eigen::MatrixXd& x) {
  validate(config);
  const int L = config.mlp.layers;
  if (static_cast<int>(params.blocks.size()) != L)
    throw Error("MoE MLP params must have L = " + std::to_string(L) + " blocks, got " +
                std::to_string(params.blocks.size()));
  if (x.rows() % config.groups != 0)
    throw Error("B = " + std::to_string(x.rows()) + " rows cannot be cut into " + std::to_string(config.groups) +
                " equal token groups");
  MoeMlpForward f;
  f.dense.resize(L);
  f.moe.resize(L);
  Eigen::MatrixXd h = x;
  for (int l = 0; l < L; ++l) {
    f.inputs.push_back(h);
    if (is_moe_block(config, l)) {
      f.moe[l] = moe_forward(moe_layer_config(config), params.blocks[l].moe, h);
      h = f.moe[l].output;
    } else {
      f.dense[l] = mlp_forward(one_block(config), as_stack(params.blocks[l].dense), h);
      h = f.dense[l].output;
    }
  }
  f.output = std::move(h);
  return f;
}

MoeMlpGradients moe_mlp_backward(const MoeMlpConfig& config, const MoeMlpParams& params,
                                 const MoeMlpForward& forward, const Eigen::MatrixXd& d_output) {
  const int L = config.mlp.layers;
  if (static_cast<int>(forward.inputs.size()) != L) throw Error("moe_mlp_backward needs the forward of the same model");
  MoeMlpGradients g;
  g.params.blocks.resize(static_cast<std::size_t>(L));
  Eigen::MatrixXd dy = d_output;
  for (int l = L - 1; l >= 0; --l) {
    if (is_moe_block(config, l)) {
      MoeGradients mg =
          moe_backward(moe_layer_config(config), params.blocks[l].moe, forward.inputs[l], forward.moe[l], dy);
      g.params.blocks[l].moe.router = std::move(mg.router);
      g.params.blocks[l].moe.experts = std::move(mg.experts);
      dy = std::move(mg.d_input);
    } else {
      MlpGradients dg = mlp_backward(one_block(config), as_stack(params.blocks[l].dense), forward.dense[l], dy);
      g.params.blocks[l].dense = std::move(dg.params.blocks[0]);
      dy = std::move(dg.d_input);
    }
  }
  g.d_input = std::move(dy);
  return g;
}

MoeMlpRun train_moe_mlp(const MoeMlpConfig& config, const OptimizerConfig& optimizer_config, int batch, int steps,
                        std::uint64_t seed) {
  validate(config);
  if (batch < 1 || batch % config.groups != 0)
    throw Error("the batch B = " + std::to_string(batch) + " must be >= 1 and divisible by the " +
                std::to_string(config.groups) + " token groups");
  if (steps < 1) throw Error("steps must be >= 1, got " + std::to_string(steps));
  const TeacherTask task(config.mlp, seed);
  Optimizer optimizer(optimizer_config);
  MoeMlpRun run;
  run.assignments = routed_assignments(config, batch);
  run.params = init_moe_mlp(config, student_seed(seed));
  for (int s = 0; s < steps; ++s) {
    const Batch b = task.make_batch(static_cast<std::uint64_t>(s), batch);
    const MoeMlpForward forward = moe_mlp_forward(config, run.params, b.inputs);
    run.losses.push_back(mse_loss(forward.output, b.targets));
    double balance = 0;
    int dropped = 0;
    for (int l = 0; l < config.mlp.layers; ++l) {
      if (!is_moe_block(config, l)) continue;
      balance += forward.moe[l].routing.balance_loss;
      dropped += forward.moe[l].routing.dropped;
    }
    run.balance_losses.push_back(balance);
    run.dropped.push_back(dropped);
    const MoeMlpGradients grads =
        moe_mlp_backward(config, run.params, forward, mse_loss_gradient(forward.output, b.targets));
    optimizer.step(parameter_tensors(run.params), parameter_tensors(grads.params));
    if (s + 1 < steps) continue;
    for (int l = 0; l < config.mlp.layers; ++l) {
      if (!is_moe_block(config, l)) continue;
      const MoeRouting& r = forward.moe[l].routing;
      run.last_load.push_back({l, r.wanted, r.load, r.dropped});
    }
  }
  return run;
}

}  // namespace dsml
