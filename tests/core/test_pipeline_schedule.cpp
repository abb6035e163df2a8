// Pipeline schedules as data: GPipe and 1F1B against their published makespan, bubble and memory; the
// checker against broken schedules; bad arguments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "dsml/error.h"
#include "dsml/pipeline_schedule.h"

namespace dsml {
namespace {

using Kind = PipelineOp::Kind;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Finds op (kind, micro_batch) on a stage; -1 if absent.
int position(const PipelineSchedule& schedule, int stage, Kind kind, int micro_batch) {
  const auto& ops = schedule.ops[static_cast<std::size_t>(stage)];
  for (std::size_t k = 0; k < ops.size(); ++k) {
    if (ops[k].kind == kind && ops[k].micro_batch == micro_batch) return static_cast<int>(k);
  }
  return -1;
}

TEST(PipelineSchedule, OneFOneBOrderOnAFourStagePipe) {
  // P = 4, m = 6, stage 1: warm-up 2 forwards, then F2 B0 F3 B1 F4 B2 F5 B3, then B4 B5.
  const PipelineSchedule s = one_f_one_b(4, 6);
  std::string compute;
  for (const PipelineOp& op : s.ops[1]) {
    if (op.kind == Kind::kForward) compute += "F" + std::to_string(op.micro_batch) + " ";
    if (op.kind == Kind::kBackward) compute += "B" + std::to_string(op.micro_batch) + " ";
  }
  EXPECT_EQ(compute, "F0 F1 F2 B0 F3 B1 F4 B2 F5 B3 B4 B5 ");
  // Each compute op carries its messages: stage 1 receives, computes, sends.
  EXPECT_EQ(describe(s.ops[1][0], 1), "recv-activation(0 ← stage 0)");
  EXPECT_EQ(describe(s.ops[1][1], 1), "forward(0)");
  EXPECT_EQ(describe(s.ops[1][2], 1), "send-activation(0 → stage 2)");
  EXPECT_EQ(s.ops[0].front().kind, Kind::kForward);  // stage 0 receives no activations
  EXPECT_EQ(s.ops[3].back().kind, Kind::kSendGrad);  // the last stage receives no gradients
  EXPECT_EQ(s.ops[3].size(), 6u * 4u);               // recv, F, B, send per micro-batch
  EXPECT_EQ(s.ops[1].size(), 6u * 6u);
}

TEST(PipelineSchedule, BothGeneratorsAreValidForManyShapes) {
  for (int P = 1; P <= 9; ++P) {
    for (int m = 1; m <= 12; ++m) {  // includes m < P: the pipe never fills
      for (const PipelineSchedule& s : {gpipe(P, m), one_f_one_b(P, m)}) {
        const PipelineCheck check = check_pipeline_schedule(s);
        EXPECT_TRUE(check.valid) << s.name << " P=" << P << " m=" << m << ": " << check.message;
        EXPECT_EQ(check.message, "");
      }
    }
  }
}

TEST(PipelineSchedule, MakespanAndBubbleMatchThePapers) {
  // Huang et al. 2019; Narayanan et al. 2021: T = (m + P − 1)(t_f + t_b), bubble (P − 1)/(m + P − 1).
  for (const double tb_over_tf : {1.0, 2.0, 3.5}) {
    for (int P = 1; P <= 8; ++P) {
      for (int m = 1; m <= 16; ++m) {
        const double tf = 0.25;
        const double tb = tb_over_tf * tf;
        for (const PipelineSchedule& s : {gpipe(P, m), one_f_one_b(P, m)}) {
          const PipelineTiming t = time_pipeline_schedule(s, tf, tb);
          const std::string where = s.name + " P=" + std::to_string(P) + " m=" + std::to_string(m);
          EXPECT_NEAR(t.makespan, (m + P - 1) * (tf + tb), 1e-12) << where;
          EXPECT_NEAR(t.bubble_fraction, double(P - 1) / (m + P - 1), 1e-12) << where;
          ASSERT_EQ(t.busy.size(), static_cast<std::size_t>(P));
          for (int st = 0; st < P; ++st) {
            EXPECT_NEAR(t.busy[st], m * (tf + tb), 1e-12) << where;
            EXPECT_NEAR(t.idle[st], (P - 1) * (tf + tb), 1e-12) << where;
          }
          EXPECT_EQ(t.spans.size(), static_cast<std::size_t>(2 * P * m)) << where;
        }
      }
    }
  }
}

TEST(PipelineSchedule, GPipeSpansFormTheTextbookStaircase) {
  // P = 3, m = 4, t_f = 1, t_b = 2: stage s runs forward(i) over [i + s, i + s + 1); the last stage starts
  // backwards at 6 and stage 0 finishes at (4 + 2)·3 = 18.
  const PipelineTiming t = time_pipeline_schedule(gpipe(3, 4), 1.0, 2.0);
  for (const PipelineSpan& span : t.spans) {
    if (span.kind == Kind::kForward) {
      EXPECT_DOUBLE_EQ(span.start, span.micro_batch + span.stage);
      EXPECT_DOUBLE_EQ(span.end, span.start + 1.0);
    } else {
      // backward(i) on stage s starts after the last stage's forwards (6) + (i + P − 1 − s) backwards.
      EXPECT_DOUBLE_EQ(span.start, 6.0 + 2.0 * (span.micro_batch + 2 - span.stage));
    }
  }
  EXPECT_DOUBLE_EQ(t.makespan, 18.0);
}

TEST(PipelineSchedule, P2PTimeStretchesTheCriticalPath) {
  // One micro-batch crosses P − 1 links forward and P − 1 back: T = P(t_f + t_b) + 2(P − 1)·p2p.
  for (int P = 1; P <= 6; ++P) {
    for (const PipelineSchedule& s : {gpipe(P, 1), one_f_one_b(P, 1)}) {
      EXPECT_NEAR(time_pipeline_schedule(s, 1.0, 2.0, 0.5).makespan, P * 3.0 + 2 * (P - 1) * 0.5, 1e-12);
    }
  }
  // More p2p time never makes a step shorter.
  double previous = 0;
  for (const double p2p : {0.0, 0.1, 0.2, 0.4, 0.8}) {
    const double now = time_pipeline_schedule(one_f_one_b(4, 8), 1.0, 2.0, p2p).makespan;
    EXPECT_GE(now, previous);
    previous = now;
  }
}

TEST(PipelineSchedule, PeakInFlightActivations) {
  for (int P = 1; P <= 8; ++P) {
    for (int m = 1; m <= 12; ++m) {
      const std::vector<int> g = peak_in_flight_activations(gpipe(P, m));
      const std::vector<int> f = peak_in_flight_activations(one_f_one_b(P, m));
      EXPECT_EQ(f[0], std::min(P, m)) << "1f1b P=" << P << " m=" << m;  // Narayanan et al. 2021
      for (int s = 0; s < P; ++s) {
        EXPECT_EQ(g[s], m) << "gpipe stage " << s;                // every micro-batch held at the turn
        EXPECT_EQ(f[s], std::min(P - s, m)) << "1f1b stage " << s;  // warm-up + 1
      }
    }
  }
}

TEST(PipelineSchedule, BackwardBeforeForwardIsNamed) {
  PipelineSchedule s = gpipe(3, 4);
  // On stage 2 (the last), move backward(1) ahead of forward(1).
  auto& ops = s.ops[2];
  const int b = position(s, 2, Kind::kBackward, 1);
  const PipelineOp moved = ops[static_cast<std::size_t>(b)];
  ops.erase(ops.begin() + b);
  ops.insert(ops.begin() + position(s, 2, Kind::kForward, 1), moved);
  const PipelineCheck check = check_pipeline_schedule(s);
  EXPECT_FALSE(check.valid);
  EXPECT_EQ(check.message, "stage 2: backward(1) comes before forward(1)");
  try {
    time_pipeline_schedule(s, 1, 2);
    FAIL();
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "stage 2: backward(1) comes before forward(1)")) << e.what();
  }
  EXPECT_THROW(peak_in_flight_activations(s), Error);
}

