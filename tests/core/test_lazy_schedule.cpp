// Lazy schedules (dsml/lazy_schedule.h): the same steps as make_schedule, the same simulated times, spans, messages
// and trace as to_programs() + simulate(), bit for bit; past make_schedule's 1024-rank cap, the ring all-reduce
// simulated step by step still meets its closed form.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dsml/collective_cost.h"
#include "dsml/lazy_schedule.h"
#include "dsml/schedule.h"
#include "dsml/simulator.h"
#include "dsml/topology.h"
#include "test_support.h"

namespace {

using dsml::Schedule;

const dsml::CostModel kModel{2e-6, 1e-9, 0.0};

// Rank counts that are powers of two, odd, one and two: where generators fold ranks or wrap around the ring.
const int kRanks[] = {1, 2, 3, 4, 5, 8, 12, 16};

// Byte counts that split into equal and unequal slots, and none.
std::vector<double> byte_counts(int ranks) { return {0.0, 4.0 * ranks * 3, 4.0 * ranks * 3 + 8, 4.0 * 1000}; }

int devices_for(const dsml::AlgorithmName& a, int ranks) { return a.algorithm == "hierarchical" ? (ranks % 2 ? 1 : 2) : 0; }

void expect_same_steps(const Schedule& lazy, const Schedule& built, const std::string& what) {
  EXPECT_EQ(lazy.collective, built.collective) << what;
  EXPECT_EQ(lazy.algorithm, built.algorithm) << what;
  EXPECT_EQ(lazy.ranks, built.ranks) << what;
  EXPECT_EQ(lazy.root, built.root) << what;
  EXPECT_EQ(lazy.slot_bytes, built.slot_bytes) << what;
  EXPECT_EQ(lazy.owner, built.owner) << what;
  ASSERT_EQ(lazy.steps.size(), built.steps.size()) << what;
  for (std::size_t r = 0; r < built.steps.size(); ++r) {
    ASSERT_EQ(lazy.steps[r].size(), built.steps[r].size()) << what << " rank " << r;
    for (std::size_t i = 0; i < built.steps[r].size(); ++i) {
      const dsml::ScheduleStep &a = lazy.steps[r][i], &b = built.steps[r][i];
      ASSERT_TRUE(a.kind == b.kind && a.peer == b.peer && a.slots == b.slots)
          << what << " rank " << r << " step " << i << ": lazy " << dsml::describe(a) << ", built "
          << dsml::describe(b);
    }
  }
}

// Every field of two results, compared exactly (EXPECT_EQ on doubles: bit-identical, not close).
void expect_same_result(const dsml::SimResult& lazy, const dsml::SimResult& built, const std::string& what) {
  EXPECT_EQ(lazy.makespan, built.makespan) << what;
  EXPECT_EQ(lazy.finish_time, built.finish_time) << what;
  EXPECT_EQ(lazy.total_bytes, built.total_bytes) << what;
  EXPECT_EQ(lazy.message_count, built.message_count) << what;
  EXPECT_EQ(lazy.events, built.events) << what;
  EXPECT_EQ(lazy.link_busy, built.link_busy) << what;
  EXPECT_EQ(lazy.busiest_link, built.busiest_link) << what;
  ASSERT_EQ(lazy.spans.size(), built.spans.size()) << what;
  ASSERT_EQ(lazy.messages.size(), built.messages.size()) << what;
  if (!lazy.spans.empty() && !lazy.messages.empty()) EXPECT_EQ(dsml::format_trace(lazy), dsml::format_trace(built)) << what;
}

TEST(LazySchedule, EveryAlgorithmGivesMakeSchedulesStepsInOrder) {
  for (const dsml::AlgorithmName& a : dsml::list_algorithms())
    for (int p : kRanks)
      for (double bytes : byte_counts(p)) {
        const std::string what = a.collective + "/" + a.algorithm + " p=" + std::to_string(p) +
                                 " bytes=" + std::to_string(bytes);
        const int root = p > 2 ? 2 : 0, devices = devices_for(a, p);
        expect_same_steps(dsml::materialise(*dsml::make_lazy_schedule(a.collective, a.algorithm, p, bytes, root, devices)),
                          dsml::make_schedule(a.collective, a.algorithm, p, bytes, root, devices), what);
      }
}

TEST(LazySchedule, RingStepsAskedInAnyOrderAreTheSame) {
  const auto lazy = dsml::make_lazy_schedule("all-reduce", "ring", 7, 4 * 70);
  const Schedule built = dsml::make_schedule("all-reduce", "ring", 7, 4 * 70);
  dsml::ScheduleStep step;
  for (int r = 6; r >= 0; --r)  // backwards: each step from its formula, not from the previous one
    for (std::size_t i = built.steps[r].size(); i-- > 0;) {
      ASSERT_TRUE(lazy->step(r, i, step));
      EXPECT_EQ(dsml::describe(step), dsml::describe(built.steps[r][i])) << "rank " << r << " step " << i;
    }
  EXPECT_FALSE(lazy->step(0, built.steps[0].size(), step)) << "no step past the last";
}

TEST(LazySchedule, SimulatesBitIdenticallyToToPrograms) {
  struct Case {
    const char* collective;
    const char* algorithm;
    int ranks;
    double bytes;
    double gamma;
    bool ring_topology;
  };
  const Case cases[] = {
      {"all-reduce", "ring", 8, 1 << 20, 1e-11, false},       {"all-reduce", "ring", 13, 4 * 1001, 2e-10, true},
      {"all-gather", "ring", 6, 4 * 601, 0.0, false},         {"reduce-scatter", "ring", 9, 4 * 900, 1e-10, true},
      {"all-reduce", "rabenseifner", 6, 4 * 96, 1e-10, false}, {"broadcast", "binomial-tree", 5, 4096, 0.0, true},
      {"all-to-all", "pairwise", 4, 4 * 64, 0.0, false},      {"all-reduce", "ring", 1, 64, 1e-9, false},
      {"reduce-scatter", "pairwise", 7, 4 * 700, 1e-10, true}};
  for (const Case& c : cases) {
    const dsml::Topology topology = c.ring_topology ? dsml::Topology::ring(c.ranks, kModel)
                                                    : dsml::Topology::fully_connected(c.ranks, kModel);
    const auto lazy = dsml::make_lazy_schedule(c.collective, c.algorithm, c.ranks, c.bytes);
    const auto programs = dsml::to_programs(dsml::make_schedule(c.collective, c.algorithm, c.ranks, c.bytes), c.gamma);
    const std::string what = std::string(c.collective) + "/" + c.algorithm + " p=" + std::to_string(c.ranks);
    expect_same_result(dsml::simulate_schedule(topology, *lazy, c.gamma), dsml::simulate(topology, programs), what);
    const dsml::SimOptions lean{false, false};
    expect_same_result(dsml::simulate_schedule(topology, *lazy, c.gamma, lean),
                       dsml::simulate(topology, programs, lean), what + " (records off)");
  }
}

TEST(LazySchedule, CountsEveryMessageAndByte) {
  const auto lazy = dsml::make_lazy_schedule("all-reduce", "ring", 10, 4 * 1000);
  const dsml::SimResult r =
      dsml::simulate_schedule(dsml::Topology::fully_connected(10, kModel), *lazy, 0.0, dsml::SimOptions{false, false});
  EXPECT_EQ(r.message_count, 2u * 10 * 9) << "2(p − 1) sends per rank";
  EXPECT_EQ(r.total_bytes, 2.0 * 9 * 4 * 1000) << "each rank sends 2(p − 1)/p of the vector";
}

TEST(LazySchedule, RingAllReducePastTheBuiltCapMeetsItsClosedForm) {
  constexpr int p = 1100;              // make_schedule refuses it: 4.8 M steps
  constexpr double bytes = 4.0 * 1100;  // one element per chunk: n divisible by p, so the formula is exact
  EXPECT_NE(error_of([&] { dsml::make_schedule("all-reduce", "ring", p, bytes); }).find("between 1 and 1024"),
            std::string::npos);
  const auto lazy = dsml::make_lazy_schedule("all-reduce", "ring", p, bytes);
  const dsml::CostModel model{1e-6, 1e-9, 1e-10};
  const dsml::SimResult r =
      dsml::simulate_schedule(dsml::Topology::fully_connected(p, model), *lazy, model.gamma, dsml::SimOptions{false, false});
  const double formula = dsml::closed_form_time("all-reduce", "ring", p, bytes, model).total();
  EXPECT_NEAR(r.makespan, formula, 1e-9 * formula);
  EXPECT_EQ(r.total_bytes, 2.0 * (p - 1) * bytes) << "2(p − 1) chunks of n/p from each of p ranks";
}

TEST(LazySchedule, RefusesMoreRanksThanItCanAffordAndNamesTheCap) {
  EXPECT_EQ(error_of([] { dsml::make_lazy_schedule("all-reduce", "ring", dsml::kMaxRanksLazy + 1, 64); }),
            "ranks must be between 1 and 16384 for all-reduce ring (its simulation moves O(p²) messages), got 16385");
  EXPECT_EQ(error_of([] { dsml::make_lazy_schedule("all-gather", "bruck", 2000, 64); }),
            "ranks must be between 1 and 1024 for all-gather bruck (its schedule lists O(p²) steps), got 2000")
      << "algorithms without formulas keep make_schedule's cap";
  EXPECT_EQ(error_of([] { dsml::make_lazy_schedule("all-reduce", "ring", 4, 6); }),
            "bytes must be a whole number of float32 elements (a multiple of 4), got 6");
}

TEST(LazySchedule, SimulateScheduleChecksGammaAndRanks) {
  const auto lazy = dsml::make_lazy_schedule("all-reduce", "ring", 4, 64);
  EXPECT_NE(error_of([&] { dsml::simulate_schedule(dsml::Topology::fully_connected(4, kModel), *lazy, -1.0); })
                .find("gamma"),
            std::string::npos);
  EXPECT_EQ(error_of([&] { dsml::simulate_schedule(dsml::Topology::fully_connected(5, kModel), *lazy, 0.0); }),
            "the topology has 5 ranks but the schedule 4");
}

// A hand-written StepSource whose third step on rank 1 sends to a rank that does not exist.
class BadSource : public dsml::StepSource {
 public:
  bool next(int rank, dsml::Step& out) override {
    if (taken_[rank] == 3) return false;
    out = rank == 1 && taken_[rank] == 2 ? dsml::Step::send(7, 8) : dsml::Step::compute(1e-6);
    ++taken_[rank];
    return true;
  }
  Counts count(int) const override { return {1, 3}; }

