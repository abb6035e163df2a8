// The hierarchical all-reduce made step by step (lazy_hierarchical.cpp) and the simulator at the planner's scale:
// the lazy steps are make_schedule's, their simulation is bit-identical to the built schedule's, and at 1024 ranks
// the ring and the hierarchical all-reduce simulated step by step meet the closed form the planner prices them with
// (closed_form_time, core/planner/step_planner.cpp) to 1e-9 relative — the simulator's sums of α and β·n/p over
// 2(p − 1) rounds, against the formula's products, differ only in rounding.
#include <gtest/gtest.h>

#include <string>

#include "dsml/collective_cost.h"
#include "dsml/lazy_schedule.h"
#include "dsml/schedule.h"
#include "dsml/simulator.h"
#include "dsml/topology.h"
#include "test_support.h"

namespace {

// The planner's A100 links (planner_presets.cpp): network 25 GB/s per GPU, NVLink 300 GB/s, 5 µs each.
const dsml::CostModel kNetwork = dsml::CostModel::from_bandwidth(5e-6, 25e9);
const dsml::CostModel kNvlink = dsml::CostModel::from_bandwidth(5e-6, 300e9);
const dsml::SimOptions kLean{false, false};

TEST(LazyHierarchical, StepsAreMakeSchedulesForEveryShape) {
  struct Shape {
    int ranks, per_node;
  };
  // One node, one device per node, a few nodes of 8, odd shapes; bytes that split unequally into slots.
  for (const Shape s : {Shape{8, 8}, Shape{5, 1}, Shape{24, 8}, Shape{12, 3}, Shape{6, 2}, Shape{64, 8}, Shape{1, 1}})
    for (double bytes : {0.0, 4.0 * s.ranks * 5, 4.0 * s.ranks * 5 + 12}) {
      const auto lazy = dsml::make_lazy_schedule("all-reduce", "hierarchical", s.ranks, bytes, 0, s.per_node);
      const dsml::Schedule built = dsml::make_schedule("all-reduce", "hierarchical", s.ranks, bytes, 0, s.per_node);
      const dsml::Schedule made = dsml::materialise(*lazy);
      const std::string what = "p=" + std::to_string(s.ranks) + " d=" + std::to_string(s.per_node);
      EXPECT_EQ(made.slot_bytes, built.slot_bytes) << what;
      ASSERT_EQ(made.steps.size(), built.steps.size()) << what;
      for (std::size_t r = 0; r < built.steps.size(); ++r) {
        ASSERT_EQ(made.steps[r].size(), built.steps[r].size()) << what << " rank " << r;
        for (std::size_t i = 0; i < built.steps[r].size(); ++i)
          ASSERT_EQ(dsml::describe(made.steps[r][i]), dsml::describe(built.steps[r][i]))
              << what << " rank " << r << " step " << i;
      }
    }
}

TEST(LazyHierarchical, StepsAskedBackwardsAreTheSame) {
  const auto lazy = dsml::make_lazy_schedule("all-reduce", "hierarchical", 24, 4 * 24, 0, 4);
  const dsml::Schedule built = dsml::make_schedule("all-reduce", "hierarchical", 24, 4 * 24, 0, 4);
  dsml::ScheduleStep step;
  for (int r = 23; r >= 0; --r)
    for (std::size_t i = built.steps[r].size(); i-- > 0;) {
      ASSERT_TRUE(lazy->step(r, i, step));
      EXPECT_EQ(dsml::describe(step), dsml::describe(built.steps[r][i])) << "rank " << r << " step " << i;
    }
  EXPECT_FALSE(lazy->step(5, built.steps[5].size(), step)) << "no step past the last";
}

// Lazy and built schedules, simulated on the same network, give the same result bit for bit — on the switch the
// closed forms assume and on the two-level cluster whose NICs the d inter-node rings share.
TEST(LazyHierarchical, SimulatesBitIdenticallyToTheBuiltSchedule) {
  constexpr int p = 1024, d = 8;
  constexpr double bytes = 4.0 * p * 16 + 8;  // unequal slots too
  const auto lazy = dsml::make_lazy_schedule("all-reduce", "hierarchical", p, bytes, 0, d);
  const auto built = dsml::read_lazily(dsml::make_schedule("all-reduce", "hierarchical", p, bytes, 0, d));
  for (const dsml::Topology& net : {dsml::Topology::fully_connected(p, kNetwork),
                                    dsml::Topology::hierarchical(p / d, d, kNvlink, kNetwork)}) {
    const dsml::SimResult a = dsml::simulate_schedule(net, *lazy, 1e-12, kLean);
    const dsml::SimResult b = dsml::simulate_schedule(net, *built, 1e-12, kLean);
    EXPECT_EQ(a.makespan, b.makespan) << net.kind();
    EXPECT_EQ(a.finish_time, b.finish_time) << net.kind();
    EXPECT_EQ(a.events, b.events) << net.kind();
    EXPECT_EQ(a.message_count, b.message_count) << net.kind();
    EXPECT_EQ(a.link_busy, b.link_busy) << net.kind();
  }
}

// What the planner prices, checked where it is used: a data-parallel all-reduce of 64 MiB over 1024 GPUs on the
// A100 network link, ring and hierarchical (8 GPUs a node), simulated against closed_form_time.
TEST(LazyHierarchical, AThousandRanksMeetThePlannersClosedForm) {
  constexpr int p = 1024;
  constexpr double bytes = 64.0 * 1024 * 1024;  // a multiple of 4p: equal chunks, the formula is exact
  const dsml::Topology net = dsml::Topology::fully_connected(p, kNetwork);
  for (const char* algorithm : {"ring", "hierarchical"}) {
    const int d = std::string(algorithm) == "ring" ? 0 : 8;
    const auto lazy = dsml::make_lazy_schedule("all-reduce", algorithm, p, bytes, 0, d);
    const dsml::SimResult r = dsml::simulate_schedule(net, *lazy, 0.0, kLean);
    const double formula = dsml::closed_form_time("all-reduce", algorithm, p, bytes, kNetwork, d).total();
    EXPECT_NEAR(r.makespan, formula, 1e-9 * formula) << algorithm;
    // Every rank sends once per round: 2(p − 1) rounds, or 2(d − 1) inside the node and 2(p/d − 1) across.
    const double rounds = d == 0 ? 2.0 * (p - 1) : 2.0 * (d - 1) + 2.0 * (p / d - 1);
    EXPECT_EQ(static_cast<double>(r.message_count), p * rounds) << algorithm;
  }
}

// The same algorithm on the two-level cluster (128 nodes × 8 GPUs, NVLink inside, one NIC per node of 8 × 25 GB/s):
// the 8 inter-node rings take turns on each NIC, and the simulated time is hierarchical_allreduce_two_level's.
TEST(LazyHierarchical, OnTheTwoLevelClusterMeetsItsClosedForm) {
  constexpr int nodes = 128, d = 8, p = nodes * d;
  constexpr double bytes = 64.0 * 1024 * 1024;
  const dsml::CostModel nic = dsml::CostModel::from_bandwidth(5e-6, 8 * 25e9);
  const auto lazy = dsml::make_lazy_schedule("all-reduce", "hierarchical", p, bytes, 0, d);
  const dsml::SimResult r =
      dsml::simulate_schedule(dsml::Topology::hierarchical(nodes, d, kNvlink, nic), *lazy, 0.0, kLean);
  const double formula = dsml::hierarchical_allreduce_two_level(nodes, d, bytes, kNvlink, nic).total();
  EXPECT_NEAR(r.makespan, formula, 1e-9 * formula);
  // With γ > 0 the reductions overlap other devices' turns on the NIC: the form is then an upper bound.
  dsml::CostModel reducing = kNvlink;
  reducing.gamma = 1e-11;
  const double slower = dsml::simulate_schedule(dsml::Topology::hierarchical(nodes, d, kNvlink, nic), *lazy,
                                                reducing.gamma, kLean).makespan;
  EXPECT_GT(slower, r.makespan);
  EXPECT_LE(slower, dsml::hierarchical_allreduce_two_level(nodes, d, bytes, reducing, nic).total());
}

TEST(LazyHierarchical, RefusesPastTheCapNamingIt) {
  EXPECT_EQ(dsml::kMaxRanksLazy, 16384);
  EXPECT_EQ(error_of([] { dsml::make_lazy_schedule("all-reduce", "hierarchical", 16392, 64, 0, 8); }),
            "ranks must be between 1 and 16384 for all-reduce hierarchical (its simulation moves O(p²) messages), "
            "got 16392");
  EXPECT_EQ(error_of([] { dsml::make_lazy_schedule("all-reduce", "hierarchical", 16, 64, 0, 3); }),
            "hierarchical needs devices_per_node dividing ranks, got devices_per_node = 3 for 16 ranks");
}

}  // namespace
