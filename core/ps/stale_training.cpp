// stale_training.cpp — replaying a parameter-server run on the teacher task (dsml/stale_training.h).
//
// The log is walked in simulated order. State: each shard's slice θ_k (a column), each worker's copy of every
// slice, the parameters carried by replies in flight (by message id), the gradients computed but not yet
// handled by every shard (by gradient id), and each shard's round sum.
#include <unordered_map>

#include "dsml/error.h"
#include "dsml/optimizer.h"
#include "dsml/stale_training.h"
#include "dsml/teacher_task.h"

namespace dsml {
namespace {

Eigen::VectorXd flatten(const MlpParams& params) {
  const auto tensors = parameter_tensors(params);
  Eigen::Index n = 0;
  for (const auto* t : tensors) n += t->size();
  Eigen::VectorXd flat(n);
  Eigen::Index at = 0;
  for (const auto* t : tensors) {
    flat.segment(at, t->size()) = Eigen::Map<const Eigen::VectorXd>(t->data(), t->size());
    at += t->size();
  }
  return flat;
}

void unflatten(const Eigen::VectorXd& flat, MlpParams& params) {
  Eigen::Index at = 0;
  for (auto* t : parameter_tensors(params)) {
    Eigen::Map<Eigen::VectorXd>(t->data(), t->size()) = flat.segment(at, t->size());
    at += t->size();
  }
}

class Replay {
 public:
  Replay(const ParamServerConfig& ps, const StaleTrainingConfig& c)
      : ps_(ps), c_(c), task_(c.model, c.seed), scratch_(init_student(c.model, c.seed)),
        eval_(task_.make_batch(kEvalBatchStep, c.eval_batch)) {
    const Eigen::VectorXd start = flatten(scratch_);
    for (int k = 0; k < ps.servers; ++k) {
      const auto b = shard_begin(ps, k), e = shard_begin(ps, k + 1);
      shards_.push_back(start.segment(b, e - b));
      sums_.push_back(Eigen::MatrixXd::Zero(e - b, 1));
    }
    copies_.assign(static_cast<std::size_t>(ps.workers), shards_);
    optimizer_.kind = OptimizerKind::sgd;
    optimizer_.lr = c.lr;
  }

  StaleTrainingResult run(const std::vector<PsOp>& ops) {
    record(0.0);
    double last = 0.0;
    for (const PsOp& op : ops) {
      step(op);
      last = op.time;
    }
    if (applied_ % c_.record_every != 0) {  // the final model, whatever the stride
      unflatten(servers(), scratch_);
      curve_.push_back(LossPoint{last, updates_, mse_loss(mlp_predict(c_.model, scratch_, eval_.inputs), eval_.targets)});
    }
    StaleTrainingResult out;
    out.curve = std::move(curve_);
    out.final_loss = out.curve.back().loss;
    unflatten(servers(), scratch_);
    out.params = scratch_;
    return out;
  }

 private:
  void step(const PsOp& op) {
    switch (op.kind) {
      case PsOp::Kind::kCompute: gradients_[op.gradient] = {gradient(op.worker, op.iteration), ps_.servers}; break;
      case PsOp::Kind::kApply: {
        const double lr = c_.staleness_aware ? c_.lr / (op.tau + 1) : c_.lr;  // Zhang et al. 2016
        sgd_update(optimizer_, lr, shards_[op.shard], slice(op.gradient, op.shard));
        handled(op.gradient);
        record(op.time);
        break;
      }
      case PsOp::Kind::kAccept:
        sums_[op.shard] += slice(op.gradient, op.shard);
        handled(op.gradient);
        break;
      case PsOp::Kind::kAverage:
        sgd_update(optimizer_, c_.lr, shards_[op.shard], sums_[op.shard] / static_cast<double>(op.count));
        sums_[op.shard].setZero();
        record(op.time);
        break;
      case PsOp::Kind::kDrop: handled(op.gradient); break;
      case PsOp::Kind::kCancel: gradients_.erase(op.gradient); break;
      case PsOp::Kind::kSend: in_flight_[op.message] = shards_[op.shard]; break;
      case PsOp::Kind::kReceive: {
        const auto it = in_flight_.find(op.message);
        copies_[op.worker][op.shard] = std::move(it->second);
        in_flight_.erase(it);
        break;
      }
    }
  }

