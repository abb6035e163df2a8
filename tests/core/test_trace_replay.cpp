// Replaying a recorded run: the programs rebuilt from a trace reproduce the pattern, and the simulator
// times them like the hand-written scenario they came from.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "dsml/error.h"
#include "dsml/scenarios.h"
#include "dsml/simulator.h"
#include "dsml/trace_replay.h"

namespace dsml {
namespace {

TEST(TraceReplay, TokenRingTraceRebuildsTheRing) {
  // Rank 0 → 1 → 2 → 0, as a Worker run would record it (times in s, any clock).
  const std::vector<TraceRecord> trace = {
      {0, 1, 8, 0.10, 0.11}, {1, 2, 8, 0.12, 0.13}, {2, 0, 8, 0.14, 0.15}};
  const auto programs = programs_from_trace(3, trace);
  ASSERT_EQ(programs.size(), 3u);
  ASSERT_EQ(programs[0].size(), 2u);
  EXPECT_EQ(programs[0][0].kind, Step::Kind::kSend);
  EXPECT_EQ(programs[0][0].peer, 1);
  EXPECT_EQ(programs[0][1].kind, Step::Kind::kRecv);
  EXPECT_EQ(programs[0][1].peer, 2);
  EXPECT_EQ(programs[1][0].kind, Step::Kind::kRecv);
  EXPECT_EQ(programs[1][1].kind, Step::Kind::kSend);
  const CostModel m{1e-6, 1e-9, 0};
  const double t = m.alpha + m.beta * 8;
  EXPECT_NEAR(simulate(Network{3, m}, programs).makespan, 3 * t, 1e-15);
  EXPECT_NEAR(simulate(Network{3, m}, token_ring(3, 8)).makespan, 3 * t, 1e-15);
}

TEST(TraceReplay, ReceiveBeforeSendAtTheSameInstant) {
  const std::vector<TraceRecord> trace = {{0, 1, 4, 1.0, 2.0}, {1, 0, 4, 2.0, 3.0}};
  const auto programs = programs_from_trace(2, trace);
  EXPECT_EQ(programs[1][0].kind, Step::Kind::kRecv);
  EXPECT_EQ(programs[1][1].kind, Step::Kind::kSend);
}

TEST(TraceReplay, UnreceivedMessagesAreSentOnly) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto programs = programs_from_trace(2, {{0, 1, 4, 1.0, nan}});
  EXPECT_EQ(programs[0].size(), 1u);
  EXPECT_TRUE(programs[1].empty());
}

TEST(TraceReplay, RejectsBadRecords) {
  EXPECT_THROW(programs_from_trace(0, {}), Error);
  EXPECT_THROW(programs_from_trace(2, {{0, 2, 4, 0, 1}}), Error);
  EXPECT_THROW(programs_from_trace(2, {{1, 1, 4, 0, 1}}), Error);
  EXPECT_THROW(programs_from_trace(2, {{0, 1, -4, 0, 1}}), Error);
}

}  // namespace
}  // namespace dsml
