// Pipeline schedules beyond 1F1B (dsml/chunk_schedule.h), timed with unit times against the published formulas:
// interleaved 1F1B (Narayanan et al. 2021) makespan (v·m + P − 1)(t_f + t_b), bubble (P − 1)/(v·m) of ideal;
// ZB-H1 (Qi et al. 2024) makespan 3m + P − 1 for t_f = t_b = t_w = 1, a third of 1F1B's bubble at 1F1B's peak
// memory; the same schedules' peak activations and message counts by hand; broken schedules named.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>

#include "dsml/chunk_schedule.h"
#include "dsml/error.h"
#include "test_support.h"

namespace {

using dsml::ChunkOp;
using dsml::ChunkSchedule;

bool mentions(const std::string& message, const std::string& part) {
  if (message.find(part) != std::string::npos) return true;
  ADD_FAILURE() << "\"" << message << "\" does not mention \"" << part << "\"";
  return false;
}

class InterleavedFormula : public ::testing::TestWithParam<std::tuple<int, int, int>> {};

TEST_P(InterleavedFormula, MakespanBubblePeakAndMessages) {
  const auto [P, groups, v] = GetParam();
  const int m = groups * P;
  const ChunkSchedule s = dsml::interleaved_one_f_one_b(P, m, v);
  for (double t_b : {1.0, 2.0}) {  // t_f = 1 per chunk; the full backward is B + W = t_b + 0
    const dsml::ChunkTiming t = dsml::time_chunk_schedule(s, 1.0, t_b, 0.0);
    EXPECT_DOUBLE_EQ(t.makespan, (v * m + P - 1) * (1.0 + t_b)) << "P=" << P << " m=" << m << " v=" << v;
    EXPECT_DOUBLE_EQ(t.bubble_over_ideal, (P - 1.0) / (v * m));
    EXPECT_DOUBLE_EQ(t.bubble_fraction, (P - 1.0) / (v * m + P - 1.0));
  }
  const std::vector<int> peak = dsml::peak_chunk_activations(s);
  for (int r = 0; r < P; ++r)
    EXPECT_EQ(peak[r], v == 1 ? std::min(P - r, m) : std::min(2 * (P - r - 1) + (v - 1) * P + 1, v * m)) << r;
  EXPECT_EQ(dsml::chunk_schedule_messages(s), P == 1 ? 0 : 2 * m * (P * v - 1));
}

INSTANTIATE_TEST_SUITE_P(DevicesGroupsChunks, InterleavedFormula,
                         ::testing::Combine(::testing::Values(1, 2, 3, 4, 8), ::testing::Values(1, 2, 3),
                                            ::testing::Values(1, 2, 3, 4)));

TEST(Interleaved, OneChunkIsOneFOneB) {
  for (int P : {1, 2, 4}) {
    const ChunkSchedule a = dsml::interleaved_one_f_one_b(P, 2 * P, 1);
    const ChunkSchedule b = dsml::as_chunk_schedule(dsml::one_f_one_b(P, 2 * P));
    for (int d = 0; d < P; ++d) {
      ASSERT_EQ(a.ops[d].size(), b.ops[d].size());
      for (std::size_t k = 0; k < a.ops[d].size(); ++k) EXPECT_EQ(describe(a.ops[d][k]), describe(b.ops[d][k]));
    }
  }
}

TEST(Interleaved, HalvesTheBubbleAtTwiceTheMessages) {
  // P = 4, m = 8 by hand: 1F1B (8 + 3)·2 = 22 stage-units; v = 2 chunks of half a stage: (16 + 3)·2 = 38 chunk
  // units = 19 stage units, bubble 3 instead of 6. Messages 2·8·3 = 48 against 2·8·7 = 112.
  const dsml::ChunkTiming one = dsml::time_chunk_schedule(dsml::interleaved_one_f_one_b(4, 8, 1), 1, 1, 0);
  const dsml::ChunkTiming two = dsml::time_chunk_schedule(dsml::interleaved_one_f_one_b(4, 8, 2), 0.5, 0.5, 0);
  EXPECT_DOUBLE_EQ(one.makespan, 22);
  EXPECT_DOUBLE_EQ(two.makespan, 19);
  EXPECT_DOUBLE_EQ(one.makespan - one.ideal, 2 * (two.makespan - two.ideal));
  EXPECT_EQ(dsml::chunk_schedule_messages(dsml::interleaved_one_f_one_b(4, 8, 1)), 48);
  EXPECT_EQ(dsml::chunk_schedule_messages(dsml::interleaved_one_f_one_b(4, 8, 2)), 112);
}

TEST(Interleaved, RejectsMicroBatchesNotAMultipleOfDevices) {
  EXPECT_TRUE(mentions(error_of([&] { dsml::interleaved_one_f_one_b(4, 6, 2); }), "multiple of the devices (m = 6, P = 4)"));
  EXPECT_TRUE(mentions(error_of([&] { dsml::chunk_schedule_by_name("1f1b", 4, 8, 2); }), "only the interleaved schedule"));
  EXPECT_TRUE(mentions(error_of([&] { dsml::chunk_schedule_by_name("zb-h2", 4, 8); }), "choose gpipe, 1f1b, interleaved or zb-h1"));
}

class ZeroBubbleFormula : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(ZeroBubbleFormula, AThirdOfOneFOneBsBubbleAtItsPeakMemory) {
  const auto [P, extra] = GetParam();
  const int m = P + extra;  // m >= P
  const dsml::ChunkTiming zb = dsml::time_chunk_schedule(dsml::zero_bubble_h1(P, m), 1, 1, 1);
  const ChunkSchedule baseline = dsml::as_chunk_schedule(dsml::one_f_one_b(P, m));
  const dsml::ChunkTiming ofob = dsml::time_chunk_schedule(baseline, 1, 1, 1);  // backward = B + W = 2
  EXPECT_DOUBLE_EQ(zb.makespan, 3.0 * m + P - 1) << "P=" << P << " m=" << m;
  EXPECT_DOUBLE_EQ(ofob.makespan, 3.0 * (m + P - 1));
  EXPECT_DOUBLE_EQ(3 * (zb.makespan - zb.ideal), ofob.makespan - ofob.ideal);  // (P − 1) vs 3(P − 1)
  const std::vector<int> zb_peak = dsml::peak_chunk_activations(dsml::zero_bubble_h1(P, m));
  const std::vector<int> ofob_peak = dsml::peak_chunk_activations(baseline);
  for (int d = 0; d < P; ++d) EXPECT_EQ(zb_peak[d], P) << d;  // every device holds P; 1F1B's device 0 holds P
  EXPECT_EQ(*std::max_element(ofob_peak.begin(), ofob_peak.end()), P);
  EXPECT_EQ(dsml::chunk_schedule_messages(dsml::zero_bubble_h1(P, m)), 2 * m * (P - 1));
}

INSTANTIATE_TEST_SUITE_P(DevicesMicroBatches, ZeroBubbleFormula,
                         ::testing::Combine(::testing::Values(1, 2, 3, 4, 8), ::testing::Values(0, 1, 4, 9)));

TEST(ZeroBubble, FewerMicroBatchesThanDevicesStillValid) {
  // m < P: the pipe never fills, the formula does not hold, but the schedule is valid and beats 1F1B.
  const dsml::ChunkTiming zb = dsml::time_chunk_schedule(dsml::zero_bubble_h1(4, 2), 1, 1, 1);
  const dsml::ChunkTiming ofob = dsml::time_chunk_schedule(dsml::as_chunk_schedule(dsml::one_f_one_b(4, 2)), 1, 1, 1);
  EXPECT_LT(zb.makespan, ofob.makespan);
}

TEST(ChunkSchedule, GPipeAndOneFOneBTimeAsInPipelineSchedule) {
  for (const char* name : {"gpipe", "1f1b"}) {
    const dsml::PipelineSchedule p = name == std::string("gpipe") ? dsml::gpipe(4, 6) : dsml::one_f_one_b(4, 6);
    const dsml::PipelineTiming a = dsml::time_pipeline_schedule(p, 1.0, 2.5, 0.25);
    const dsml::ChunkTiming b = dsml::time_chunk_schedule(dsml::as_chunk_schedule(p), 1.0, 2.0, 0.5, 0.25);
    EXPECT_DOUBLE_EQ(a.makespan, b.makespan) << name;
    EXPECT_DOUBLE_EQ(a.bubble_fraction, b.bubble_fraction) << name;
  }
}

TEST(ChunkSchedule, MeasuredBubblesAtTheSameDevicesAndMicroBatches) {
  // P = 4, m = 8, t_f = t_b = t_w = 1 per stage (interleaved v = 2: each chunk half of that). Bubble fraction of
  // the step = (P − 1)·(per-device fill and drain) / makespan.
  auto bubble = [](const std::string& name, int v) {
    const double scale = 1.0 / v;
    return dsml::time_chunk_schedule(dsml::chunk_schedule_by_name(name, 4, 8, v), scale, scale, scale).bubble_fraction;
  };
  EXPECT_DOUBLE_EQ(bubble("gpipe", 1), 9.0 / 33);        // 3(P − 1) of 3(m + P − 1)
  EXPECT_DOUBLE_EQ(bubble("1f1b", 1), 9.0 / 33);
  EXPECT_DOUBLE_EQ(bubble("interleaved", 2), 4.5 / 28.5);  // 3(P − 1)/2 of 3(m + (P − 1)/2)
  EXPECT_DOUBLE_EQ(bubble("zb-h1", 1), 3.0 / 27);        // (P − 1) of 3m + P − 1
}

TEST(ChunkSchedule, BrokenSchedulesAreNamed) {
  ChunkSchedule s = dsml::zero_bubble_h1(2, 2);
  std::swap(s.ops[1][3], s.ops[1][5]);  // device 1: F0 B0 F1 B1 W0 W1 → F0 B0 F1 W1 W0 B1
  EXPECT_EQ(dsml::check_chunk_schedule(s).message,
            "device 1: W(1, chunk 1) comes before B(1, chunk 1) (the weight gradient needs the input gradient's dH)");
  ChunkSchedule wrong_device = dsml::interleaved_one_f_one_b(2, 2, 2);
  wrong_device.ops[0][0].chunk = 1;
  EXPECT_EQ(dsml::check_chunk_schedule(wrong_device).message,
            "device 0: F(0, chunk 1) belongs on device 1 (chunk c is on device c mod P)");
  ChunkSchedule stuck = dsml::empty_chunk_schedule("mine", 2, 1, 1);
  stuck.ops[0] = {{ChunkOp::Kind::kForward, 0, 0}, {ChunkOp::Kind::kBackward, 0, 0}};
  stuck.ops[1] = {{ChunkOp::Kind::kForward, 0, 1}, {ChunkOp::Kind::kBackward, 0, 1}};
  EXPECT_TRUE(dsml::check_chunk_schedule(stuck).valid);
  std::swap(stuck.ops[0][0], stuck.ops[0][1]);  // backward before forward on device 0
  EXPECT_EQ(dsml::check_chunk_schedule(stuck).message, "device 0: BW(0, chunk 0) comes before F(0, chunk 0)");
  EXPECT_TRUE(mentions(error_of([&] { dsml::time_chunk_schedule(stuck, 1, 1, 1); }), "comes before F(0, chunk 0)"));
}

TEST(ChunkSchedule, DeadlockIsReportedAsWhoWaitsForWhom) {
  // Two micro-batches on two devices; device 1 insists on micro-batch 1's backward before micro-batch 0's
  // forward reaches it... expressed with forwards in order: device 0 waits for B(0) before sending F(1), device
  // 1 runs F(0) then waits for F(1) before B(0).
  ChunkSchedule s = dsml::empty_chunk_schedule("mine", 2, 1, 2);
  using K = ChunkOp::Kind;
  s.ops[0] = {{K::kForward, 0, 0}, {K::kBackward, 0, 0}, {K::kForward, 1, 0}, {K::kBackward, 1, 0}};
  s.ops[1] = {{K::kForward, 0, 1}, {K::kForward, 1, 1}, {K::kBackward, 0, 1}, {K::kBackward, 1, 1}};
  EXPECT_EQ(dsml::check_chunk_schedule(s).message,
            "deadlock: device 0 BW(0, chunk 0) waits for B(0, chunk 1) on device 1, device 1 F(1, chunk 1) waits for "
            "F(1, chunk 0) on device 0");
}

}  // namespace

