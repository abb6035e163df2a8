// Is a pipeline schedule valid? First each stage on its own (the ops a learner is most likely to get wrong,
// named precisely), then all stages together (no deadlock).
//
// Per stage s, walking its ops in order, for each micro-batch i:
//   recv-activation(i) before forward(i) (s > 0);  forwards in micro-batch order;  forward(i) before
//   send-activation(i) (s < P − 1);  recv-grad(i) before backward(i) (s < P − 1);  forward(i) before
//   backward(i);  backward(i) before send-grad(i) (s > 0);  each op exactly once, none of them missing.
// Forwards go in order because a stage's activations stream through it like a queue — the same order on every
// stage is what makes "micro-batch i" mean the same rows of the mini-batch everywhere.
#include <cstddef>
#include <string>
#include <vector>

#include "dsml/error.h"
#include "dsml/pipeline_schedule.h"
#include "pipeline_run.h"

namespace dsml {
namespace pipeline_detail {
namespace {

constexpr int kKinds = 6;

std::string stage_prefix(int s) { return "stage " + std::to_string(s) + ": "; }

// The op on stage s that must come before `op` (and whose absence is the error), or -1 if none.
int prerequisite(PipelineOp::Kind kind, int s, int last) {
  using Kind = PipelineOp::Kind;
  switch (kind) {
    case Kind::kForward: return s > 0 ? static_cast<int>(Kind::kRecvActivation) : -1;
    case Kind::kSendActivation: return static_cast<int>(Kind::kForward);
    case Kind::kBackward: return s < last ? static_cast<int>(Kind::kRecvGrad) : -1;
    case Kind::kSendGrad: return static_cast<int>(Kind::kBackward);
    default: return -1;
  }
}

bool belongs_on(PipelineOp::Kind kind, int s, int last) {
  using Kind = PipelineOp::Kind;
  if (kind == Kind::kRecvActivation || kind == Kind::kSendGrad) return s > 0;
  if (kind == Kind::kSendActivation || kind == Kind::kRecvGrad) return s < last;
  return true;
}

}  // namespace

std::string check_stages(const PipelineSchedule& schedule) {
  using Kind = PipelineOp::Kind;
  const int P = schedule.stages;
  const int m = schedule.micro_batches;
  if (P < 1) return "a pipeline needs at least 1 stage, got " + std::to_string(P);
  if (m < 1) return "a pipeline needs at least 1 micro-batch, got " + std::to_string(m);
  if (static_cast<int>(schedule.ops.size()) != P) {
    return "the schedule has " + std::to_string(P) + " stages but ops for " + std::to_string(schedule.ops.size());
  }
  for (int s = 0; s < P; ++s) {
    // seen[kind][i]: has op (kind, i) run yet on this stage?
    std::vector<std::vector<bool>> seen(kKinds, std::vector<bool>(static_cast<std::size_t>(m), false));
    auto ran = [&seen](int kind, int i) {
      return static_cast<bool>(seen[static_cast<std::size_t>(kind)][static_cast<std::size_t>(i)]);
    };
    int next_forward = 0;
    for (const PipelineOp& op : schedule.ops[static_cast<std::size_t>(s)]) {
      const int i = op.micro_batch;
      if (i < 0 || i >= m) {
        return stage_prefix(s) + "micro-batch " + std::to_string(i) + " is out of range (0 to " +
               std::to_string(m - 1) + ")";
      }
      if (!belongs_on(op.kind, s, P - 1)) {
        // Not describe(op, s): it would name a stage that does not exist ("stage -1").
        static const char* const kNames[kKinds] = {"forward",   "backward",  "send-activation",
                                                   "recv-activation", "send-grad", "recv-grad"};
        const bool to_previous = op.kind == Kind::kRecvActivation || op.kind == Kind::kSendGrad;
        return stage_prefix(s) + kNames[static_cast<int>(op.kind)] + "(" + std::to_string(i) + ") has no " +
               (to_previous ? "previous" : "next") + " stage to talk to";
      }
      const std::string text = describe(op, s);
      if (ran(static_cast<int>(op.kind), i)) return stage_prefix(s) + text + " appears twice";
      if (op.kind == Kind::kBackward && !ran(static_cast<int>(Kind::kForward), i)) {
        return stage_prefix(s) + text + " comes before forward(" + std::to_string(i) + ")";
      }
      const int before = prerequisite(op.kind, s, P - 1);
      if (before >= 0 && !ran(before, i)) {
        return stage_prefix(s) + text + " comes before " + describe({static_cast<Kind>(before), i}, s);
      }
      if (op.kind == Kind::kForward) {
        if (i != next_forward) {
          return stage_prefix(s) + "forward(" + std::to_string(i) + ") comes before forward(" +
                 std::to_string(next_forward) + "): forwards must run in micro-batch order";
        }
        ++next_forward;
      }
      seen[static_cast<std::size_t>(op.kind)][static_cast<std::size_t>(i)] = true;
    }
    for (int i = 0; i < m; ++i) {
      for (int k = 0; k < kKinds; ++k) {
        const auto kind = static_cast<Kind>(k);
        if (belongs_on(kind, s, P - 1) && !ran(k, i)) {
          return stage_prefix(s) + "micro-batch " + std::to_string(i) + " has no " + describe({kind, i}, s);
        }
      }
    }
  }
  return "";
}

}  // namespace pipeline_detail

PipelineCheck check_pipeline_schedule(const PipelineSchedule& schedule) {
  PipelineCheck check;
  check.message = pipeline_detail::check_stages(schedule);
  // Zero-time run: only whether every stage gets to its end matters here.
  if (check.message.empty()) check.message = pipeline_detail::run_pipeline(schedule, 0, 0, 0).deadlock;
  check.valid = check.message.empty();
  return check;
}

}  // namespace dsml