TEST(PipelineSchedule, MissingOpsAreNamed) {
  PipelineSchedule s = one_f_one_b(4, 5);
  s.ops[1].erase(s.ops[1].begin() + position(s, 1, Kind::kSendActivation, 3));
  EXPECT_EQ(check_pipeline_schedule(s).message, "stage 1: micro-batch 3 has no send-activation(3 → stage 2)");

  s = one_f_one_b(4, 5);
  s.ops[2].erase(s.ops[2].begin() + position(s, 2, Kind::kBackward, 4));
  EXPECT_EQ(check_pipeline_schedule(s).message, "stage 2: send-grad(4 → stage 1) comes before backward(4)");

  s = gpipe(2, 3);
  s.ops[0].erase(s.ops[0].begin() + position(s, 0, Kind::kForward, 2));
  EXPECT_EQ(check_pipeline_schedule(s).message, "stage 0: send-activation(2 → stage 1) comes before forward(2)");
}

TEST(PipelineSchedule, OutOfOrderDuplicateAndMisplacedOps) {
  PipelineSchedule s = gpipe(2, 3);
  std::swap(s.ops[0][0], s.ops[0][2]);  // stage 0: F0 S0 F1 → F1 S0 F0
  EXPECT_EQ(check_pipeline_schedule(s).message,
            "stage 0: forward(1) comes before forward(0): forwards must run in micro-batch order");

  s = gpipe(2, 2);
  s.ops[1].push_back({Kind::kBackward, 0});
  EXPECT_EQ(check_pipeline_schedule(s).message, "stage 1: backward(0) appears twice");

  s = gpipe(2, 2);
  s.ops[0].insert(s.ops[0].begin(), {Kind::kRecvActivation, 0});
  EXPECT_EQ(check_pipeline_schedule(s).message, "stage 0: recv-activation(0) has no previous stage to talk to");

  s = gpipe(1, 2);
  s.ops[0].push_back({Kind::kSendActivation, 0});
  EXPECT_EQ(check_pipeline_schedule(s).message, "stage 0: send-activation(0) has no next stage to talk to");

  s = gpipe(2, 2);
  s.ops[1][0].micro_batch = 7;
  EXPECT_EQ(check_pipeline_schedule(s).message, "stage 1: micro-batch 7 is out of range (0 to 1)");
}