namespace {

TEST(ScheduleComparison, MeasuredBubbleEqualsEachPapersFormulaWithUnitTimes) {
  for (int P : {2, 4, 8}) {
    for (int m : {P, 2 * P, 4 * P}) {
      for (int v : {2, 4}) {
        const auto rows = dsml::compare_pipeline_schedules(P, m, v, 1, 1, 1);
        ASSERT_EQ(rows.size(), 4u);
        for (const dsml::ScheduleComparison& row : rows)
          EXPECT_NEAR(row.timing.bubble_over_ideal, row.formula_over_ideal, 1e-12)
              << row.name << " P=" << P << " m=" << m << " v=" << v;
        EXPECT_EQ(rows[2].messages, 2 * m * (P * v - 1));
        EXPECT_EQ(rows[1].messages, 2 * m * (P - 1));
        EXPECT_DOUBLE_EQ(rows[0].peak_stage_activations, m);  // GPipe holds every micro-batch
        EXPECT_DOUBLE_EQ(rows[1].peak_stage_activations, P);  // 1F1B: P on device 0
        EXPECT_DOUBLE_EQ(rows[3].peak_stage_activations, P);  // ZB-H1: no more than 1F1B
      }
    }
  }
  EXPECT_TRUE(mentions(error_of([] { dsml::compare_pipeline_schedules(4, 8, 1, 1, 1, 1); }), "v >= 2"));
}

}  // namespace

