// dsml/pipeline_schedule.h — pipeline-parallel schedules as data, checked and timed.
//
// A model cut into P stages (one per device) trains on a mini-batch split into m micro-batches. Each stage runs
// an ordered list of ops; stage s receives activations from s − 1 and gradients from s + 1:
//   recv-activation(i)   wait for micro-batch i's activation from stage s − 1    (not on stage 0)
//   forward(i)           run the stage's layers forward on micro-batch i; keep its activations for backward
//   send-activation(i)   hand the output of forward(i) to stage s + 1            (not on the last stage)
//   recv-grad(i)         wait for the gradient of forward(i)'s output from s + 1 (not on the last stage)
//   backward(i)          backward on micro-batch i; frees its activations
//   send-grad(i)         hand the input gradient of backward(i) to stage s − 1   (not on stage 0)
// Sends are eager (they never wait for the receiver), as in dsml::simulate; a receive blocks until its message
// has arrived. Messages are matched by (kind, micro-batch), so the order in which they arrive does not matter.
//
// Two generators, naive beside optimised (same bubble, different memory):
//   gpipe         all m forwards, then all m backwards (Huang et al., "GPipe", NeurIPS 2019). Stage s holds the
//                 activations of all m micro-batches at once.
//   one_f_one_b   PipeDream-Flush (Narayanan et al., "Efficient Large-Scale Language Model Training on GPU
//                 Clusters Using Megatron-LM", SC 2021): stage s warms up with min(P − 1 − s, m) forwards, then
//                 alternates one forward, one backward, then cools down with the remaining backwards. Stage s
//                 holds at most min(P − s, m) micro-batches of activations.
// With forward time t_f and backward time t_b per micro-batch per stage and free point-to-point messages, both
// take (m + P − 1)(t_f + t_b); each stage is busy m(t_f + t_b) of it, so the bubble is (P − 1)/(m + P − 1).
#pragma once

#include <string>
#include <vector>

namespace dsml {

struct PipelineOp {
  enum class Kind { kForward, kBackward, kSendActivation, kRecvActivation, kSendGrad, kRecvGrad };
  Kind kind = Kind::kForward;
  int micro_batch = 0;  // 0 … m − 1
};

struct PipelineSchedule {
  std::string name;                          // "gpipe", "1f1b", or anything a learner writes
  int stages = 0;                            // P ≥ 1
  int micro_batches = 0;                     // m ≥ 1
  std::vector<std::vector<PipelineOp>> ops;  // ops[stage], executed in order
};

// An empty schedule with P stages and m micro-batches; throws dsml::Error unless both are ≥ 1.
PipelineSchedule empty_pipeline_schedule(const std::string& name, int stages, int micro_batches);

// Append to ops[stage] the forward of `micro_batch` with its messages: recv-activation (unless stage 0),
// forward, send-activation (unless the last stage). add_backward likewise appends recv-grad (unless the last
// stage), backward, send-grad (unless stage 0). Both throw dsml::Error on a stage or micro-batch out of range.
void add_forward(PipelineSchedule& schedule, int stage, int micro_batch);
void add_backward(PipelineSchedule& schedule, int stage, int micro_batch);

// The generators above. P ≥ 1 and m ≥ 1 (m < P is allowed: the pipeline never fills).
PipelineSchedule gpipe(int stages, int micro_batches);
PipelineSchedule one_f_one_b(int stages, int micro_batches);

// Valid means: every stage forwards every micro-batch exactly once, in micro-batch order, and backwards each
// exactly once after its forward; every message a stage waits for is sent exactly once by its neighbour after
// the op that produces it; and running the stages together never deadlocks. `message` is empty when valid,
// otherwise it names the stage and micro-batch, e.g. "stage 1: backward(2) comes before forward(2)" or
// "deadlock: stage 0 waits for the gradient of micro-batch 0 from stage 1, stage 1 waits for …".
struct PipelineCheck {
  bool valid = false;
  std::string message;
};
PipelineCheck check_pipeline_schedule(const PipelineSchedule& schedule);

// A stretch of compute on one stage, for a timeline. Seconds from the start of the step.
struct PipelineSpan {
  int stage = 0;
  PipelineOp::Kind kind = PipelineOp::Kind::kForward;  // kForward or kBackward
  int micro_batch = 0;
  double start = 0;
  double end = 0;
};

struct PipelineTiming {
  double makespan = 0;             // seconds until the last stage finishes
  std::vector<double> busy;        // per stage: seconds computing (m·(t_f + t_b) for a valid schedule)
  std::vector<double> idle;        // per stage: makespan − busy
  double bubble_fraction = 0;      // Σ idle / (P · makespan)
  std::vector<PipelineSpan> spans;  // forward and backward spans, by stage, in execution order
};

// Runs a valid schedule (throws dsml::Error with check_pipeline_schedule's message otherwise). Every forward
// takes forward_s, every backward backward_s (seconds, per micro-batch per stage, > 0); a message arrives
// p2p_s ≥ 0 seconds after it is sent and costs the sender nothing (eager, overlapped with compute).
PipelineTiming time_pipeline_schedule(const PipelineSchedule& schedule, double forward_s, double backward_s,
                                      double p2p_s = 0);

// Per stage: the most micro-batches whose activations are held at once (forwarded, not yet backwarded), walking
// the stage's ops in order. This is what activation memory scales with. Throws dsml::Error with
// check_pipeline_schedule's message unless the schedule is valid.
std::vector<int> peak_in_flight_activations(const PipelineSchedule& schedule);

// "forward(3)", "send-activation(3 → stage 2)", "recv-grad(0 ← stage 4)" — for messages and traces.
std::string describe(const PipelineOp& op, int stage);

}  // namespace dsml