TEST(PipelineSchedule, DeadlockNamesWhoWaitsForWhat) {
  // Stage 0 waits for a gradient before it has sent the activation that gradient depends on.
  PipelineSchedule s = empty_pipeline_schedule("broken", 2, 1);
  s.ops[0] = {{Kind::kForward, 0}, {Kind::kRecvGrad, 0}, {Kind::kSendActivation, 0}, {Kind::kBackward, 0}};
  add_forward(s, 1, 0);
  add_backward(s, 1, 0);
  const PipelineCheck check = check_pipeline_schedule(s);
  EXPECT_FALSE(check.valid);
  EXPECT_EQ(check.message,
            "deadlock: stage 0 waits for the gradient of micro-batch 0 from stage 1, "
            "stage 1 waits for the activation of micro-batch 0 from stage 0");
  EXPECT_THROW(time_pipeline_schedule(s, 1, 1), DeadlockError);
}

TEST(PipelineSchedule, RejectsBadArguments) {
  EXPECT_THROW(gpipe(0, 4), Error);
  EXPECT_THROW(one_f_one_b(4, 0), Error);
  EXPECT_THROW(one_f_one_b(-1, 4), Error);
  EXPECT_THROW(time_pipeline_schedule(gpipe(2, 2), 0, 1), Error);
  EXPECT_THROW(time_pipeline_schedule(gpipe(2, 2), 1, NAN), Error);
  EXPECT_THROW(time_pipeline_schedule(gpipe(2, 2), 1, 1, -0.1), Error);
  PipelineSchedule s = gpipe(2, 2);
  EXPECT_THROW(add_forward(s, 2, 0), Error);
  EXPECT_THROW(add_backward(s, 0, 2), Error);
  s.ops.pop_back();
  EXPECT_EQ(check_pipeline_schedule(s).message, "the schedule has 2 stages but ops for 1");
  try {
    gpipe(0, 4);
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "a pipeline needs at least 1 stage, got 0");
  }
}

}  // namespace
}  // namespace dsml
