// Week 5's 3-D layouts (dsml/parallel_design.h price_3d_layouts): the factorisations listed by hand, every row the
// planner's plan_step of the same layout, a small model's compute term counted by hand, ZeRO-1's saving by
// Rajbhandari et al.'s 16Ψ against 4Ψ + 12Ψ/d, and the term each axis adds.
#include <gtest/gtest.h>

#include <set>
#include <tuple>
#include <vector>

#include "dsml/parallel_design.h"
#include "dsml/planner.h"
#include "test_support.h"

namespace {

using Triple = std::tuple<int, int, int>;

dsml::LayoutConfig eight_by_eight(const char* model) {
  dsml::LayoutConfig c;
  c.model = dsml::planner_model_preset(model);
  c.cluster.gpu = dsml::gpu_preset("a100-80gb");
  c.cluster.nodes = 8;
  c.cluster.gpus_per_node = 8;
  return c;
}

std::set<Triple> triples_of(const std::vector<dsml::LayoutRow>& rows) {
  std::set<Triple> out;
  for (const dsml::LayoutRow& r : rows) out.insert({r.t, r.p, r.d});
  return out;
}

// Every t·p·d = 64 with t in `ts`, p in `ps` and t·p ≤ 64 (d = 64/(t·p) divides the batch of 512 for all of them).
std::set<Triple> products_of_64(const std::vector<int>& ts, const std::vector<int>& ps) {
  std::set<Triple> out;
  for (int t : ts)
    for (int p : ps)
      if (64 % (t * p) == 0) out.insert({t, p, 64 / (t * p)});
  return out;
}

void expect_same_plan(const dsml::StepPlan& row, const dsml::StepPlan& direct) {
  EXPECT_EQ(row.micro_batches, direct.micro_batches);
  EXPECT_EQ(row.time.compute, direct.time.compute);
  EXPECT_EQ(row.time.bubble, direct.time.bubble);
  EXPECT_EQ(row.time.tensor, direct.time.tensor);
  EXPECT_EQ(row.time.pipeline, direct.time.pipeline);
  EXPECT_EQ(row.time.data, direct.time.data);
  EXPECT_EQ(row.time.optimizer, direct.time.optimizer);
  EXPECT_EQ(row.time.total, direct.time.total);
  EXPECT_EQ(row.memory.total, direct.memory.total);
  EXPECT_EQ(row.memory.activations, direct.memory.activations);
  EXPECT_EQ(row.fits, direct.fits);
}

}  // namespace

TEST(Layouts, Opt30bPresetIsZhangEtAlsShape) {
  // OPT-30B (Zhang et al. 2022, Table 1): 48 layers, h 7168, 56 heads, V 50,272, s 2048, learned positions, tied
  // embeddings. GPT's count: 12h² + 13h per layer (weights, biases, two LayerNorms) + V·h + s·h.
  const dsml::PlannerModel m = dsml::planner_model_preset("opt-30b");
  const double h = 7168;
  EXPECT_DOUBLE_EQ(dsml::planner_parameters(m), 48 * (12 * h * h + 13 * h) + 50272 * h + 2048 * h);  // 29.97 B
}

TEST(Layouts, Opt30bOnEightByEightListsEveryFactorisationThePlannerAccepts) {
  // 56 heads and 8 GPUs a node: t ∈ {1, 2, 4, 8}; 48 layers: p ∈ {1, 2, 4, 8, 16} (3, 6, 12, 24, 48 do not divide 64/t).
  const std::vector<dsml::LayoutRow> rows = dsml::price_3d_layouts(eight_by_eight("opt-30b"));
  EXPECT_EQ(rows.size(), 19u);
  EXPECT_EQ(triples_of(rows), products_of_64({1, 2, 4, 8}, {1, 2, 4, 8, 16}));
  // GPT-3 175B: 96 heads would allow t = 16 and 32, but tensor parallelism stays inside a node of 8.
  const std::vector<dsml::LayoutRow> big = dsml::price_3d_layouts(eight_by_eight("gpt3-175b"));
  EXPECT_EQ(triples_of(big), products_of_64({1, 2, 4, 8}, {1, 2, 4, 8, 16, 32}));
  EXPECT_EQ(big.size(), 21u);
}

TEST(Layouts, EveryRowIsPlanStepOfTheSameLayout) {
  const dsml::LayoutConfig c = eight_by_eight("opt-30b");
  for (const dsml::LayoutRow& r : dsml::price_3d_layouts(c)) {
    dsml::PlannerLayout l;  // what Week 5 prices: b = 1, B = 512, sequence parallel, no recomputation, v = 1
    l.t = r.t, l.p = r.p, l.d = r.d, l.micro_batch = 1, l.global_batch = 512;
    l.sequence_parallel = true;
    l.recomputation = dsml::Recomputation::kNone;
    l.overlap_dp = false;
    SCOPED_TRACE(testing::Message() << "(t, p, d) = (" << r.t << ", " << r.p << ", " << r.d << ")");
    l.zero_stage = 0;
    expect_same_plan(r.replicated, dsml::plan_step(c.model, c.cluster, l));
    l.zero_stage = 1;
    expect_same_plan(r.zero1, dsml::plan_step(c.model, c.cluster, l));
  }
}