namespace {

TEST(ScheduleComparison, ZeroBubbleEstimateHoldsWhileWeightGradientsAreNoSlowerThanForwards) {
  // P = 4, m = 8. (t_f, t_b, t_w) = (1, 1, 0.5): (P − 1)(1.5)/(8·2.5) = 0.225; (2, 1, 1) and (1, 2, 1): 6/32.
  for (const auto& [f, b, w] : {std::make_tuple(1.0, 1.0, 0.5), std::make_tuple(2.0, 1.0, 1.0),
                                std::make_tuple(1.0, 2.0, 1.0), std::make_tuple(1.0, 1.0, 1.0)}) {
    const dsml::ScheduleComparison zb = dsml::compare_pipeline_schedules(4, 8, 2, f, b, w)[3];
    EXPECT_NEAR(zb.timing.bubble_over_ideal, zb.formula_over_ideal, 1e-12) << f << " " << b << " " << w;
  }
  const dsml::ScheduleComparison slow_w = dsml::compare_pipeline_schedules(4, 8, 2, 1.0, 0.5, 1.0)[3];
  EXPECT_DOUBLE_EQ(slow_w.formula_over_ideal, 0.075);
  EXPECT_DOUBLE_EQ(slow_w.timing.bubble_over_ideal, 0.15);  // t_w > t_f: the fixed order is not the optimum
}

}  // namespace
