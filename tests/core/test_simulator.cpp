// The discrete-event simulator: timing under the α–β single-port model, link contention, (source, tag)
// matching, deadlock reports, validation and determinism.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dsml/error.h"
#include "test_support.h"
#include "dsml/simulator.h"

namespace {

using dsml::Program;
using dsml::SimResult;
using dsml::Span;
using dsml::Step;

constexpr double kAlpha = 1e-6;  // s
constexpr double kBeta = 1e-9;   // s/B (1 GB/s)

dsml::Network net(int ranks, double alpha = kAlpha, double beta = kBeta) {
  dsml::Network network;
  network.ranks = ranks;
  network.model.alpha = alpha;
  network.model.beta = beta;
  return network;
}

double T(double bytes) { return kAlpha + kBeta * bytes; }

std::string deadlock_of(const std::vector<Program>& programs) {
  try {
    dsml::simulate(net(static_cast<int>(programs.size())), programs);
  } catch (const dsml::DeadlockError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected dsml::DeadlockError";
  return "";
}

// Spans of one rank never overlap and are sorted by (rank, start).
void expect_well_formed(const SimResult& r) {
  for (std::size_t i = 1; i < r.spans.size(); ++i) {
    const Span& a = r.spans[i - 1];
    const Span& b = r.spans[i];
    ASSERT_LE(a.rank, b.rank);
    if (a.rank == b.rank) {
      EXPECT_LE(a.end, b.start) << "rank " << a.rank << " spans overlap";
    }
  }
  for (const Span& s : r.spans) EXPECT_LT(s.start, s.end);
}

TEST(Simulator, OneMessage) {
  const SimResult r = dsml::simulate(net(2), {{Step::send(1, 1000, 7)}, {Step::recv(0, 7)}});
  EXPECT_DOUBLE_EQ(r.makespan, T(1000));
  ASSERT_EQ(r.messages.size(), 1u);
  const dsml::MessageRecord& m = r.messages[0];
  EXPECT_EQ(m.src, 0);
  EXPECT_EQ(m.dst, 1);
  EXPECT_EQ(m.tag, 7);
  EXPECT_DOUBLE_EQ(m.posted, 0.0);
  EXPECT_DOUBLE_EQ(m.started, 0.0);
  EXPECT_DOUBLE_EQ(m.arrived, T(1000));
  EXPECT_DOUBLE_EQ(m.received, T(1000));
  EXPECT_DOUBLE_EQ(r.total_bytes, 1000.0);
  EXPECT_EQ(r.events, 3u);  // two initial resumes + one arrival
  ASSERT_EQ(r.spans.size(), 2u);
  EXPECT_EQ(r.spans[0].kind, Span::Kind::kSend);
  EXPECT_EQ(r.spans[0].peer, 1);
  EXPECT_DOUBLE_EQ(r.spans[0].bytes, 1000.0);
  EXPECT_EQ(r.spans[1].kind, Span::Kind::kWait);  // rank 1 waited in recv for rank 0
  EXPECT_EQ(r.spans[1].rank, 1);
  EXPECT_EQ(r.spans[1].peer, 0);
  EXPECT_DOUBLE_EQ(r.spans[1].end, T(1000));
}

TEST(Simulator, ComputeOccupiesTheRankAndEagerSendDoesNotWaitForRecv) {
  // Rank 1 computes for 1 ms before posting recv: the eager send finished long before, so recv returns at once.
  const SimResult r = dsml::simulate(net(2), {{Step::send(1, 4096)}, {Step::compute(1e-3), Step::recv(0)}});
  EXPECT_DOUBLE_EQ(r.finish_time[0], T(4096));
  EXPECT_DOUBLE_EQ(r.finish_time[1], 1e-3);
  EXPECT_DOUBLE_EQ(r.messages[0].arrived, T(4096));
  EXPECT_DOUBLE_EQ(r.messages[0].received, 1e-3);
  ASSERT_EQ(r.spans.size(), 2u);
  EXPECT_EQ(r.spans[1].kind, Span::Kind::kCompute);
  expect_well_formed(r);
}

TEST(Simulator, ZeroComputeLeavesNoSpan) {
  const SimResult r = dsml::simulate(net(1), {{Step::compute(0), Step::compute(2e-6)}});
  ASSERT_EQ(r.spans.size(), 1u);
  EXPECT_DOUBLE_EQ(r.makespan, 2e-6);
}

TEST(Simulator, RecvMatchesSourceAndTagInFifoOrder) {
  // Rank 0 sends tags 1, 2, 1 (sizes 10, 20, 30); rank 1 asks for tag 2 first, then the two tag-1 messages.
  const SimResult r = dsml::simulate(
      net(2), {{Step::send(1, 10, 1), Step::send(1, 20, 2), Step::send(1, 30, 1)},
               {Step::recv(0, 2), Step::recv(0, 1), Step::recv(0, 1)}});
  ASSERT_EQ(r.messages.size(), 3u);
  const double t1 = T(10), t2 = t1 + T(20), t3 = t2 + T(30);
  EXPECT_DOUBLE_EQ(r.messages[0].received, t2);  // tag 1 (10 B) waited in the mailbox for the tag-2 recv
  EXPECT_DOUBLE_EQ(r.messages[1].received, t2);  // tag 2
  EXPECT_DOUBLE_EQ(r.messages[2].received, t3);  // the second tag-1 message, after the first (FIFO)
  EXPECT_DOUBLE_EQ(r.makespan, t3);
  expect_well_formed(r);
}

TEST(Simulator, GatherSerialisesOnTheRootsDownlink) {
  const int p = 5;
  std::vector<Program> programs(p);
  for (int r = 1; r < p; ++r) {
    programs[r] = {Step::send(0, 1000)};
    programs[0].push_back(Step::recv(r));
  }
  const SimResult r = dsml::simulate(net(p), programs);
  EXPECT_NEAR(r.makespan, (p - 1) * T(1000), 1e-18);
  ASSERT_EQ(r.messages.size(), static_cast<std::size_t>(p - 1));
  for (int k = 0; k < p - 1; ++k) {
    const dsml::MessageRecord& m = r.messages[k];  // in order of transmission start
    EXPECT_EQ(m.src, k + 1);
    EXPECT_DOUBLE_EQ(m.posted, 0.0);
    EXPECT_NEAR(m.started, k * T(1000), 1e-18);
    EXPECT_NEAR(m.arrived, (k + 1) * T(1000), 1e-18);
    EXPECT_NEAR(r.finish_time[k + 1], (k + 1) * T(1000), 1e-18);
  }
  // Rank 3 waited for rank 0's busy downlink from 0 until its transfer began at 2T.
  bool found = false;
  for (const Span& s : r.spans) {
    if (s.rank == 3 && s.kind == Span::Kind::kWait) {
      found = true;
      EXPECT_EQ(s.peer, 0);
      EXPECT_DOUBLE_EQ(s.start, 0.0);
      EXPECT_NEAR(s.end, 2 * T(1000), 1e-18);
    }
  }
  EXPECT_TRUE(found);
  expect_well_formed(r);
}

TEST(Simulator, DisjointPairsDoNotContend) {
  const SimResult r = dsml::simulate(
      net(4), {{Step::send(1, 1000)}, {Step::recv(0)}, {Step::send(3, 1000)}, {Step::recv(2)}});
  EXPECT_DOUBLE_EQ(r.makespan, T(1000));
  for (const dsml::MessageRecord& m : r.messages) EXPECT_DOUBLE_EQ(m.started, 0.0);
}

TEST(Simulator, FullDuplexLinksCarryBothDirectionsAtOnce) {
  // 0 → 1 and 1 → 0 at the same time use different directions of each link: both take T, not 2T.
  const SimResult r = dsml::simulate(net(2), {{Step::send(1, 1000), Step::recv(1)},
                                              {Step::send(0, 1000), Step::recv(0)}});
  EXPECT_DOUBLE_EQ(r.makespan, T(1000));
}

TEST(Simulator, BlockingSendSerialisesARanksOwnSends) {
  // The root's two sends go to different downlinks but leave one after the other.
  const SimResult r = dsml::simulate(
      net(3), {{Step::send(1, 1000), Step::send(2, 3000)}, {Step::recv(0)}, {Step::recv(0)}});
  EXPECT_DOUBLE_EQ(r.finish_time[1], T(1000));
  EXPECT_DOUBLE_EQ(r.finish_time[2], T(1000) + T(3000));
  EXPECT_DOUBLE_EQ(r.total_bytes, 4000.0);
}

TEST(Simulator, UnreceivedMessageIsNotAnError) {
  const SimResult r = dsml::simulate(net(2), {{Step::send(1, 8)}, {}});
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_TRUE(std::isnan(r.messages[0].received));
  EXPECT_DOUBLE_EQ(r.finish_time[1], 0.0);
}

TEST(Simulator, DeadlockTwoRanksBothReceiveFirst) {
  EXPECT_EQ(deadlock_of({{Step::recv(1), Step::send(1, 8)}, {Step::recv(0), Step::send(0, 8)}}),
            "deadlock: rank 0 waits for rank 1, rank 1 waits for rank 0");
}

TEST(Simulator, DeadlockThreeCycleStartsAtItsLowestRank) {
  // 0 waits for 2, 2 waits for 1, 1 waits for 0; rank 3 is fine and finishes.
  EXPECT_EQ(deadlock_of({{Step::recv(2)}, {Step::recv(0)}, {Step::recv(1)}, {Step::compute(1e-6)}}),
            "deadlock: rank 0 waits for rank 2, rank 2 waits for rank 1, rank 1 waits for rank 0");
  // A rank on a tail leading into the cycle is not part of the report.
  EXPECT_EQ(deadlock_of({{Step::recv(1)}, {Step::recv(2)}, {Step::recv(1)}}),
            "deadlock: rank 1 waits for rank 2, rank 2 waits for rank 1");
}

TEST(Simulator, DeadlockAfterSomeProgress) {
  // A ring exchange that works once, then both ranks receive first.
  EXPECT_EQ(deadlock_of({{Step::send(1, 8), Step::recv(1), Step::recv(1)},
                         {Step::recv(0), Step::send(0, 8), Step::recv(0)}}),
            "deadlock: rank 0 waits for rank 1, rank 1 waits for rank 0");
}

TEST(Simulator, WaitingForARankThatFinished) {
  EXPECT_EQ(deadlock_of({{Step::compute(1e-6)}, {Step::recv(0)}}),
            "deadlock: rank 1 waits for rank 0, which finished without sending");
}

TEST(Simulator, DeadlockNamesATagMismatch) {
  const std::string message = deadlock_of({{Step::send(1, 8, 1)}, {Step::recv(0, 0)}});
  EXPECT_EQ(message.rfind("deadlock: rank 1 waits for rank 0, which finished without sending", 0), 0u) << message;
  EXPECT_NE(message.find("rank 1 waits for tag 0 but holds an unreceived message from rank 0 with tag 1"),
            std::string::npos)
      << message;
}

TEST(Simulator, RejectsBadPrograms) {
  EXPECT_NE(error_of([] { dsml::simulate(net(2), {{Step::send(5, 1)}, {}}); })
                .find("rank 0 step 0: send to rank 5, but ranks are numbered 0 to 1"),
            std::string::npos);
  EXPECT_NE(error_of([] { dsml::simulate(net(2), {{}, {Step::compute(1), Step::recv(-1)}}); })
                .find("rank 1 step 1: recv from rank -1"),
            std::string::npos);
  EXPECT_NE(error_of([] { dsml::simulate(net(2), {{Step::send(0, 1)}, {}}); }).find("rank 0 step 0: send to itself"),
            std::string::npos);
  EXPECT_NE(error_of([] { dsml::simulate(net(2), {{}, {Step::recv(1)}}); }).find("recv from itself"),
            std::string::npos);
  EXPECT_NE(error_of([] { dsml::simulate(net(2), {{Step::send(1, -8)}, {}}); })
                .find("rank 0 step 0: bytes must be a finite number >= 0, got -8"),
            std::string::npos);
  EXPECT_NE(error_of([] { dsml::simulate(net(2), {{Step::send(1, std::numeric_limits<double>::infinity())}, {}}); })
                .find("got inf"),
            std::string::npos);
  EXPECT_NE(error_of([] { dsml::simulate(net(1), {{Step::compute(std::nan(""))}}); })
                .find("rank 0 step 0: compute seconds must be a finite number >= 0, got nan"),
            std::string::npos);
  EXPECT_NE(error_of([] { dsml::simulate(net(2), {{}}); }).find("programs has 1 entries but ranks is 2"),
            std::string::npos);
  EXPECT_NE(error_of([] { dsml::simulate(net(0), {}); }).find("at least 1 rank"), std::string::npos);
}

TEST(Simulator, RejectsBadNetwork) {
  EXPECT_NE(error_of([] { dsml::simulate(net(2, 1e-6, 0.0), {{}, {}}); }).find("beta"), std::string::npos);
  EXPECT_NE(error_of([] { dsml::simulate(net(2, -1e-6, 1e-9), {{}, {}}); }).find("alpha"), std::string::npos);
  EXPECT_NE(error_of([] { dsml::simulate(net(2, 1e-6, std::nan("")), {{}, {}}); }).find("got nan"),
            std::string::npos);
}

TEST(Simulator, IsDeterministic) {
  // A busy all-to-all-ish pattern with many same-time events; two runs must agree field by field.
  const int p = 6;
  std::vector<Program> programs(p);
  for (int r = 0; r < p; ++r) {
    for (int k = 1; k < p; ++k) programs[r].push_back(Step::send((r + k) % p, 100.0 * (r + 1), k));
    for (int k = 1; k < p; ++k) programs[r].push_back(Step::recv((r + p - k) % p, k));
  }
  const SimResult a = dsml::simulate(net(p), programs);
  const SimResult b = dsml::simulate(net(p), programs);
  EXPECT_EQ(a.events, b.events);
  EXPECT_EQ(a.makespan, b.makespan);
  EXPECT_EQ(a.finish_time, b.finish_time);
  ASSERT_EQ(a.messages.size(), b.messages.size());
  for (std::size_t i = 0; i < a.messages.size(); ++i) {
    EXPECT_EQ(a.messages[i].src, b.messages[i].src);
    EXPECT_EQ(a.messages[i].dst, b.messages[i].dst);
    EXPECT_EQ(a.messages[i].started, b.messages[i].started);
    EXPECT_EQ(a.messages[i].received, b.messages[i].received);
  }
  ASSERT_EQ(a.spans.size(), b.spans.size());
  for (std::size_t i = 0; i < a.spans.size(); ++i) {
    EXPECT_EQ(a.spans[i].rank, b.spans[i].rank);
    EXPECT_EQ(a.spans[i].start, b.spans[i].start);
    EXPECT_EQ(a.spans[i].end, b.spans[i].end);
  }
  EXPECT_EQ(dsml::format_trace(a), dsml::format_trace(b));
  expect_well_formed(a);
  for (std::size_t i = 1; i < a.messages.size(); ++i) EXPECT_LE(a.messages[i - 1].started, a.messages[i].started);
}

}  // namespace