 private:
  int taken_[2] = {0, 0};
};

TEST(StepSource, ABadStepThrowsNamingItsRankAndStep) {
  BadSource source;
  EXPECT_EQ(error_of([&] { dsml::simulate(dsml::Topology::fully_connected(2, kModel), source); }),
            "rank 1 step 2: send to rank 7, but ranks are numbered 0 to 1");
}

}  // namespace

// A recorded run keeps every message: above kMaxRecordedMessages it is refused before it runs, with the way out
// (simulate without recording) in the message — and without recording the same run goes through.
TEST(LazySchedule, ARecordedRunAboveTheMessageLimitIsRefusedNotRun) {
  constexpr int p = 1024;  // ring all-reduce: 2·(p − 1)·p = 2 095 104 messages
  const auto ring = dsml::make_lazy_schedule("all-reduce", "ring", p, 4.0 * p, 0, 1);
  const dsml::Topology net = dsml::Topology::fully_connected(p, dsml::CostModel{1e-6, 1e-9, 0});
  EXPECT_EQ(error_of([&] { dsml::simulate_schedule(net, *ring, 0, dsml::SimOptions{}); }),
            "this run sends 2095104 messages, more than the 1000000 a recorded run keeps; simulate it without "
            "recording (record: false) for its makespan, finish times and link loads");
  const dsml::SimResult lean = dsml::simulate_schedule(net, *ring, 0, dsml::SimOptions{false, false});
  EXPECT_EQ(lean.message_count, 2095104u);
  EXPECT_TRUE(lean.messages.empty());
}
