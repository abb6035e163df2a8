// The planner's mixture-of-experts and context-parallel terms (dsml/planner.h) against hand computations: the
// parameter counts of Mixtral 8x7B, the FLOPs of top-k routing, the K/V ring of context parallelism and the
// expert all-to-all in the course's α–β closed form written out, memory split over e and c, and the errors.
#include <gtest/gtest.h>

#include <string>

#include "dsml/error.h"
#include "dsml/memory_accountant.h"
#include "dsml/planner.h"
#include "test_planner_support.h"

using namespace dsml;
using planner_test::a100;
using planner_test::plan_error;

namespace {

PlannerLayout moe_layout(int t, int c, int p, int d, int e, int B) {
  PlannerLayout l;
  l.t = t, l.c = c, l.p = p, l.d = d, l.e = e, l.global_batch = B;
  l.recomputation = Recomputation::kSelective;
  l.attention = AttentionKernel::kUnfused;  // the attention FLOPs written out below are the full s² products
  return l;
}

// GPT-3 6.7B's shape with every other FFN an 8-expert top-2 layer (GShard's placement): 16 MoE layers of 32.
PlannerModel gpt_moe() {
  PlannerModel m = planner_model_preset("gpt3-6.7b");
  m.experts = 8, m.top_k = 2, m.moe_every = 2;
  return m;
}


}  // namespace

TEST(PlannerMoe, MixtralParametersByHand) {
  // Per layer: Q, K, V (8 KV heads of 128), O, two RMSNorm scales, a router h×8 and 8 SwiGLU experts (3·h·f).
  const PlannerModel m = planner_model_preset("mixtral-8x7b");
  const double h = 4096, f = 14336, V = 32000, L = 32;
  const double attention = h * (h + 2 * 8 * 128) + h * h + 2 * h, expert = 3 * h * f;
  const double psi = L * (attention + h * 8 + 8 * expert) + 2 * V * h;  // untied input and output tables
  EXPECT_DOUBLE_EQ(planner_parameters(m), psi);
  EXPECT_DOUBLE_EQ(planner_active_parameters(m), psi - L * 6 * expert);
  EXPECT_NEAR(psi / 1e9, 46.7, 0.05);                                    // Jiang et al. 2024: 47B
  EXPECT_NEAR(planner_active_parameters(m) / 1e9, 12.9, 0.05);           // and 13B active
}

TEST(PlannerMoe, TopKExpertFlopsAndModelFlops) {
  // No recomputation: 3 passes. Dense layer 24·s·h² + 4·s²·h per sequence; an MoE layer swaps the 16·s·h² FFN for a
  // router 2·s·h·E and k = 2 experts' 2·16·s·h². MFU's model FLOPs use Ψ_active.
  const PlannerModel m = gpt_moe();
  PlannerLayout l = moe_layout(1, 1, 1, 32, 8, 64);
  l.recomputation = Recomputation::kNone;
  const StepPlan plan = plan_step(m, a100(4), l);
  const double s = 2048, h = 4096, V = 50257, B = 64;
  const double dense = 24 * s * h * h + 4 * s * s * h;
  const double moe = 8 * s * h * h + 4 * s * s * h + 2 * s * h * 8 + 2 * 16 * s * h * h;
  EXPECT_NEAR(plan.hardware_flops / (B * (16 * 3 * dense + 16 * 3 * moe + 3 * 2 * s * h * V)), 1.0, 1e-14);
  EXPECT_NEAR(plan.model_flops / (B * s * (6 * planner_active_parameters(m) + 12 * 32 * h * s)), 1.0, 1e-14);
  EXPECT_LT(plan.active_parameters, plan.parameters);
}