  // Worker w's gradient on its copy of the model, on its rows of batch `data`, flattened.
  Eigen::VectorXd gradient(int w, int data) {
    Eigen::VectorXd theta(static_cast<Eigen::Index>(ps_.parameters));
    for (int k = 0; k < ps_.servers; ++k)
      theta.segment(shard_begin(ps_, k), copies_[w][k].rows()) = copies_[w][k];
    unflatten(theta, scratch_);
    const int b = c_.batch_per_worker;
    const Batch& all = batch(data);
    const Eigen::MatrixXd x = all.inputs.middleRows(w * b, b), t = all.targets.middleRows(w * b, b);
    release(data);
    const MlpForward forward = mlp_forward(c_.model, scratch_, x);
    return flatten(mlp_backward(c_.model, scratch_, forward, mse_loss_gradient(forward.output, t)).params);
  }

  // Batch `data` of all P workers (each takes its rows), made once and kept until all P have taken theirs: the
  // teacher's targets cost more than a gradient of the small student.
  const Batch& batch(int data) {
    auto it = batches_.find(data);
    if (it == batches_.end())
      it = batches_.emplace(data, std::make_pair(task_.make_batch(static_cast<std::uint64_t>(data),
                                                                  ps_.workers * c_.batch_per_worker),
                                                 ps_.workers)).first;
    return it->second.first;
  }
  void release(int data) {
    const auto it = batches_.find(data);
    if (--it->second.second == 0) batches_.erase(it);
  }

  Eigen::MatrixXd slice(int g, int k) const {
    const auto b = shard_begin(ps_, k);
    return gradients_.at(g).first.segment(b, shard_begin(ps_, k + 1) - b);
  }
  void handled(int g) {  // every shard has used (or dropped) gradient g: forget it
    if (--gradients_[g].second == 0) gradients_.erase(g);
  }

  Eigen::VectorXd servers() const {
    Eigen::VectorXd theta(static_cast<Eigen::Index>(ps_.parameters));
    for (int k = 0; k < ps_.servers; ++k) theta.segment(shard_begin(ps_, k), shards_[k].rows()) = shards_[k];
    return theta;
  }
  void record(double time) {
    updates_ += curve_.empty() ? 0.0 : 1.0 / ps_.servers;
    if (!curve_.empty() && ++applied_ % c_.record_every != 0) return;
    unflatten(servers(), scratch_);
    curve_.push_back(LossPoint{time, updates_, mse_loss(mlp_predict(c_.model, scratch_, eval_.inputs), eval_.targets)});
  }

  const ParamServerConfig& ps_;
  const StaleTrainingConfig& c_;
  TeacherTask task_;
  MlpParams scratch_;  // the model's shape, reused for every forward
  Batch eval_;
  OptimizerConfig optimizer_;
  std::vector<Eigen::MatrixXd> shards_, sums_;  // per shard: θ_k (n_k, 1) and the round's gradient sum
  std::vector<std::vector<Eigen::MatrixXd>> copies_;  // [worker][shard]
  std::unordered_map<int, Eigen::MatrixXd> in_flight_;                     // reply message → parameters
  std::unordered_map<int, std::pair<Eigen::VectorXd, int>> gradients_;    // gradient → (value, shards to go)
  std::unordered_map<int, std::pair<Batch, int>> batches_;              // data → (all rows, workers yet to take)
  std::vector<LossPoint> curve_;
  double updates_ = 0.0;
  long long applied_ = 0;  // applies since the start, for record_every
};

void validate(const StaleTrainingConfig& c) {
  validate(c.model);
  if (c.batch_per_worker < 1) throw Error("batch_per_worker must be >= 1, got " + std::to_string(c.batch_per_worker));
  if (c.eval_batch < 1) throw Error("eval_batch must be >= 1, got " + std::to_string(c.eval_batch));
  if (c.record_every < 1) throw Error("record_every must be >= 1, got " + std::to_string(c.record_every));
  require_positive("lr (learning rate)", c.lr);
}

}  // namespace

StaleTrainingResult train_on_param_server(const ParamServerResult& run, const ParamServerConfig& ps,
                                          const StaleTrainingConfig& config) {
  validate(config);
  validate(ps);
  const auto n = static_cast<double>(parameter_count(config.model));
  if (ps.parameters != n)
    throw Error("the parameter server holds " + std::to_string(static_cast<long long>(ps.parameters)) +
                " parameters but the model has " + std::to_string(static_cast<long long>(n)));
  return Replay(ps, config).run(run.ops);
}

ParamServerTraining train_param_server(const Topology& topology, ParamServerConfig ps,
                                       const StaleTrainingConfig& config) {
  validate(config);
  ps.parameters = static_cast<double>(parameter_count(config.model));
  ParamServerTraining out;
  out.run = simulate_param_server(topology, ps);
  out.training = train_on_param_server(out.run, ps, config);
  return out;
}

}  // namespace dsml
