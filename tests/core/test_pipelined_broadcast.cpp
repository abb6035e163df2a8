// The pipelined broadcasts (broadcast_pipelined_chain.cpp, broadcast_pipelined_tree.cpp): every rank ends with
// the root's data on buffers, the simulator on the single-port switch reproduces T(k) = (a·k + c)(α + nβ/k)
// exactly for n a multiple of 4k, and best_segments is the brute-force argmin and the textbook k*.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "dsml/collective_cost.h"
#include "dsml/collective_executor.h"
#include "dsml/error.h"
#include "dsml/schedule.h"
#include "dsml/simulator.h"

namespace {

using dsml::CostModel;

const CostModel kModel{2e-6, 1e-9, 0.0};  // α = 2 µs, 1 GB/s: α and one 2 kB segment weigh the same

double simulated(const std::string& algorithm, int p, double bytes, int k, int root) {
  const dsml::Schedule s = dsml::make_schedule("broadcast", algorithm, p, bytes, root, 0, k);
  return dsml::simulate(dsml::Network{p, kModel}, dsml::to_programs(s, 0.0)).makespan;
}

double formula(const std::string& algorithm, int p, double bytes, int k, const CostModel& m = kModel) {
  return dsml::closed_form_time("broadcast", algorithm, p, bytes, m, 0, k).total();
}

TEST(PipelinedBroadcast, EveryRankEndsWithTheRootsSegments) {
  for (const char* algorithm : {"pipelined-chain", "pipelined-tree"})
    for (int p = 1; p <= 17; ++p)
      for (int k : {1, 2, 5, 16})
        for (int root : {0, p / 2, p - 1}) {
          const dsml::Schedule s = dsml::make_schedule("broadcast", algorithm, p, 4.0 * 3 * k + 4, root, 0, k);
          ASSERT_EQ(s.slot_bytes.size(), static_cast<std::size_t>(k));
          const dsml::VerifyResult r = dsml::verify(s);
          EXPECT_TRUE(r.ok) << algorithm << " p=" << p << " k=" << k << " root=" << root << ": " << r.message;
        }
}

TEST(PipelinedBroadcast, ChainSendsEachSegmentOnceOverEachLink) {
  const dsml::Schedule s = dsml::make_schedule("broadcast", "pipelined-chain", 4, 4.0 * 6, 1, 0, 3);
  // Relative order 1 → 2 → 3 → 0: rank 2 receives segment i from 1 and forwards it to 3, segment by segment.
  ASSERT_EQ(s.steps[2].size(), 6u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(s.steps[2][2 * i].kind, dsml::ScheduleStep::Kind::kRecvCopy);
    EXPECT_EQ(s.steps[2][2 * i].peer, 1);
    EXPECT_EQ(s.steps[2][2 * i + 1].kind, dsml::ScheduleStep::Kind::kSend);
    EXPECT_EQ(s.steps[2][2 * i + 1].peer, 3);
    EXPECT_EQ(s.steps[2][2 * i + 1].slots, std::vector<int>{i});
  }
  EXPECT_EQ(s.steps[1].size(), 3u);  // the root only sends
  EXPECT_EQ(s.steps[0].size(), 3u);  // the end only receives
}

TEST(PipelinedBroadcast, SimulatorMatchesTheClosedForm) {
  for (const char* algorithm : {"pipelined-chain", "pipelined-tree"})
    for (int p = 1; p <= 20; ++p)
      for (int k : {1, 2, 3, 8, 13})
        for (double elements : {1.0, 500.0}) {
          const double bytes = 4.0 * k * elements;
          const double want = formula(algorithm, p, bytes, k);
          EXPECT_NEAR(simulated(algorithm, p, bytes, k, p / 3), want, 1e-9 * want)
              << algorithm << " p=" << p << " k=" << k << " bytes=" << bytes;
        }
}

TEST(PipelinedBroadcast, PublishedFormsByHand) {
  const CostModel m{5e-6, 1 / 25e9, 0.0};
  const double n = 1e8;
  // The Week 2 example: p = 8, 100 MB, 5 µs, 25 GB/s, k = 100 → 106 steps of 5 µs + 40 µs = 4.77 ms.
  EXPECT_NEAR(formula("pipelined-chain", 8, n, 100, m), 106 * (5e-6 + 40e-6), 1e-15);
  // k = 1 is the unpipelined chain: as slow as the linear broadcast, (p − 1)(α + nβ).
  EXPECT_NEAR(formula("pipelined-chain", 8, n, 1, m),
              dsml::closed_form_time("broadcast", "linear", 8, n, m).total(), 1e-15);
  // A full binary tree of depth D (p = 2^(D+1) − 1): 2(k − 1 + D) steps. p = 15, D = 3.
  EXPECT_NEAR(formula("pipelined-tree", 15, n, 10, m), 2 * (10 - 1 + 3) * (5e-6 + n / 10 / 25e9), 1e-15);
  // p = 3: the root sends every segment twice, 2k steps.
  EXPECT_EQ(dsml::pipeline_shape("pipelined-tree", 3).per_segment, 2.0);
  EXPECT_EQ(dsml::pipeline_shape("pipelined-tree", 3).startup, 0.0);
  // p = 12: the latest rank is 10 (label 11 = 1011b: depth 3, two right turns) → A = 5.
  EXPECT_EQ(dsml::pipeline_shape("pipelined-tree", 12).startup, 3.0);
  // Segments default to p, as in make_schedule.
  EXPECT_EQ(formula("pipelined-chain", 8, n, 0, m), formula("pipelined-chain", 8, n, 8, m));
}

TEST(PipelinedBroadcast, BestSegmentsIsTheArgminAndTheTextbookOptimum) {
  const CostModel m{5e-6, 1 / 25e9, 0.0};
  const dsml::BestSegments best = dsml::best_segments("pipelined-chain", 8, 1e8, m);
  EXPECT_NEAR(best.optimum, std::sqrt(6 * 1e8 / 25e9 / 5e-6), 1e-9);  // √4800 = 69.28
  EXPECT_EQ(best.segments, 69);
  EXPECT_NEAR(best.seconds, 75 * (5e-6 + 1e8 / 69 / 25e9), 1e-15);
  // At k*, T = (√((p − 2)α) + √(nβ))² (the real-valued optimum).
  const double at_optimum = (best.optimum + 6) * (5e-6 + 1e8 / best.optimum / 25e9);
  EXPECT_NEAR(at_optimum, std::pow(std::sqrt(6 * 5e-6) + std::sqrt(1e8 / 25e9), 2), 1e-12);
  for (const char* algorithm : {"pipelined-chain", "pipelined-tree"})
    for (int p : {2, 3, 5, 8, 31, 64})
      for (double n : {0.0, 4e3, 1e6, 3e8}) {
        const dsml::BestSegments b = dsml::best_segments(algorithm, p, n, m);
        for (int k = 1; k <= 3000; ++k)
          ASSERT_LE(b.seconds, formula(algorithm, p, n, k, m) * (1 + 1e-12))
              << algorithm << " p=" << p << " n=" << n << ": k=" << k << " beats k=" << b.segments;
      }
  // Nothing to overlap: two ranks, or no bytes → one segment.
  EXPECT_EQ(dsml::best_segments("pipelined-chain", 2, 1e9, m).segments, 1);
  EXPECT_EQ(dsml::best_segments("pipelined-chain", 64, 0, m).segments, 1);
  // No latency: as many segments as a schedule may have.
  EXPECT_EQ(dsml::best_segments("pipelined-chain", 8, 1e9, CostModel{0, 1e-9, 0}).segments, 4194304 / 8);
}

TEST(PipelinedBroadcast, BadArgumentsAreNamed) {
  EXPECT_THROW(dsml::make_schedule("broadcast", "pipelined-chain", 8, 64, 0, 0, -1), dsml::Error);
  EXPECT_THROW(dsml::make_schedule("broadcast", "pipelined-tree", 1024, 64, 0, 0, 5000), dsml::Error);
  EXPECT_THROW(dsml::closed_form_time("broadcast", "pipelined-chain", 8, 64, kModel, 0, -2), dsml::Error);
  EXPECT_THROW(dsml::best_segments("pipelined-ring", 8, 64, kModel), dsml::Error);
  try {
    dsml::make_schedule("broadcast", "pipelined-chain", 8, 64, 0, 0, 600000);
    FAIL();
  } catch (const dsml::Error& e) {
    EXPECT_NE(std::string(e.what()).find("segments between 1 and 524288"), std::string::npos) << e.what();
  }
}

}  // namespace