TEST(PlannerMoe, ExpertAllToAllIsThePairwiseClosedForm) {
  // Each MoE layer: dispatch + combine forward, their gradients backward — 4 (selective recomputation reruns no
  // FFN), each a pairwise all-to-all of n = s·b·k·h·2/t bytes per rank: (e − 1)α + ((e − 1)/e)·n/bandwidth.
  PlannerModel m = gpt_moe();
  m.experts = 16;
  const double n = 2048.0 * 1 * 2 * 4096 * 2, alpha = 5e-6;
  const int per_stage_moe = 16, micro_batches = 2;  // B = 64 over d = 32
  const StepPlan nv = plan_step(m, a100(4), moe_layout(1, 1, 1, 32, 8, 64));  // 8 ranks: one node, NVLink
  const double a2a_nv = 7 * alpha + 7.0 / 8 * n / 300e9;
  EXPECT_NEAR(nv.time.expert / (micro_batches * per_stage_moe * 4 * a2a_nv), 1.0, 1e-12);
  // 16 ranks: two nodes of 8, each GPU on its own NIC: 8 rings side by side move a GPU's share at
  // min(NVLink, 8 × 25 GB/s) = 200 GB/s, with the network's latency.
  const StepPlan ib = plan_step(m, a100(4), moe_layout(1, 1, 1, 32, 16, 64));
  const double a2a_ib = 15 * alpha + 15.0 / 16 * n / 200e9;
  EXPECT_NEAR(ib.time.expert / (micro_batches * per_stage_moe * 4 * a2a_ib), 1.0, 1e-12);
  // Full recomputation reruns the forward's two; e = 1 moves nothing.
  PlannerLayout full = moe_layout(1, 1, 1, 32, 8, 64);
  full.recomputation = Recomputation::kFull;
  EXPECT_NEAR(plan_step(m, a100(4), full).time.expert / (micro_batches * per_stage_moe * 6 * a2a_nv), 1.0, 1e-12);
  EXPECT_EQ(plan_step(m, a100(4), moe_layout(1, 1, 1, 32, 1, 64)).time.expert, 0.0);
  EXPECT_NEAR(nv.time.total, nv.time.compute + nv.time.bubble + nv.time.tensor + nv.time.context + nv.time.expert +
                                 nv.time.pipeline + nv.time.data + nv.time.optimizer, 1e-12 * nv.time.total);
}

TEST(PlannerMoe, ExpertWeightsSplitOverE) {
  // fp16 weights per GPU: the dense part (attention, norms, routers, 16 dense FFNs, embeddings) whole, the 16 MoE
  // layers' 8 experts split over e. ZeRO 1 shards the optimizer state of the dense part over d·c = 32 replicas and
  // of the experts over d·c/e = 4 (the ranks that hold the same experts).
  const PlannerModel m = gpt_moe();
  const double h = 4096, ffn = 2 * h * 4 * h + 4 * h + h;  // one GPT FFN with biases
  const double psi = planner_parameters(m), experts = 16 * 8 * ffn, dense = psi - experts;
  PlannerLayout l = moe_layout(1, 1, 1, 32, 8, 64);
  l.zero_stage = 1;
  const StepPlan plan = plan_step(m, a100(4), l);
  EXPECT_NEAR(plan.memory.params / (2 * (dense + experts / 8)), 1.0, 1e-14);
  EXPECT_NEAR(plan.memory.optimizer / (12 * (dense / 32 + experts / 8 / 4)), 1.0, 1e-14);
}

TEST(PlannerContext, RingExchangeOfKvByHand) {
  // GPT-3 6.7B, t = 2, c = 4 (8 GPUs: NVLink): each attention pass sends c − 1 K/V blocks of
  // 2·(s/c)·b·h·2/t bytes; forward 1 + backward 2 + selective recomputation 1 = 4 passes, 32 layers, m = 8.
  const PlannerModel m = planner_model_preset("gpt3-6.7b");
  const double block = 2 * (2048.0 / 4) * 1 * 4096 * 2 / 2, alpha = 5e-6;
  const StepPlan nv = plan_step(m, a100(2), moe_layout(2, 4, 1, 2, 1, 16));
  EXPECT_NEAR(nv.time.context / (8 * 32 * 4 * 3 * (alpha + block / 300e9)), 1.0, 1e-12);
  // c = 8 with t = 2 spans two nodes: the ring runs on the NICs; m = 16/1.
  const double block8 = 2 * (2048.0 / 8) * 1 * 4096 * 2 / 2;
  const StepPlan ib = plan_step(m, a100(2), moe_layout(2, 8, 1, 1, 1, 16));
  EXPECT_NEAR(ib.time.context / (16 * 32 * 4 * 7 * (alpha + block8 / 25e9)), 1.0, 1e-12);
  EXPECT_EQ(plan_step(m, a100(2), moe_layout(2, 1, 1, 8, 1, 16)).time.context, 0.0);
}

