// rank_trainer.cpp — forward and backward of one rank through the pipeline schedule (see rank_trainer.h).
#include "rank_trainer.h"

#include <mpi.h>

#include <cmath>
#include <list>
#include <map>

#include "dsml/block_kernels.h"
#include "dsml/error.h"
#include "dsml/pipeline_parallel.h"

namespace dsml::mpi {

namespace {

// Pipeline messages on the world communicator: micro-batch i's activation and its gradient.
int activation_tag(int micro_batch) { return 1000 + 2 * micro_batch; }
int grad_tag(int micro_batch) { return 1001 + 2 * micro_batch; }

}  // namespace

RankTrainer::RankTrainer(const TrainPlan& plan, const World& world)
    : plan_(plan),
      world_(world),
      coord_(dsml::coord(plan.grid, world.rank)),
      task_(plan.model, plan.seed),
      schedule_(pipeline_schedule_by_name(plan.schedule, plan.grid.pp, plan.micro_batches)) {
  const RankGrid& g = plan.grid;
  // dp group: same (t, p), ordered by d; tp group: same (d, p), ordered by t.
  dp_ = std::make_unique<RankGroup>(world.comm, coord_.p * g.tp + coord_.t, coord_.d, "dp", plan.algorithm, clock_);
  tp_ = std::make_unique<RankGroup>(world.comm, coord_.p * g.dp + coord_.d, coord_.t, "tp", plan.algorithm, clock_);
  model_ = rank_model(plan, init_student(plan.model, plan.seed), coord_);
  if (plan.sync == DpSync::naive || plan.sync == DpSync::bucketed) optimizer_.emplace(plan.optimizer);
}

const MlpBlock& RankTrainer::weights(int block, MlpBlock& gathered) {
  if (!plan_.sharded()) return model_.slices.blocks[static_cast<std::size_t>(block)];
  // FSDP: the whole slice for this one use, from every dp rank's shard; dropped by the caller afterwards.
  gathered = unflatten_block(dp_->all_gather(model_.shards[static_cast<std::size_t>(block)], model_.unit),
                             model_.hidden, model_.width);
  return gathered;
}

Eigen::MatrixXd RankTrainer::forward_block(int block, const Eigen::MatrixXd& x, BlockStash& stash) {
  MlpBlock gathered;
  const MlpBlock& w = weights(block, gathered);
  const Activation act = plan_.model.activation;
  Eigen::MatrixXd y = clock_.time("compute", [&] {
    stash.x = x;
    stash.h = pre_activation<double>(x, w.w_in);                          // (b, F/tp), no communication (f)
    return Eigen::MatrixXd(block_out_forward<double>(activate<double>(act, stash.h), w.w_out));  // (b, D) partial
  });
  tp_->all_reduce(y.data(), static_cast<std::size_t>(y.size()));         // g: Y = Σ_t Y_t
  if (plan_.model.residual) y += x;
  return y;
}

Eigen::MatrixXd RankTrainer::backward_block(int block, const Eigen::MatrixXd& dy, const BlockStash& stash) {
  MlpBlock gathered;
  const MlpBlock& w = weights(block, gathered);
  const Activation act = plan_.model.activation;
  BlockOutGradients<double> out;
  BlockInGradients<double> in;
  clock_.time("compute", [&] {
    out = block_out_backward<double>(dy, activate<double>(act, stash.h), w.w_out);  // dW_out (D, F/tp), dA
    in = block_in_backward<double>(act, out.d_a, stash.h, stash.x, w.w_in);       // dW_in (F/tp, D), dx partial
  });
  tp_->all_reduce(in.d_x.data(), static_cast<std::size_t>(in.d_x.size()));      // f's backward: dx = Σ_t dx_t
  if (plan_.model.residual) in.d_x += dy;
  accumulate(block, in.d_w_in, out.d_w_out);
  return in.d_x;
}

void RankTrainer::accumulate(int block, const Eigen::MatrixXd& d_w_in, const Eigen::MatrixXd& d_w_out) {
  const auto j = static_cast<std::size_t>(block);
  if (!plan_.sharded()) {
    grads_.blocks[j].w_in += d_w_in;
    grads_.blocks[j].w_out += d_w_out;
    return;
  }
  // FSDP keeps only its shard of the sum over dp (the mean is taken once, before the update).
  const Buffer part = dp_->reduce_scatter(flatten_block(d_w_in, d_w_out));
  for (std::size_t e = 0; e < part.size(); ++e) grad_shards_[j][e] += part[e];
}

Eigen::MatrixXd RankTrainer::receive(int from_stage, int tag) {
  Eigen::MatrixXd m(plan_.rows(), plan_.model.width);
  const int from = rank_of(plan_.grid, RankCoord{coord_.d, coord_.t, from_stage});
  clock_.time("recv:pp", [&] {
    MPI_Recv(m.data(), static_cast<int>(m.size()), MPI_DOUBLE, from, tag, world_.comm, MPI_STATUS_IGNORE);
  });
  return m;
}

double RankTrainer::step(int step) {
  const int m = plan_.micro_batches;
  const int b = plan_.rows();
  const int p = coord_.p;
  const bool first = p == 0;
  const bool last = p == plan_.grid.pp - 1;
  if (plan_.sharded()) {
    grad_shards_.assign(model_.shards.size(), Buffer());
    for (std::size_t j = 0; j < model_.shards.size(); ++j) grad_shards_[j].assign(model_.shards[j].size(), 0.0);
  } else {
    grads_ = model_.slices;
    for (MlpBlock& g : grads_.blocks) {
      g.w_in.setZero();
      g.w_out.setZero();
    }
  }
  Batch batch;
  if (first || last) batch = clock_.time("data", [&] { return task_.make_batch(static_cast<std::uint64_t>(step), plan_.batch); });
  const auto rows = [&](const Eigen::MatrixXd& all, int i) -> Eigen::MatrixXd {
    return all.middleRows((coord_.d * m + i) * b, b);
  };

  std::map<int, Eigen::MatrixXd> inbox;   // activations received (forward) or gradients received (backward)
  std::map<int, Eigen::MatrixXd> outbox;  // this stage's output (forward) or input gradient (backward)
  std::map<int, std::vector<BlockStash>> stashes;
  std::list<Eigen::MatrixXd> in_flight;   // messages sent and not yet known to be delivered
  std::vector<MPI_Request> sends;
  const auto send = [&](int i, int to_stage, int tag) {
    in_flight.push_back(std::move(outbox[i]));
    outbox.erase(i);
    sends.emplace_back();
    const int to = rank_of(plan_.grid, RankCoord{coord_.d, coord_.t, to_stage});
    MPI_Isend(in_flight.back().data(), static_cast<int>(in_flight.back().size()), MPI_DOUBLE, to, tag, world_.comm,
              &sends.back());
  };

  double loss = 0;
  for (const PipelineOp& op : schedule_.ops[static_cast<std::size_t>(p)]) {
    const int i = op.micro_batch;
    switch (op.kind) {
      case PipelineOp::Kind::kRecvActivation: inbox[i] = receive(p - 1, activation_tag(i)); break;
      case PipelineOp::Kind::kForward: {
        Eigen::MatrixXd x = first ? rows(batch.inputs, i) : std::move(inbox[i]);
        inbox.erase(i);
        std::vector<BlockStash>& stash = stashes[i];
        stash.resize(static_cast<std::size_t>(model_.blocks));
        for (int j = 0; j < model_.blocks; ++j) x = forward_block(j, x, stash[static_cast<std::size_t>(j)]);
        if (last) {
          clock_.time("compute", [&] {
            const Eigen::MatrixXd target = rows(batch.targets, i);
            loss += mse_loss(x, target) / m;
            outbox[i] = mse_loss_gradient(x, target) / m;  // kept as this micro-batch's dY until its backward
          });
        } else {
          outbox[i] = std::move(x);
        }
        break;
      }
      case PipelineOp::Kind::kSendActivation: send(i, p + 1, activation_tag(i)); break;
      case PipelineOp::Kind::kRecvGrad: inbox[i] = receive(p + 1, grad_tag(i)); break;
      case PipelineOp::Kind::kBackward: {
        Eigen::MatrixXd dy = last ? std::move(outbox[i]) : std::move(inbox[i]);
        outbox.erase(i);
        inbox.erase(i);
        const std::vector<BlockStash>& stash = stashes[i];
        for (int j = model_.blocks - 1; j >= 0; --j) dy = backward_block(j, dy, stash[static_cast<std::size_t>(j)]);
        stashes.erase(i);  // its activations are freed
        if (!first) outbox[i] = std::move(dy);
        break;
      }
      case PipelineOp::Kind::kSendGrad: send(i, p - 1, grad_tag(i)); break;
    }
  }
  if (!sends.empty())
    clock_.time("send:pp", [&] { MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE); });
  sync_and_update(step);
  return last ? loss : std::nan("");
}

}  // namespace dsml::mpi
