// rank_gradient_sync.cpp — the data-parallel axis of one rank's step: from its local gradient (the sum over its
// micro-batches of the gradient of the mean loss over its rows) to the update of what it holds.
//
// The gradient of the global mean loss is the MEAN over the dp replicas of their gradients (equal row counts),
// and each strategy computes it differently (Li et al. 2020; Rajbhandari et al. 2020):
//   naive      one all-reduce per tensor (2·L/pp messages of different sizes), ÷ dp, the whole optimizer step
//   bucketed   the tensors flattened, cut into buckets of ⌊bucket_bytes / 8⌋ values, one all-reduce per bucket
//   zero1      all-reduce the flat gradient, ÷ dp; update ONLY shard d (its optimizer state is all this rank
//              keeps); all-gather the updated shards back into the replica
//   zero2      reduce-scatter instead: this rank receives only shard d of the sum — the gradient it updates with
//   zero3      the shards were reduce-scattered block by block during backward (rank_trainer.cpp): ÷ dp, update
// The shard updates use update_shard (dsml/zero.h): the optimizer's own per-tensor functions on a column of
// values, exact for the elementwise optimizers (SGD, momentum, Adam).
#include <algorithm>

#include "dsml/error.h"
#include "rank_trainer.h"

namespace dsml::mpi {

namespace {

void divide(double* values, std::size_t n, int parts) {
  for (std::size_t e = 0; e < n; ++e) values[e] /= parts;
}

}  // namespace

void RankTrainer::sync_and_update(int step) {
  const int dp = dp_->size();
  const int d = dp_->rank();
  const double lr = warmup_lr(plan_.optimizer.lr, step, plan_.optimizer.warmup_steps);
  const std::int64_t t = step + 1;  // 1-based, for Adam's bias correction
  switch (plan_.sync) {
    case DpSync::naive:
      for (Eigen::MatrixXd* g : parameter_tensors(grads_)) {
        dp_->all_reduce(g->data(), static_cast<std::size_t>(g->size()));
        divide(g->data(), static_cast<std::size_t>(g->size()), dp);
      }
      clock_.time("compute", [&] { optimizer_->step(model_.slices, grads_); });
      return;
    case DpSync::bucketed: {
      Buffer flat = flatten(grads_);
      const auto bucket = std::max<std::size_t>(1, static_cast<std::size_t>(plan_.bucket_bytes / 8));
      for (std::size_t at = 0; at < flat.size(); at += bucket)
        dp_->all_reduce(flat.data() + at, std::min(bucket, flat.size() - at));
      divide(flat.data(), flat.size(), dp);
      unflatten(flat, grads_);
      clock_.time("compute", [&] { optimizer_->step(model_.slices, grads_); });
      return;
    }
    case DpSync::zero1:
    case DpSync::zero2: {
      Buffer grads = flatten(grads_);
      Buffer grad_shard;
      if (plan_.sync == DpSync::zero1) {
        dp_->all_reduce(grads.data(), grads.size());
        grad_shard = shard_of(grads, dp, d);
      } else {
        grad_shard = dp_->reduce_scatter(grads);
      }
      divide(grad_shard.data(), grad_shard.size(), dp);
      const Buffer params = flatten(model_.slices);
      Buffer param_shard = shard_of(params, dp, d);
      moments_.resize(1);
      clock_.time("compute", [&] { update_shard(plan_.optimizer, lr, t, param_shard, grad_shard, moments_[0]); });
      unflatten(dp_->all_gather(param_shard, params.size()), model_.slices);
      return;
    }
    case DpSync::zero3:
      moments_.resize(model_.shards.size());
      for (std::size_t j = 0; j < model_.shards.size(); ++j) {
        divide(grad_shards_[j].data(), grad_shards_[j].size(), dp);
        clock_.time("compute", [&] { update_shard(plan_.optimizer, lr, t, model_.shards[j], grad_shards_[j], moments_[j]); });
      }
      return;
  }
}

HeldBytes RankTrainer::held() const {
  const OptimizerKind k = plan_.optimizer.kind;
  const double states = k == OptimizerKind::sgd ? 0 : (k == OptimizerKind::adam || k == OptimizerKind::lamb ? 2 : 1);
  const auto held = static_cast<double>(model_.flat().size());   // the slices, or the shards
  const double shard = static_cast<double>(
      shard_sizes(model_.unit * static_cast<std::size_t>(model_.blocks), dp_->size())[static_cast<std::size_t>(dp_->rank())]);
  constexpr double kBytes = 8;
  switch (plan_.sync) {
    case DpSync::naive:
    case DpSync::bucketed: return {kBytes * held, kBytes * held, kBytes * states * held};
    case DpSync::zero1: return {kBytes * held, kBytes * held, kBytes * states * shard};
    case DpSync::zero2: return {kBytes * held, kBytes * shard, kBytes * states * shard};
    case DpSync::zero3: return {kBytes * held, kBytes * held, kBytes * states * held};
  }
  return {};
}

}  // namespace dsml::mpi
