// The Schedule facade: the algorithm list, argument checks, slot layouts, the textbook step numbering the
// lessons quote, and to_programs().
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dsml/error.h"
#include "dsml/schedule.h"

namespace {

using dsml::Schedule;
using Kind = dsml::ScheduleStep::Kind;

std::string error_of(const std::string& collective, const std::string& algorithm, int ranks, double bytes,
                     int root = 0, int devices_per_node = 0) {
  try {
    dsml::make_schedule(collective, algorithm, ranks, bytes, root, devices_per_node);
  } catch (const dsml::Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(ListAlgorithms, NamesEveryCollectiveAndAlgorithm) {
  std::vector<std::string> names;
  for (const dsml::AlgorithmName& a : dsml::list_algorithms()) names.push_back(a.collective + "/" + a.algorithm);
  const std::vector<std::string> expected = {
      "broadcast/linear",           "broadcast/binomial-tree",       "broadcast/scatter-allgather",
      "broadcast/pipelined-chain",  "broadcast/pipelined-tree",      "reduce/linear",
      "reduce/binomial-tree",       "all-reduce/naive",
      "all-reduce/ring",            "all-reduce/recursive-doubling", "all-reduce/rabenseifner",
      "all-reduce/hierarchical",    "all-gather/ring",               "all-gather/recursive-doubling",
      "all-gather/bruck",           "reduce-scatter/ring",           "reduce-scatter/recursive-halving",
      "reduce-scatter/pairwise",    "all-to-all/pairwise"};
  EXPECT_EQ(names, expected);
}

TEST(MakeSchedule, RejectsBadArgumentsWithReadableMessages) {
  EXPECT_EQ(error_of("gather", "ring", 4, 16),
            "unknown collective \"gather\"; choose one of: broadcast, reduce, all-reduce, all-gather, reduce-scatter, "
            "all-to-all");
  EXPECT_EQ(error_of("all-reduce", "tree", 4, 16),
            "all-reduce has no algorithm \"tree\"; choose one of: naive, ring, recursive-doubling, rabenseifner, "
            "hierarchical");
  EXPECT_EQ(error_of("all-reduce", "ring", 0, 16), "ranks must be between 1 and 1024 for all-reduce ring (its "
                                                    "schedule lists O(p²) steps), got 0");
  EXPECT_EQ(error_of("broadcast", "binomial-tree", 70000, 16),
            "ranks must be between 1 and 65536 for broadcast binomial-tree, got 70000");
  EXPECT_EQ(error_of("all-reduce", "ring", 4, 1001),
            "bytes must be a whole number of float32 elements (a multiple of 4), got 1001");
  EXPECT_EQ(error_of("all-reduce", "ring", 4, -4), "bytes must be a finite number between 0 and 2^53, got -4");
  EXPECT_EQ(error_of("all-reduce", "ring", 4, NAN), "bytes must be a finite number between 0 and 2^53, got nan");
  EXPECT_EQ(error_of("broadcast", "linear", 4, 16, 4), "root must be a rank between 0 and 3, got 4");
  EXPECT_EQ(error_of("all-reduce", "hierarchical", 8, 16),
            "hierarchical needs devices_per_node dividing ranks, got devices_per_node = 0 for 8 ranks");
  EXPECT_EQ(error_of("all-reduce", "hierarchical", 8, 16, 0, 3),
            "hierarchical needs devices_per_node dividing ranks, got devices_per_node = 3 for 8 ranks");
}

TEST(MakeSchedule, RootAndDevicesOnlyWhereTheyMatter) {
  EXPECT_EQ(dsml::make_schedule("broadcast", "linear", 4, 16, 2).root, 2);
  EXPECT_EQ(dsml::make_schedule("all-reduce", "ring", 4, 16, 2).root, 0) << "all-reduce has no root";
  EXPECT_NO_THROW(dsml::make_schedule("all-reduce", "ring", 4, 16, 0, 3)) << "devices_per_node is for hierarchical";
}

TEST(MakeSchedule, ChunksAreAsEqualAsPossibleFirstOnesLarger) {
  // 4·5·3 + 8 = 68 bytes = 17 elements over 5 ranks: 4, 4, 3, 3, 3 elements.
  const Schedule s = dsml::make_schedule("all-gather", "ring", 5, 68);
  EXPECT_EQ(s.slot_bytes, (std::vector<double>{16, 16, 12, 12, 12}));
  EXPECT_EQ(s.owner, (std::vector<int>{0, 1, 2, 3, 4}));
  // Rabenseifner on 6 ranks folds to 4: four chunks.
  EXPECT_EQ(dsml::make_schedule("all-reduce", "rabenseifner", 6, 64).slot_bytes.size(), 4u);
  // All-to-all: p·p blocks, each rank's bytes split into p.
  const Schedule a2a = dsml::make_schedule("all-to-all", "pairwise", 3, 16);  // 4 elements: 2, 1, 1
  EXPECT_EQ(a2a.slot_bytes, (std::vector<double>{8, 4, 4, 8, 4, 4, 8, 4, 4}));
}

// The numbering the lessons quote: in step k of the ring all-reduce's reduce-scatter, rank r sends chunk
// (r − k) mod p to r + 1; in the all-gather, chunk (r + 1 − k) mod p.
TEST(MakeSchedule, RingAllReduceFollowsTheTextbookNumbering) {
  const int p = 5;
  const Schedule s = dsml::make_schedule("all-reduce", "ring", p, 4 * p);
  for (int r = 0; r < p; ++r) {
    std::vector<const dsml::ScheduleStep*> sends;
    for (const auto& step : s.steps[static_cast<std::size_t>(r)])
      if (step.kind == Kind::kSend) sends.push_back(&step);
    ASSERT_EQ(sends.size(), static_cast<std::size_t>(2 * (p - 1)));
    for (int k = 0; k < p - 1; ++k) {
      EXPECT_EQ(sends[static_cast<std::size_t>(k)]->peer, (r + 1) % p);
      EXPECT_EQ(sends[static_cast<std::size_t>(k)]->slots, std::vector<int>{((r - k) % p + p) % p});
      EXPECT_EQ(sends[static_cast<std::size_t>(p - 1 + k)]->slots, std::vector<int>{((r + 1 - k) % p + p) % p});
    }
  }
}

TEST(MakeSchedule, BinomialBroadcastSendsFarHalfFirst) {
  const Schedule s = dsml::make_schedule("broadcast", "binomial-tree", 8, 4, 0);
  std::vector<int> peers;
  for (const auto& step : s.steps[0]) peers.push_back(step.peer);
  EXPECT_EQ(peers, (std::vector<int>{4, 2, 1}));
  // Rooted at 3, everything shifts by 3 (mod 8).
  const Schedule t = dsml::make_schedule("broadcast", "binomial-tree", 8, 4, 3);
  peers.clear();
  for (const auto& step : t.steps[3]) peers.push_back(step.peer);
  EXPECT_EQ(peers, (std::vector<int>{7, 5, 4}));
}

TEST(ToPrograms, MapsStepsToSimulatorSteps) {
  const Schedule s = dsml::make_schedule("reduce-scatter", "ring", 3, 24);  // 8-byte chunks
  const std::vector<dsml::Program> programs = dsml::to_programs(s, 0.5);
  ASSERT_EQ(programs.size(), 3u);
  // Rank 0, step k = 0: send chunk 2 to rank 1; receive chunk 1 from rank 2 and add (0.5 s/B · 8 B = 4 s).
  const dsml::Program& p0 = programs[0];
  ASSERT_EQ(p0.size(), 6u);
  EXPECT_EQ(p0[0].kind, dsml::Step::Kind::kSend);
  EXPECT_EQ(p0[0].peer, 1);
  EXPECT_EQ(p0[0].bytes, 8.0);
  EXPECT_EQ(p0[1].kind, dsml::Step::Kind::kRecv);
  EXPECT_EQ(p0[1].peer, 2);
  EXPECT_EQ(p0[2].kind, dsml::Step::Kind::kCompute);
  EXPECT_EQ(p0[2].seconds, 4.0);
  EXPECT_EQ(dsml::describe(s.steps[0][0]), "send slot 2 to rank 1");
  EXPECT_EQ(dsml::describe(s.steps[0][1]), "recv-reduce slot 1 from rank 2");
  // A copy adds no compute step.
  const std::vector<dsml::Program> gather = dsml::to_programs(dsml::make_schedule("all-gather", "ring", 3, 24), 0.5);
  for (const dsml::Program& program : gather)
    for (const dsml::Step& step : program) EXPECT_NE(step.kind, dsml::Step::Kind::kCompute);
  EXPECT_THROW(dsml::to_programs(s, -1), dsml::Error);
  EXPECT_THROW(dsml::to_programs(s, NAN), dsml::Error);
}

TEST(MakeSchedule, OneRankIsEmptyAndBigRankCountsStayCompact) {
  for (const dsml::AlgorithmName& a : dsml::list_algorithms()) {
    const Schedule s = dsml::make_schedule(a.collective, a.algorithm, 1, 64, 0, 1);
    ASSERT_EQ(s.steps.size(), 1u);
    EXPECT_TRUE(s.steps[0].empty()) << a.algorithm;
  }
  // Recursive doubling on 4096 ranks: 12 exchanges per rank, 2 steps each.
  const Schedule big = dsml::make_schedule("all-reduce", "recursive-doubling", 4096, 4096);
  EXPECT_EQ(big.steps[17].size(), 24u);
}

}  // namespace
