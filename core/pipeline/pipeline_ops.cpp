// Building blocks of a pipeline schedule: an empty schedule, a forward or backward with the messages around
// it, and the text of one op. The generators (gpipe.cpp, one_f_one_b.cpp) and learners' own schedules use them.
#include <string>

#include "dsml/error.h"
#include "dsml/pipeline_schedule.h"

namespace dsml {
namespace {

void require_in_range(const PipelineSchedule& schedule, int stage, int micro_batch) {
  if (stage < 0 || stage >= schedule.stages || static_cast<int>(schedule.ops.size()) != schedule.stages) {
    throw Error("stage must be between 0 and " + std::to_string(schedule.stages - 1) + ", got " +
                std::to_string(stage));
  }
  if (micro_batch < 0 || micro_batch >= schedule.micro_batches) {
    throw Error("micro-batch must be between 0 and " + std::to_string(schedule.micro_batches - 1) + ", got " +
                std::to_string(micro_batch));
  }
}

}  // namespace

PipelineSchedule empty_pipeline_schedule(const std::string& name, int stages, int micro_batches) {
  if (stages < 1) throw Error("a pipeline needs at least 1 stage, got " + std::to_string(stages));
  if (micro_batches < 1) {
    throw Error("a pipeline needs at least 1 micro-batch, got " + std::to_string(micro_batches));
  }
  PipelineSchedule schedule;
  schedule.name = name;
  schedule.stages = stages;
  schedule.micro_batches = micro_batches;
  schedule.ops.resize(static_cast<std::size_t>(stages));
  return schedule;
}

void add_forward(PipelineSchedule& schedule, int stage, int micro_batch) {
  require_in_range(schedule, stage, micro_batch);
  using Kind = PipelineOp::Kind;
  auto& ops = schedule.ops[static_cast<std::size_t>(stage)];
  if (stage > 0) ops.push_back({Kind::kRecvActivation, micro_batch});
  ops.push_back({Kind::kForward, micro_batch});
  if (stage < schedule.stages - 1) ops.push_back({Kind::kSendActivation, micro_batch});
}

void add_backward(PipelineSchedule& schedule, int stage, int micro_batch) {
  require_in_range(schedule, stage, micro_batch);
  using Kind = PipelineOp::Kind;
  auto& ops = schedule.ops[static_cast<std::size_t>(stage)];
  if (stage < schedule.stages - 1) ops.push_back({Kind::kRecvGrad, micro_batch});
  ops.push_back({Kind::kBackward, micro_batch});
  if (stage > 0) ops.push_back({Kind::kSendGrad, micro_batch});
}

std::string describe(const PipelineOp& op, int stage) {
  const std::string mb = std::to_string(op.micro_batch);
  switch (op.kind) {
    case PipelineOp::Kind::kForward: return "forward(" + mb + ")";
    case PipelineOp::Kind::kBackward: return "backward(" + mb + ")";
    case PipelineOp::Kind::kSendActivation:
      return "send-activation(" + mb + " → stage " + std::to_string(stage + 1) + ")";
    case PipelineOp::Kind::kRecvActivation:
      return "recv-activation(" + mb + " ← stage " + std::to_string(stage - 1) + ")";
    case PipelineOp::Kind::kSendGrad: return "send-grad(" + mb + " → stage " + std::to_string(stage - 1) + ")";
    case PipelineOp::Kind::kRecvGrad: return "recv-grad(" + mb + " ← stage " + std::to_string(stage + 1) + ")";
  }
  return "unknown op";
}

}  // namespace dsml