TEST(PlannerContext, SameFlopsAndKorthikantiActivationsForASlice) {
  // c splits the work, not the FLOPs; each GPU keeps Korthikanti's activations for s/c tokens (p = 1: one
  // micro-batch in flight, 32 layers, selective recomputation), and its s/c·b × V/t logits in fp32 for the loss.
  const PlannerModel m = planner_model_preset("gpt3-6.7b");
  const StepPlan one = plan_step(m, a100(2), moe_layout(2, 1, 1, 8, 1, 16));
  const StepPlan four = plan_step(m, a100(2), moe_layout(2, 4, 1, 2, 1, 16));
  EXPECT_NEAR(four.hardware_flops / one.hardware_flops, 1.0, 1e-14);
  const double per_layer =
      transformer_layer_activation_bytes(2048.0 / 4, 1, 4096, 32, 2, false, Recomputation::kSelective);
  const double logits = 4.0 * (2048.0 / 4) * 1 * 50257 / 2;
  EXPECT_NEAR(four.memory.activations / (32 * per_layer + logits), 1.0, 1e-14);
  EXPECT_LT(four.memory.activations, one.memory.activations);
}

TEST(PlannerMoe, BadInputGetsTheRuleItBreaks) {
  const PlannerModel moe = gpt_moe();
  PlannerModel dense = planner_model_preset("gpt3-6.7b");
  EXPECT_EQ(plan_error(moe, a100(4), moe_layout(1, 1, 1, 32, 16, 64)),
            "8 experts are not divisible by e = 16 (each GPU holds experts/e)");
  EXPECT_EQ(plan_error(moe, a100(4), moe_layout(1, 1, 1, 32, 3, 64)),
            "e = 3 must divide d = 32 (the experts are split over data-parallel ranks)");
  EXPECT_EQ(plan_error(dense, a100(4), moe_layout(1, 1, 1, 32, 2, 64)),
            "expert parallelism e = 2 needs a mixture-of-experts model (experts > 0)");
  EXPECT_EQ(plan_error(moe, a100(4), moe_layout(1, 1, 32, 1, 1, 64)),
            "each chunk's 1 layers must be a multiple of the MoE interval 2 (every stage holds whole groups of dense and "
            "MoE layers)");
  EXPECT_EQ(plan_error(dense, a100(2), moe_layout(2, 4, 1, 4, 1, 16)),
            "t·c·p·d = 2·4·1·4 = 32 must equal the cluster's 16 GPUs");
  PlannerModel bad = moe;
  bad.top_k = 9;
  EXPECT_EQ(plan_error(bad, a100(4), moe_layout(1, 1, 1, 32, 8, 64)),
            "top-k must be between 1 and the 8 experts, got 9");
  bad = moe;
  bad.moe_every = 3;
  EXPECT_EQ(plan_error(bad, a100(4), moe_layout(1, 1, 1, 32, 8, 64)),
            "the MoE interval 3 must be >= 1 and divide the 32 layers");
  dense.sequence = 2046;
  EXPECT_EQ(plan_error(dense, a100(2), moe_layout(2, 4, 1, 2, 1, 16)),
            "sequence 2046 is not divisible by c = 4 (context parallelism gives each GPU an equal slice of every "
            "sequence)");
}

TEST(PlannerMoe, SearchFindsFittingExpertAndContextLayouts) {
  // Mixtral 8x7B with its 32k context on 128 H100s: every returned layout fits and is plan_step's own answer.
  SearchOptions o;
  o.global_batch = 256;
  o.contexts = {1, 2, 4};
  ClusterSpec c;
  c.gpu = gpu_preset("h100-sxm");
  c.nodes = 16;
  const PlannerModel m = planner_model_preset("mixtral-8x7b");
  const std::vector<StepPlan> best = search_layouts(m, c, o);
  ASSERT_FALSE(best.empty());
  for (const StepPlan& p : best) {
    EXPECT_TRUE(p.fits);
    EXPECT_DOUBLE_EQ(plan_step(m, c, p.layout).time.total, p.time.total);
  }
}
