// rank_gradient_sync.cpp — the data-parallel axis of one rank's step: from its local gradient (the sum over its
// micro-batches of the gradient of the mean loss over its rows) to the update of what it holds.
//
// The gradient of the global mean loss is the MEAN over the dp replicas of their gradients (equal row counts),
// and each strategy computes it differently (Li et al. 2020; Rajbhandari et al. 2020), as the core's in-process
// strategies do (dsml/data_parallel.h, dsml/zero.h):
//   naive      one all-reduce per tensor, last tensor first (the order backward finishes them), ÷ dp, the whole
//              optimizer step
//   bucketed   the tensors flattened and cut into DDP's buckets (gradient_buckets: ⌊bucket_bytes / 8⌋ values,
//              filled from the last value backwards), one all-reduce per bucket
//   zero1/2    per bucket: reduce-scatter (this rank receives only shard d of the sum), ÷ dp, update ONLY that
//              shard (its optimizer state is all the rank keeps), all-gather the updated shards — DP's bytes, with
//              the update in between; stage 1 keeps the whole gradient buffer backward wrote, stage 2 its shard
//   zero3      the shards were reduce-scattered block by block during backward (rank_trainer.cpp): ÷ dp, update
// The shard updates use update_shard (dsml/zero.h): the optimizer's own per-tensor functions on a column of
// values, exact for the elementwise optimizers (SGD, momentum, Adam).
#include <algorithm>

#include "dsml/data_parallel.h"
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
  const std::int64_t t = step + 1;  // 1-based: Adam's bias correction and the warm-up rate
  switch (plan_.sync) {
    case DpSync::naive: {
      std::vector<Eigen::MatrixXd*> tensors = parameter_tensors(grads_);
      for (auto g = tensors.rbegin(); g != tensors.rend(); ++g) {
        dp_->all_reduce((*g)->data(), static_cast<std::size_t>((*g)->size()));
        divide((*g)->data(), static_cast<std::size_t>((*g)->size()), dp);
      }
      clock_.time("compute", [&] { optimizer_->step(model_.slices, grads_); });
      return;
    }
    case DpSync::bucketed: {
      Buffer flat = flatten(grads_);
      for (const Bucket& b : gradient_buckets(flat.size(), bucket_values(plan_.bucket_bytes, 8)))
        dp_->all_reduce(flat.data() + b.begin, b.end - b.begin);
      divide(flat.data(), flat.size(), dp);
      unflatten(flat, grads_);
      clock_.time("compute", [&] { optimizer_->step(model_.slices, grads_); });
      return;
    }
    case DpSync::zero1:
    case DpSync::zero2: {
      const Buffer grads = flatten(grads_);
      Buffer params = flatten(model_.slices);
      const std::vector<Bucket> buckets = gradient_buckets(grads.size(), bucket_values(plan_.bucket_bytes, 8));
      moments_.resize(buckets.size());
      for (std::size_t k = 0; k < buckets.size(); ++k) {
        const auto begin = static_cast<std::ptrdiff_t>(buckets[k].begin);
        const auto end = static_cast<std::ptrdiff_t>(buckets[k].end);
        Buffer grad_shard = dp_->reduce_scatter(Buffer(grads.begin() + begin, grads.begin() + end));
        divide(grad_shard.data(), grad_shard.size(), dp);
        Buffer param_shard = shard_of(Buffer(params.begin() + begin, params.begin() + end), dp, d);
        clock_.time("compute", [&] { update_shard(plan_.optimizer, t, param_shard, grad_shard, moments_[k]); });
        const Buffer bucket = dp_->all_gather(param_shard, buckets[k].end - buckets[k].begin);
        std::copy(bucket.begin(), bucket.end(), params.begin() + begin);
      }
      unflatten(params, model_.slices);
      return;
    }
    case DpSync::zero3:
      moments_.resize(model_.shards.size());
      for (std::size_t j = 0; j < model_.shards.size(); ++j) {
        divide(grad_shards_[j].data(), grad_shards_[j].size(), dp);
        clock_.time("compute", [&] { update_shard(plan_.optimizer, t, model_.shards[j], grad_shards_[j], moments_[j]); });
      }
      return;
  }
}

HeldBytes RankTrainer::held() const {
  const OptimizerKind k = plan_.optimizer.kind;
  const double states = k == OptimizerKind::sgd ? 0 : (k == OptimizerKind::adam || k == OptimizerKind::lamb ? 2 : 1);
  const auto held = static_cast<double>(model_.flat().size());   // the slices, or the shards
  double shard = 0;  // zero1/2: this rank's shard of every bucket
  for (const Bucket& b : gradient_buckets(model_.unit * static_cast<std::size_t>(model_.blocks),
                                          bucket_values(plan_.bucket_bytes, 8)))
    shard += static_cast<double>(shard_sizes(b.end - b.begin, dp_->size())[static_cast<std::size_t>(dp_->rank())]);
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
