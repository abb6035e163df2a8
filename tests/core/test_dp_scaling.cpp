// Data-parallel scaling (dp_scaling.h) against numbers derived by hand: strong and weak speed-up from the α = 0
// step formula, the comm-bound batch in the JAX scaling book's form and where the step model crosses it, and the
// three DDPs (naive, flat, bucketed with overlap) on a two-block timeline.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "dsml/dp_scaling.h"
#include "dsml/error.h"
#include "test_support.h"

namespace {

// L = 2 blocks of D = 4, F = 8: a block holds 2DF = 64 values (256 fp32 bytes), Ψ = 128.
dsml::MlpConfig small() { return dsml::MlpConfig{2, 4, 8}; }

dsml::CostModel bandwidth_only(double bytes_per_s) { return dsml::CostModel{0, 1 / bytes_per_s, 0}; }

// Per row and step: 6Ψ FLOPs (forward 2Ψ, backward 4Ψ). Ring all-reduce of Ψ values of 4 B: 2(P−1)/P·4Ψ/W.
TEST(DpScaling, StrongAndWeakFollowTheStepFormula) {
  const double C = 1e9, W = 1e6, psi = 128;
  dsml::ScalingConfig c;
  c.model = small();
  c.ranks = {1, 2, 4, 8};
  c.flops_per_s = C;
  c.overlap = false;
  c.bucket_bytes = 1e9;  // one bucket: one all-reduce of Ψ
  const auto step = [&](double rows_per_device, int P) {
    return 6 * rows_per_device * psi / C + (P > 1 ? 2.0 * (P - 1) / P * 4 * psi / W : 0.0);
  };
  c.mode = dsml::ScalingMode::strong;
  c.batch = 64;
  for (const dsml::ScalingPoint& p : dsml::dp_scaling(c, bandwidth_only(W))) {
    EXPECT_EQ(p.global_batch, 64);
    EXPECT_NEAR(p.step_s, step(64.0 / p.ranks, p.ranks), 1e-15);
    EXPECT_NEAR(p.speedup, step(64, 1) / step(64.0 / p.ranks, p.ranks), 1e-12) << "P = " << p.ranks;
    EXPECT_DOUBLE_EQ(p.ideal, p.ranks);
  }
  c.mode = dsml::ScalingMode::weak;
  c.batch = 16;
  for (const dsml::ScalingPoint& p : dsml::dp_scaling(c, bandwidth_only(W))) {
    EXPECT_EQ(p.global_batch, 16 * p.ranks);
    EXPECT_NEAR(p.speedup, p.ranks * step(16, 1) / step(16, p.ranks), 1e-12) << "P = " << p.ranks;
    EXPECT_NEAR(p.efficiency, p.speedup / p.ranks, 1e-15);
  }
  // Weak scaling beats strong at every P > 1: its compute per device does not shrink.
  c.mode = dsml::ScalingMode::strong;
  c.batch = 128;
  const auto strong = dsml::dp_scaling(c, bandwidth_only(W));
  c.mode = dsml::ScalingMode::weak;
  c.batch = 128;
  const auto weak = dsml::dp_scaling(c, bandwidth_only(W));
  for (std::size_t i = 1; i < strong.size(); ++i) EXPECT_GT(weak[i].speedup, strong[i].speedup);
}

TEST(DpScaling, CommBoundBatchIsFlopsOverBandwidth) {
  // The JAX scaling book's pure-DP condition for bf16 with overlap: compute-bound iff B/X > C/W.
  const double C = 4.6e14, W = 9e10;
  EXPECT_NEAR(dsml::dp_comm_bound_batch(C, W, 2, 1 << 20, true) / (C / W), 1.0, 1e-5);
  // Exact ring factor (P−1)/P, and accumulation only helps without overlap.
  EXPECT_DOUBLE_EQ(dsml::dp_comm_bound_batch(C, W, 2, 4, true), 0.75 * C / W);
  EXPECT_DOUBLE_EQ(dsml::dp_comm_bound_batch(C, W, 2, 4, true, 8), 0.75 * C / W);
  EXPECT_DOUBLE_EQ(dsml::dp_comm_bound_batch(C, W, 4, 4, false, 2), 0.75 * 4 / 3 * C / (2 * W));
  EXPECT_EQ(error_of([] { dsml::dp_comm_bound_batch(1, 1, 4, 1, true); }),
            "the comm-bound threshold needs P >= 2 devices (one device communicates nothing), got 1");
}

// At b = b* the step cost model's all-reduce takes exactly the compute the threshold compares it with.
TEST(DpScaling, TheStepModelCrossesAtTheThreshold) {
  const double C = 1e9, W = 1e6;
  const int P = 4;
  for (bool overlap : {false, true}) {
    const double b = dsml::dp_comm_bound_batch(C, W, 4, P, overlap);  // 1000 rows (no overlap), 1500 (overlap)
    dsml::StepCostConfig s;
    s.model = small();
    s.grid = {P, 1, 1};
    s.batch = static_cast<int>(std::lround(b * P));
    ASSERT_DOUBLE_EQ(s.batch, b * P);
    s.strategy = dsml::Strategy::dp_bucketed;
    s.bucket_bytes = 1e9;
    s.flops_per_s = C;
    s.overlap = overlap;
    const dsml::StepCost cost = dsml::step_cost(s, bandwidth_only(W));
    const double hidden_behind = overlap ? cost.compute_s * 4 / 6 : cost.compute_s;  // backward, or everything
    EXPECT_NEAR(cost.comm_s.at("all-reduce"), hidden_behind, 1e-12) << "overlap " << overlap;
  }
}

// Two blocks on dp = 2, B/dp = 4 rows: a block's forward is 4·4·4·8 = 512 FLOPs = f = 1 s at 512 FLOP/s, its
// backward 2 s. At W = 256 B/s a ring all-reduce of one block (256 B, P = 2: 2·(1/2)·256 B per rank) takes a = 1 s.
//   naive    forward 0–2, backward 2–6, then four per-tensor all-reduces of a/2: total 6 + 4·0.5 = 8 s
//   flat     the same compute, then one all-reduce of both blocks (2a):         total 6 + 2 = 8 s
//   bucketed one block per bucket, launched during backward: bucket 0 (block 1) is ready at 4 s and runs 4–5
//            beside block 0's backward (4–6); bucket 1 waits for it, 6–7:        total 7 s
TEST(DpScaling, ThreeDdpsOnATwoBlockTimelineByHand) {
  dsml::StepCostConfig s;
  s.model = small();
  s.grid = {2, 1, 1};
  s.batch = 8;
  s.flops_per_s = 512;
  s.bucket_bytes = 256;
  const dsml::DdpVariants v = dsml::ddp_variants(s, bandwidth_only(256));
  EXPECT_DOUBLE_EQ(v.naive.total_s, 8);
  EXPECT_DOUBLE_EQ(v.flat.total_s, 8);
  EXPECT_DOUBLE_EQ(v.bucketed.total_s, 7);
  EXPECT_EQ(v.naive.comm.records().size(), 4u);  // one per tensor
  EXPECT_EQ(v.flat.comm.records().size(), 1u);
  int buckets = 0;
  for (const dsml::StepSpan& span : v.bucketed.spans) {
    if (span.rank != 0 || span.stream != "comm") continue;
    const double start = span.label == "bucket 0" ? 4 : 6;  // see the timeline above
    EXPECT_DOUBLE_EQ(span.start, start) << span.label;
    EXPECT_DOUBLE_EQ(span.end, start + 1) << span.label;
    ++buckets;
  }
  EXPECT_EQ(buckets, 2);
}

TEST(DpScaling, RejectsWhatItCannotPrice) {
  dsml::ScalingConfig c;
  c.model = small();
  c.strategy = dsml::Strategy::tp;
  EXPECT_THROW(dsml::dp_scaling(c, bandwidth_only(1e9)), dsml::Error);
  c.strategy = dsml::Strategy::dp;
  c.ranks = {};
  EXPECT_THROW(dsml::dp_scaling(c, bandwidth_only(1e9)), dsml::Error);
  c.ranks = {3};
  c.batch = 64;  // strong: 64 rows do not split over 3 devices
  EXPECT_THROW(dsml::dp_scaling(c, bandwidth_only(1e9)), dsml::Error);
  EXPECT_EQ(error_of([] { dsml::parse_scaling_mode("sideways"); }),
            "scaling mode must be strong (fixed global batch) or weak (fixed batch per device), got \"sideways\"");
}

}  // namespace