TEST(Layouts, ComputeIsAHandCountWhenEveryProductIsComputeBound) {
  // A small GPT (L 2, h 64, a 4, s 32, V 128), unfused attention, on a GPU whose HBM is so fast that the
  // memory-bound kernels take no time and whose matmuls run at 0.5 TFLOP/s whatever their shape (one
  // multiprocessor, 1 × 1 tiles: no quantisation). The last stage runs, per micro-batch, its L/p layers forward and
  // twice backward, 3·(24·s·h² + 4·s²·h)/t FLOPs each (Narayanan et al. 2021 §3.2), and the logits 3·2·s·h·V/t;
  // m = B/(d·b) micro-batches.
  dsml::LayoutConfig c;
  c.model.name = "small";
  c.model.layers = 2, c.model.hidden = 64, c.model.heads = 4, c.model.sequence = 32, c.model.vocabulary = 128;
  c.cluster.gpu = dsml::gpu_preset("a100-80gb");
  c.attention = dsml::AttentionKernel::kUnfused;
  c.cluster.gpu.peak_flops = 1e12;
  c.cluster.gpu.matmul_in_step = 1;
  c.cluster.gpu.kernels.matmul_flops = 0.5e12;
  c.cluster.gpu.hbm_bandwidth = c.cluster.gpu.kernels.hbm_bandwidth = 1e30;
  c.cluster.gpu.kernels.sms = c.cluster.gpu.kernels.tile_m = c.cluster.gpu.kernels.tile_n = 1;
  c.cluster.nodes = 1;
  c.cluster.gpus_per_node = 4;
  c.global_batch = 8;
  const std::vector<dsml::LayoutRow> rows = dsml::price_3d_layouts(c);
  // a = 4 heads, L = 2 layers, N = 4: (1, 1, 4), (1, 2, 2), (2, 1, 2), (2, 2, 1), (4, 1, 1).
  EXPECT_EQ(triples_of(rows), (std::set<Triple>{{1, 1, 4}, {1, 2, 2}, {2, 1, 2}, {2, 2, 1}, {4, 1, 1}}));
  const double s = 32, h = 64, V = 128, rate = 0.5e12;
  for (const dsml::LayoutRow& r : rows) {
    const double m = 8.0 / r.d, layers = 2.0 / r.p;
    const double per_micro_batch = (layers * 3 * (24 * s * h * h + 4 * s * s * h) + 3 * 2 * s * h * V) / r.t;
    EXPECT_NEAR(r.replicated.time.compute / (m * per_micro_batch / rate), 1.0, 1e-12)
        << "(" << r.t << ", " << r.p << ", " << r.d << ")";
    EXPECT_EQ(r.zero1.time.compute, r.replicated.time.compute);  // ZeRO-1 shards state, not work
  }
}

TEST(Layouts, ZeroOneShardsTheOptimizerStateOverD) {
  // Without a pipeline a GPU holds Ψ/t of the weights: 2 + 2 + 12 bytes each replicated (mixed-precision Adam),
  // 2 + 2 + 12/d with ZeRO-1 (Rajbhandari et al. 2020). Activations do not change.
  const dsml::LayoutConfig c = eight_by_eight("opt-30b");
  const double h = 7168, psi = 48 * (12 * h * h + 13 * h) + 50272 * h + 2048 * h;
  int checked = 0;
  for (const dsml::LayoutRow& r : dsml::price_3d_layouts(c)) {
    const auto states = [](const dsml::StepPlan& x) { return x.memory.params + x.memory.grads + x.memory.optimizer; };
    EXPECT_EQ(r.zero1.memory.activations, r.replicated.memory.activations);
    if (r.d > 1) EXPECT_LT(states(r.zero1), states(r.replicated));
    else EXPECT_EQ(states(r.zero1), states(r.replicated));  // one replica: nothing to shard over
    if (r.p != 1) continue;
    ++checked;
    EXPECT_NEAR(states(r.replicated) / (16 * psi / r.t), 1.0, 1e-12) << r.t;
    EXPECT_NEAR(states(r.zero1) / (4 * psi / r.t + 12 * psi / (r.t * r.d)), 1.0, 1e-12) << r.t;
  }
  EXPECT_EQ(checked, 4);  // t = 1, 2, 4, 8
}

TEST(Layouts, EachAxisAddsItsOwnTerm) {
  // t adds the tensor collectives, p the bubble and the stage-to-stage sends, d the gradient reduction; a dense
  // model with c = e = 1 has no context or expert term.
  for (const char* model : {"gpt3-6.7b", "opt-30b", "gpt3-175b"}) {
    for (const dsml::LayoutRow& r : dsml::price_3d_layouts(eight_by_eight(model))) {
      for (const dsml::StepPlan* plan : {&r.replicated, &r.zero1}) {
        const dsml::StepSplit& x = plan->time;
        SCOPED_TRACE(testing::Message() << model << " (" << r.t << ", " << r.p << ", " << r.d << ")");
        EXPECT_EQ(x.tensor > 0, r.t > 1);
        EXPECT_EQ(x.bubble > 0, r.p > 1);
        EXPECT_EQ(x.pipeline > 0, r.p > 1);
        EXPECT_EQ(x.data > 0, r.d > 1);
        EXPECT_EQ(x.context, 0.0);
        EXPECT_EQ(x.expert, 0.0);
        EXPECT_EQ(plan->fits, plan->memory.total <= 80e9);
      }
    }
  }
}

TEST(Layouts, BadClusterIsNamed) {
  dsml::LayoutConfig c = eight_by_eight("opt-30b");
  c.cluster.nodes = 0;
  expect_error([&] { dsml::price_3d_layouts(c); }, "nodes and GPUs per node must be >= 1");
  c = eight_by_eight("opt-30b");
  c.model.hidden = 7100;  // not divisible by 56 heads
  expect_error([&] { dsml::price_3d_layouts(c); }, "not divisible by 56 heads");
}
