// The step cost model with compute/communication overlap (step_cost.h, overlap = true) against timelines derived
// by hand: DP's buckets launched during backward, ZeRO-2's gathers after the update, FSDP's one-block-ahead
// prefetch; TP and pipelines, which have nothing to hide; and the two streams never running two things at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "dsml/collective_cost.h"
#include "dsml/step_cost.h"
#include "dsml/topology.h"

namespace {

using dsml::StepCost;
using dsml::StepCostConfig;

constexpr double kMs = 1e-3;

// L = 2 blocks of D = 8, F = 32 (2DF = 512 values each, Ψ = 1024) on dp = 4 ranks of B/dp = 3 rows: a block's
// forward is 4·3·8·32 = 3072 FLOPs; at 3.072 MFLOP/s it takes f = 1 ms, its backward b = 2 ms.
StepCostConfig two_blocks(const std::string& strategy) {
  StepCostConfig c;
  c.model.layers = 2;
  c.model.width = 8;
  c.model.hidden = 32;
  c.batch = 12;
  c.grid = {4, 1, 1};
  c.strategy = dsml::parse_strategy(strategy);
  c.flops_per_s = 3072 / kMs;
  c.bucket_bytes = 512 * 4;  // one block per bucket: bucket 0 = block 1 (backward's first), bucket 1 = block 0
  return c;
}

// α = 0 and β chosen so that a ring all-reduce of one block (512 fp32 values = 2048 bytes over 4 ranks moves
// 2·(3/4)·2048 = 3072 bytes per rank) takes `seconds`; a reduce-scatter or an all-gather of it takes half.
dsml::CostModel all_reduce_of_a_block_takes(double seconds) {
  dsml::CostModel m;
  m.alpha = 0;
  m.beta = seconds / 3072;
  return m;
}

std::vector<dsml::StepSpan> of_rank(const StepCost& cost, int rank, const std::string& stream) {
  std::vector<dsml::StepSpan> out;
  for (const dsml::StepSpan& s : cost.spans)
    if (s.rank == rank && s.stream == stream) out.push_back(s);
  return out;
}

// Two buckets, forward F = 2f = 2 ms, backward b = 2 ms per block, all-reduce a per bucket.
//   without overlap:  F + b + b + a + a                                   (today's sum)
//   with overlap:     bucket 0 is issued when block 1's backward ends, at F + b, and runs [F + b, F + b + a];
//                     bucket 1 is issued at F + 2b and starts when both it and the stream are ready:
//                     total = max(F + 2b, F + b + a) + a = F + b + max(b, a) + a
//   a = 1 ms < b:     8 ms without, 2 + 2 + max(2, 1) + 1 = 7 ms with (bucket 0 hidden behind block 0's backward)
//   a = 3 ms > b:    12 ms without, 2 + 2 + max(2, 3) + 3 = 10 ms with (the comm stream is the bottleneck)
TEST(StepOverlap, TwoBucketsOfDataParallelByHand) {
  const struct {
    double a, sequential, overlapped;
  } cases[] = {{1 * kMs, 8 * kMs, 7 * kMs}, {3 * kMs, 12 * kMs, 10 * kMs}};
  for (const auto& k : cases) {
    StepCostConfig c = two_blocks("dp-bucketed");
    const dsml::CostModel net = all_reduce_of_a_block_takes(k.a);
    const StepCost plain = dsml::step_cost(c, net);
    EXPECT_NEAR(plain.total_s, k.sequential, 1e-12) << "a = " << k.a;
    EXPECT_NEAR(plain.compute_s, 6 * kMs, 1e-12);
    EXPECT_NEAR(plain.comm_s.at("all-reduce"), 2 * k.a, 1e-12);
    c.overlap = true;
    const StepCost overlapped = dsml::step_cost(c, net);
    EXPECT_NEAR(overlapped.total_s, k.overlapped, 1e-12) << "a = " << k.a;
    EXPECT_NEAR(overlapped.compute_s, plain.compute_s, 1e-15);      // the same work …
    EXPECT_NEAR(overlapped.comm_s.at("all-reduce"), 2 * k.a, 1e-12);  // … and the same collectives, moved
    const std::vector<dsml::StepSpan> comm = of_rank(overlapped, 3, "comm");
    ASSERT_EQ(comm.size(), 2u);
    EXPECT_EQ(comm[0].label, "bucket 0");
    EXPECT_NEAR(comm[0].start, 4 * kMs, 1e-12);  // F + b
    EXPECT_NEAR(comm[1].start, std::max(6 * kMs, 4 * kMs + k.a), 1e-12);
    EXPECT_EQ(of_rank(overlapped, 3, "compute").back().label, "block 0 backward");
  }
}

// ZeRO-2 on the same two buckets: a reduce-scatter (a/2) per bucket as backward frees it, then — after the
// optimizer update, which needs every shard's gradient — an all-gather (a/2) per bucket. With a = 1 ms:
//   RS0 [4, 4.5]; RS1 issued at F + 2b = 6: [6, 6.5]; AG0 [6.5, 7]; AG1 [7, 7.5]  → 7.5 ms (sequential: 8 ms).
TEST(StepOverlap, ZeroGathersWaitForTheUpdate) {
  StepCostConfig c = two_blocks("zero2");
  c.overlap = true;
  const StepCost cost = dsml::step_cost(c, all_reduce_of_a_block_takes(1 * kMs));
  EXPECT_NEAR(cost.total_s, 7.5 * kMs, 1e-12);
  const std::vector<dsml::StepSpan> comm = of_rank(cost, 0, "comm");
  ASSERT_EQ(comm.size(), 4u);
  const double starts[] = {4, 6, 6.5, 7};
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(comm[i].start, starts[i] * kMs, 1e-12) << comm[i].label;
  c.overlap = false;
  EXPECT_NEAR(dsml::step_cost(c, all_reduce_of_a_block_takes(1 * kMs)).total_s, 8 * kMs, 1e-12);
}

// ZeRO-3 / FSDP on two blocks, every gather and reduce-scatter of a block taking g = a/2 = 0.5 ms < f = 1 ms.
// Each gather is issued when the compute before its block starts (one block ahead), so:
//   AG_f0 [0, g]  F0 [g, g+f]   AG_f1 issued at g: [g, 2g]    F1 [g+f, g+2f]
//   AG_b1 issued at g+f: [g+f, 2g+f]                          B1 [g+2f, g+4f]
//   AG_b0 issued at g+2f: [g+2f, 2g+2f]   RS1 issued at g+4f: [g+4f, 2g+4f]   B0 [g+4f, g+6f]
//   RS0 issued at g+6f: [g+6f, 2g+6f]  → total = 2g + 6f = 7 ms: only the first gather and the last
//   reduce-scatter show. Without overlap: 4 gathers + 2 reduce-scatters + 6f = 6g + 6f = 9 ms.
TEST(StepOverlap, FsdpPrefetchesOneBlockAhead) {
  StepCostConfig c = two_blocks("zero3");
  const dsml::CostModel net = all_reduce_of_a_block_takes(1 * kMs);
  EXPECT_NEAR(dsml::step_cost(c, net).total_s, 9 * kMs, 1e-12);
  c.overlap = true;
  const StepCost cost = dsml::step_cost(c, net);
  EXPECT_NEAR(cost.total_s, 7 * kMs, 1e-12);
  std::map<std::string, std::pair<double, double>> at;  // label → (start, end), rank 0
  for (const dsml::StepSpan& s : cost.spans)
    if (s.rank == 0) at[s.label] = {s.start / kMs, s.end / kMs};
  const std::map<std::string, std::pair<double, double>> want = {
      {"block 0 params forward", {0, 0.5}},  {"block 0 forward", {0.5, 1.5}},
      {"block 1 params forward", {0.5, 1}},  {"block 1 forward", {1.5, 2.5}},
      {"block 1 params backward", {1.5, 2}}, {"block 1 backward", {2.5, 4.5}},
      {"block 0 params backward", {2.5, 3}}, {"block 1 grads", {4.5, 5}},
      {"block 0 backward", {4.5, 6.5}},      {"block 0 grads", {6.5, 7}}};
  for (const auto& [label, span] : want) {
    ASSERT_TRUE(at.count(label)) << label;
    EXPECT_NEAR(at[label].first, span.first, 1e-9) << label;
    EXPECT_NEAR(at[label].second, span.second, 1e-9) << label;
  }
}

// Megatron TP: every all-reduce's result is the next compute's input — nothing to hide, overlap or not.
TEST(StepOverlap, TensorParallelHasNothingToHide) {
  StepCostConfig c = two_blocks("tp");
  c.grid = {1, 4, 1};
  const dsml::CostModel net = all_reduce_of_a_block_takes(1 * kMs);
  const double plain = dsml::step_cost(c, net).total_s;
  c.overlap = true;
  EXPECT_NEAR(dsml::step_cost(c, net).total_s, plain, 1e-15);
}

// Pipelines' sends were already beside compute (eager, time_pipeline_schedule); overlap only draws them.
TEST(StepOverlap, PipelinesShowTheirSendsOnTheCommStream) {
  StepCostConfig c = two_blocks("pp-1f1b");
  c.grid = {1, 1, 2};
  c.micro_batches = 4;
  const dsml::CostModel net = all_reduce_of_a_block_takes(1 * kMs);
  const StepCost plain = dsml::step_cost(c, net);
  c.overlap = true;
  const StepCost overlapped = dsml::step_cost(c, net);
  EXPECT_DOUBLE_EQ(overlapped.total_s, plain.total_s);
  EXPECT_TRUE(of_rank(plain, 0, "comm").empty());
  const std::vector<dsml::StepSpan> sends = of_rank(overlapped, 0, "comm");
  ASSERT_EQ(sends.size(), 4u);  // stage 0 sends each micro-batch's activation forward
  const double p2p = dsml::message_time(net, 3.0 * 8 * 4);  // (B/m, D) fp32
  for (const dsml::StepSpan& s : sends) {
    EXPECT_EQ(s.kind, "send");
    EXPECT_NEAR(s.end - s.start, p2p, 1e-18);
  }
  EXPECT_EQ(sends[0].label, "activation 0 to stage 1");
  EXPECT_EQ(of_rank(overlapped, 1, "comm").size(), 4u);  // stage 1 sends each gradient back
}

// On every strategy: a stream runs one thing at a time, overlap never makes a step slower, and on the switch the
// simulator's collectives equal the closed form with overlap as without.
TEST(StepOverlap, StreamsAreSerialAndOverlapNeverHurts) {
  for (const char* name : {"single", "dp", "dp-bucketed", "dp-accumulate", "zero1", "zero2", "zero3", "tp", "fsdp-tp",
                           "pp-gpipe", "pp-1f1b"}) {
    StepCostConfig c = two_blocks(name);
    const dsml::Strategy s = c.strategy;
    c.grid = s == dsml::Strategy::single ? dsml::RankGrid{} : s == dsml::Strategy::tp ? dsml::RankGrid{1, 4, 1}
             : s == dsml::Strategy::fsdp_tp ? dsml::RankGrid{2, 2, 1} : dsml::is_pipeline(s) ? dsml::RankGrid{1, 1, 2}
                                                                                              : dsml::RankGrid{4, 1, 1};
    c.micro_batches = dsml::is_pipeline(s) ? 4 : dsml::default_micro_batches(s);
    c.batch = 24;
    const dsml::CostModel net = all_reduce_of_a_block_takes(1 * kMs);
    const double plain = dsml::step_cost(c, net).total_s;
    c.overlap = true;
    const StepCost cost = dsml::step_cost(c, net);
    EXPECT_LE(cost.total_s, plain * (1 + 1e-12)) << name;
    // A pipeline stage's sends go to two neighbours over two links and may overlap each other; all else is serial.
    for (int r = 0; r < c.grid.size(); ++r)
      for (const char* stream : {"compute", "comm"}) {
        if (dsml::is_pipeline(s) && std::string(stream) == "comm") continue;
        std::vector<dsml::StepSpan> spans = of_rank(cost, r, stream);
        std::sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
        for (std::size_t i = 1; i < spans.size(); ++i)
          EXPECT_GE(spans[i].start, spans[i - 1].end - 1e-15) << name << " rank " << r << " " << spans[i].label;
      }
    if (!dsml::is_pipeline(s)) {
      const StepCost simulated = dsml::step_cost(c, dsml::Topology::fully_connected(c.grid.size(), net));
      EXPECT_NEAR(simulated.total_s, cost.total_s, 1e-12 * cost.total_s) << name;
    }
  }
}

}  // namespace
