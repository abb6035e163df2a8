// pipeline_parallel_comm.cpp — the only communication of pipeline parallelism: point-to-point messages
// between neighbouring stages (GPipe, Huang et al. 2019; Megatron-LM's p2p_communication.py plays this role).
//
// Forward:  stage s  ──activation of micro-batch i (B_i, D)──▶  stage s + 1
// Backward: stage s  ◀──∂loss/∂activation of micro-batch i (B_i, D)──  stage s + 1
// A message is a matrix parked in the receiver's mailbox under its micro-batch number, so messages are matched
// by (kind, micro-batch) and may arrive in any order — as in pipeline_schedule.h. Sends are eager: the sender
// never waits. Each send logs one CommRecord {kind "send", ranks 2, bytes_per_rank B_i·D·8, stage: the sender}.
#include <string>
#include <utility>

#include "dsml/error.h"
#include "dsml/pipeline_parallel.h"

namespace dsml {
namespace {

std::string where(int stage, int micro_batch) {
  return "stage " + std::to_string(stage) + ", micro-batch " + std::to_string(micro_batch);
}

}  // namespace

PipelineMailboxes::PipelineMailboxes(int stages, int micro_batches, CommLog* log)
    : stages_(stages), micro_batches_(micro_batches), log_(log) {
  if (stages < 1 || micro_batches < 1)
    throw Error("pipeline mailboxes need stages >= 1 and micro-batches >= 1, got " + std::to_string(stages) +
                " and " + std::to_string(micro_batches));
  activation_.assign(static_cast<std::size_t>(stages), std::vector<Eigen::MatrixXd>(micro_batches));
  grad_ = activation_;
}

void PipelineMailboxes::send_activation(int from, int micro_batch, Eigen::MatrixXd activation) {
  if (from < 0 || from + 1 >= stages_ || micro_batch < 0 || micro_batch >= micro_batches_)
    throw Error("send-activation from " + where(from, micro_batch) + ": no next stage or micro-batch out of range");
  if (log_ != nullptr)
    log_->add({"send", "activation " + std::to_string(micro_batch) + ": stage " + std::to_string(from) + " -> " +
                           std::to_string(from + 1),
               2, 8.0 * static_cast<double>(activation.size()), from});
  activation_[from + 1][micro_batch] = std::move(activation);
}

void PipelineMailboxes::send_grad(int from, int micro_batch, Eigen::MatrixXd grad) {
  if (from < 1 || from >= stages_ || micro_batch < 0 || micro_batch >= micro_batches_)
    throw Error("send-grad from " + where(from, micro_batch) + ": no previous stage or micro-batch out of range");
  if (log_ != nullptr)
    log_->add({"send", "gradient " + std::to_string(micro_batch) + ": stage " + std::to_string(from) + " -> " +
                           std::to_string(from - 1),
               2, 8.0 * static_cast<double>(grad.size()), from});
  grad_[from - 1][micro_batch] = std::move(grad);
}

bool PipelineMailboxes::has_activation(int stage, int micro_batch) const {
  require_slot(stage, micro_batch);
  return activation_[stage][micro_batch].size() > 0;
}

bool PipelineMailboxes::has_grad(int stage, int micro_batch) const {
  require_slot(stage, micro_batch);
  return grad_[stage][micro_batch].size() > 0;
}

void PipelineMailboxes::require_slot(int stage, int micro_batch) const {
  if (stage < 0 || stage >= stages_ || micro_batch < 0 || micro_batch >= micro_batches_)
    throw Error("no mailbox for " + where(stage, micro_batch) + ": stages are 0.." + std::to_string(stages_ - 1) +
                ", micro-batches 0.." + std::to_string(micro_batches_ - 1));
}

Eigen::MatrixXd PipelineMailboxes::recv_activation(int stage, int micro_batch) {
  if (!has_activation(stage, micro_batch))
    throw Error("recv-activation at " + where(stage, micro_batch) + ": nothing has been sent");
  Eigen::MatrixXd message = std::move(activation_[stage][micro_batch]);
  activation_[stage][micro_batch].resize(0, 0);  // the mailbox slot is empty again
  return message;
}

Eigen::MatrixXd PipelineMailboxes::recv_grad(int stage, int micro_batch) {
  if (!has_grad(stage, micro_batch))
    throw Error("recv-grad at " + where(stage, micro_batch) + ": nothing has been sent");
  Eigen::MatrixXd message = std::move(grad_[stage][micro_batch]);
  grad_[stage][micro_batch].resize(0, 0);
  return message;
}

}  // namespace dsml
