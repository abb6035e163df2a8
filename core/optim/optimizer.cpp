// optimizer.cpp — validation, names, and the Optimizer loop: schedule the rate, own the state, update each
// tensor with the per-tensor rule of its kind (sgd.cpp, adam.cpp, lars.cpp, lamb.cpp).
#include "dsml/optimizer.h"

#include <cmath>
#include <string>

#include "dsml/error.h"
#include "dsml/named_values.h"

namespace dsml {

namespace {

void require_unit_interval(const char* name, double value) {
  if (std::isfinite(value) && value >= 0.0 && value < 1.0) return;
  throw Error(std::string(name) + " must be in [0, 1), got " + format_number(value));
}

std::string shape(const Eigen::MatrixXd& m) { return std::to_string(m.rows()) + " x " + std::to_string(m.cols()); }

}  // namespace

bool uses_first_moment(OptimizerKind kind) { return kind != OptimizerKind::sgd; }
bool uses_second_moment(OptimizerKind kind) { return kind == OptimizerKind::adam || kind == OptimizerKind::lamb; }

constexpr NamedValue<OptimizerKind> kOptimizerNames[] = {{OptimizerKind::sgd, "sgd"}, {OptimizerKind::momentum, "momentum"},
    {OptimizerKind::adam, "adam"}, {OptimizerKind::lars, "lars"}, {OptimizerKind::lamb, "lamb"}};

OptimizerKind parse_optimizer(const std::string& name) {
  if (const auto kind = find_named(kOptimizerNames, name)) return *kind;
  throw Error("optimizer must be one of sgd, momentum, adam, lars, lamb, got \"" + name + "\"");
}

const char* optimizer_name(OptimizerKind kind) { return name_of(kOptimizerNames, kind); }

void validate(const OptimizerConfig& config) {
  require_positive("learning rate", config.lr);
  require_unit_interval("momentum", config.momentum);
  require_unit_interval("beta1", config.beta1);
  require_unit_interval("beta2", config.beta2);
  require_positive("epsilon", config.epsilon);
  require_non_negative("weight decay", config.weight_decay);
  require_positive("trust coefficient", config.trust_coefficient);
  if (config.warmup_steps < 0) throw Error("warmup_steps must be >= 0, got " + std::to_string(config.warmup_steps));
}

Optimizer::Optimizer(const OptimizerConfig& config) : config_(config) { validate(config_); }

double Optimizer::current_lr() const { return warmup_lr(config_.lr, state_.step, config_.warmup_steps); }

void Optimizer::step(const std::vector<Eigen::MatrixXd*>& params, const std::vector<const Eigen::MatrixXd*>& grads) {
  if (params.size() != grads.size())
    throw Error("got " + std::to_string(params.size()) + " parameter tensors but " + std::to_string(grads.size()) +
                " gradient tensors");
  if (params.empty()) throw Error("the optimizer needs at least one parameter tensor");
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (params[i] == nullptr || grads[i] == nullptr) throw Error("tensor " + std::to_string(i) + " is null");
    if (params[i]->rows() != grads[i]->rows() || params[i]->cols() != grads[i]->cols())
      throw Error("gradient " + std::to_string(i) + " must match its parameter, " + shape(*params[i]) + ", got " +
                  shape(*grads[i]));
    if (!grads[i]->allFinite()) throw DivergedError("gradient " + std::to_string(i) + " contains nan or inf");
  }

  // First step: zero state shaped like the parameters. Later steps: the same tensors must come back.
  if (state_.step == 0 && state_.first.empty() && state_.second.empty()) {
    for (const Eigen::MatrixXd* p : params) {
      if (uses_first_moment(config_.kind)) state_.first.push_back(Eigen::MatrixXd::Zero(p->rows(), p->cols()));
      if (uses_second_moment(config_.kind)) state_.second.push_back(Eigen::MatrixXd::Zero(p->rows(), p->cols()));
    }
  }
  for (std::vector<Eigen::MatrixXd>* buffer : {&state_.first, &state_.second}) {
    if (buffer->empty()) continue;  // this kind keeps no such moment
    if (buffer->size() != params.size())
      throw Error("the optimizer state holds " + std::to_string(buffer->size()) + " tensors, step got " +
                  std::to_string(params.size()));
    for (std::size_t i = 0; i < params.size(); ++i)
      if ((*buffer)[i].rows() != params[i]->rows() || (*buffer)[i].cols() != params[i]->cols())
        throw Error("parameter " + std::to_string(i) + " changed shape: its state is " + shape((*buffer)[i]) +
                    ", got " + shape(*params[i]));
  }

  const double lr = current_lr();
  const std::int64_t t = state_.step + 1;  // 1-based, for bias correction
  trust_ratios_.clear();
  for (std::size_t i = 0; i < params.size(); ++i) {
    Eigen::MatrixXd& w = *params[i];
    const Eigen::MatrixXd& g = *grads[i];
    switch (config_.kind) {
      case OptimizerKind::sgd: sgd_update(config_, lr, w, g); break;
      case OptimizerKind::momentum: momentum_update(config_, lr, w, g, state_.first[i]); break;
      case OptimizerKind::adam: adam_update(config_, lr, t, w, g, state_.first[i], state_.second[i]); break;
      case OptimizerKind::lars: trust_ratios_.push_back(lars_update(config_, lr, w, g, state_.first[i])); break;
      case OptimizerKind::lamb:
        trust_ratios_.push_back(lamb_update(config_, lr, t, w, g, state_.first[i], state_.second[i]));
        break;
    }
  }
  state_.step = t;
}

void Optimizer::step(MlpParams& params, const MlpParams& grads) {
  if (params.blocks.size() != grads.blocks.size())
    throw Error("params have " + std::to_string(params.blocks.size()) + " blocks but grads have " +
                std::to_string(grads.blocks.size()));
  step(parameter_tensors(params), parameter_tensors(grads));
}

}  // namespace dsml
