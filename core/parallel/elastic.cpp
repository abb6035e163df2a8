// elastic.cpp — elastic data parallelism with re-sharded ZeRO-1 optimizer state (dsml/elastic.h).
#include "dsml/elastic.h"

#include <algorithm>

#include "dsml/comm.h"
#include "dsml/data_parallel.h"
#include "dsml/error.h"
#include "dsml/single_device.h"
#include "dsml/teacher_task.h"
#include "dsml/train_compare.h"
#include "dsml/zero.h"
#include "parallel/local_gradient.h"

namespace dsml {
namespace {

// Moment buffers (first, second) of every rank as full-length vectors, by concatenating the shards in rank order.
Buffer concat(const std::vector<ShardMoments>& moments, bool second) {
  Buffer full;
  for (const ShardMoments& m : moments) {
    const Eigen::MatrixXd& v = second ? m.second : m.first;
    full.insert(full.end(), v.data(), v.data() + v.size());
  }
  return full;
}

Eigen::MatrixXd column(const Buffer& full, int parts, int index) {
  if (full.empty()) return {};  // not created yet (SGD, or before the first step): starts at zero either way
  const Buffer piece = shard_of(full, parts, index);
  return Eigen::Map<const Eigen::MatrixXd>(piece.data(), static_cast<Eigen::Index>(piece.size()), 1);
}

// Elements of an n-vector whose owner differs between the P-way and the Q-way cut (shard_sizes).
double moved_elements(std::size_t n, int from, int to) {
  double moved = 0;
  for (std::size_t i = 0; i < n;) {  // walk the boundaries of both cuts
    int a = 0, b = 0;
    while (a + 1 < from && shard_offset(n, from, a + 1) <= i) ++a;
    while (b + 1 < to && shard_offset(n, to, b + 1) <= i) ++b;
    const std::size_t end = std::min(a + 1 < from ? shard_offset(n, from, a + 1) : n,
                                     b + 1 < to ? shard_offset(n, to, b + 1) : n);
    if (a != b) moved += static_cast<double>(end - i);
    i = end;
  }
  return moved;
}

}  // namespace

void validate(const ElasticConfig& c) {
  validate(c.model);
  validate(c.optimizer);
  if (c.optimizer.kind != OptimizerKind::sgd && c.optimizer.kind != OptimizerKind::momentum &&
      c.optimizer.kind != OptimizerKind::adam)
    throw Error(std::string("elastic training supports the elementwise optimizers sgd, momentum and adam, got ") +
                optimizer_name(c.optimizer.kind) + " (its trust ratios need whole-tensor norms across shards)");
  if (c.steps < 1) throw Error("steps must be >= 1, got " + std::to_string(c.steps));
  if (c.batch < 1) throw Error("batch (the global batch) must be >= 1, got " + std::to_string(c.batch));
  int last = 0, workers = c.initial_workers;
  const auto check = [&](int p, int step) {
    if (p < 1 || p > 1024) throw Error("workers must be between 1 and 1024, got " + std::to_string(p));
    if (c.batch % p != 0)
      throw Error("global batch of " + std::to_string(c.batch) + " rows is not divisible by " + std::to_string(p) +
                  " workers (from step " + std::to_string(step) + "): equal shards are needed for the mean of the "
                  "workers' gradients to be the batch gradient");
  };
  check(workers, 0);
  if (c.checkpoint_interval < 0)
    throw Error("checkpoint_interval must be >= 0 (0: only the start), got " + std::to_string(c.checkpoint_interval));
  for (const WorldChange& w : c.changes) {
    if (w.step <= last || w.step >= c.steps)
      throw Error("world changes must come at increasing steps in (0, steps), got step " + std::to_string(w.step));
    check(w.workers, w.step);
    if (w.crash && w.workers >= workers)
      throw Error("a crash at step " + std::to_string(w.step) + " must leave fewer workers than the " +
                  std::to_string(workers) + " running, got " + std::to_string(w.workers));
    last = w.step;
    workers = w.workers;
  }
}

ElasticResult train_elastic(const ElasticConfig& c) {
  validate(c);
  const TeacherTask task(c.model, c.seed);
  MlpParams params = init_student(c.model, c.seed);
  Buffer theta = flatten(params);
  const std::size_t n = theta.size();
  const int buffers = c.optimizer.kind == OptimizerKind::adam ? 2 : c.optimizer.kind == OptimizerKind::momentum ? 1 : 0;
  int p = c.initial_workers;
  std::vector<ShardMoments> moments(static_cast<std::size_t>(c.shard_optimizer ? p : 1));
  std::size_t next_change = 0;

  // The last checkpoint: the step it was taken at the start of, the parameters, the whole moment buffers.
  struct Checkpoint {
    int step = 0;
    Buffer theta, first, second;
  } saved;

  ElasticResult out;
  out.losses.assign(static_cast<std::size_t>(c.steps), 0.0);
  out.workers.assign(static_cast<std::size_t>(c.steps), 0);
  out.step_bytes.assign(static_cast<std::size_t>(c.steps), 0.0);
  for (int step = 0; step < c.steps; ++step) {
    if (step == 0 || (c.checkpoint_interval > 0 && step % c.checkpoint_interval == 0))
      saved = {step, theta, concat(moments, false), concat(moments, true)};
    if (next_change < c.changes.size() && c.changes[next_change].step == step) {
      const WorldChange& change = c.changes[next_change++];
      const int q = change.workers;
      ResizeEvent e{step, p, q, 0.0, static_cast<double>(std::max(0, q - p)) * static_cast<double>(n) * 8};
      e.crash = change.crash;
      const bool started = step > 0 && buffers > 0;
      if (change.crash && c.shard_optimizer) {
        // The crashed ranks' shards are gone: every rank reloads the checkpoint, its moments re-cut for q ranks,
        // and the steps since the checkpoint are recomputed (the loop resumes at saved.step).
        e.restored_from = saved.step;
        e.lost_steps = step - saved.step;
        e.bytes_restored = (1.0 + buffers) * static_cast<double>(n) * 8;
        theta = saved.theta;
        unflatten(theta, params);
        std::vector<ShardMoments> recut(static_cast<std::size_t>(q));
        for (int d = 0; d < q; ++d) recut[d] = {column(saved.first, q, d), column(saved.second, q, d)};
        moments = std::move(recut);
        out.resizes.push_back(e);
        p = q;
        step = saved.step;
      } else if (c.shard_optimizer) {
        // Re-cut each moment buffer for q ranks (leaving ranks hand their shards over first).
        const Buffer first = concat(moments, false), second = concat(moments, true);
        std::vector<ShardMoments> resharded(static_cast<std::size_t>(q));
        for (int d = 0; d < q; ++d) resharded[d] = {column(first, q, d), column(second, q, d)};
        moments = std::move(resharded);
        if (started) e.optimizer_bytes_moved = buffers * moved_elements(n, p, q) * 8;
      } else if (started) {
        e.optimizer_bytes_moved = static_cast<double>(std::max(0, q - p)) * buffers * static_cast<double>(n) * 8;
      }
      if (!(change.crash && c.shard_optimizer)) {
        // (DP after a crash too: the survivors hold the whole state of step − 1; only the step in flight is redone.)
        out.resizes.push_back(e);
        p = q;
      }
    }
    // Each rank's gradient on its rows of the SAME global batch.
    const Batch global = task.make_batch(static_cast<std::uint64_t>(step), c.batch);
    std::vector<Buffer> grads;
    double loss = 0;
    for (int d = 0; d < p; ++d) {
      const parallel::LocalGradient g = parallel::local_gradient(c.model, params, batch_shard(global, p, d), 1);
      loss += g.loss / p;
      grads.push_back(flatten(g.grads));
    }
    CommLog log;
    CommOptions options{c.algorithm, &log, "grads"};
    const std::int64_t t = step + 1;
    if (c.shard_optimizer) {
      std::vector<Buffer> shards = reduce_scatter(grads, options);  // the ring of THIS step's p ranks
      std::vector<Buffer> params_shards;
      for (int d = 0; d < p; ++d) {
        for (double& x : shards[d]) x /= p;
        Buffer mine = shard_of(theta, p, d);
        update_shard(c.optimizer, t, mine, shards[d], moments[d]);
        params_shards.push_back(std::move(mine));
      }
      options.label = "params";
      theta = all_gather(params_shards, options)[0];
    } else {
      all_reduce(grads, options);
      for (double& x : grads[0]) x /= p;
      update_shard(c.optimizer, t, theta, grads[0], moments[0]);  // every replica applies the same update
    }
    unflatten(theta, params);
    out.losses[static_cast<std::size_t>(step)] = loss;
    out.workers[static_cast<std::size_t>(step)] = p;
    out.step_bytes[static_cast<std::size_t>(step)] = log.total_bytes();
  }
  const SingleDeviceRun one = teacher_task_run(c.model, c.optimizer, c.seed, c.steps, c.batch);
  out.single_losses = one.losses;
  out.max_relative_difference = max_relative_difference(params, one.params);
  out.params = std::move(params);
  return out;
}

}  // namespace dsml
