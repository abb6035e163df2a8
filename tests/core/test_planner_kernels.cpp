// The planner's kernels, stages and precision (dsml/planner.h) against hand counts: FlashAttention's FLOPs and bytes
// as its paper counts them, activations derived per architecture, unequal pipeline stages, FP8's bytes, FSDP's
// collectives, the reasons a search finds nothing, and the published runs every layout of which must fit.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "dsml/collective_cost.h"
#include "dsml/error.h"
#include "dsml/planner.h"
#include "dsml/planner_validation.h"
#include "test_planner_support.h"

using namespace dsml;
using planner_test::a100;
using planner_test::plan_error;

namespace {


ClusterSpec h100(int nodes) {
  ClusterSpec c = a100(nodes);
  c.gpu = gpu_preset("h100-sxm");
  return c;
}

}  // namespace

TEST(PlannerAttention, FusedCountsAsFlashAttentionCountsThem) {
  // Dao 2023 §4.1: forward 4·s²·d_h FLOPs per head and sequence, halved under the causal mask; backward 2.5×
  // forward. GPT-3 6.7B (32 heads of 128), b = 2, t = 2, s = 3000 (between the measured 2k and 4k).
  PlannerModel m = planner_model_preset("gpt3-6.7b");
  m.sequence = 3000;
  const GpuSpec gpu = gpu_preset("a100-80gb");
  const AttentionCost fused = attention_cost(m, gpu, AttentionKernel::kFlash2, 2, 2);
  const double s = 3000, heads = 16, dh = 128, b = 2;
  EXPECT_DOUBLE_EQ(fused.counted_flops, 4 * b * s * s * heads * dh);
  EXPECT_DOUBLE_EQ(fused.forward_flops, fused.counted_flops / 2);
  EXPECT_DOUBLE_EQ(fused.backward_flops, 2.5 * fused.forward_flops);
  // Q, K, V and O in 16 bits, the log-sum-exp statistics in fp32: nothing s×s.
  EXPECT_DOUBLE_EQ(fused.hbm_bytes, 4 * 2 * b * s * heads * dh + 4 * heads * b * s);
  EXPECT_DOUBLE_EQ(fused.activation_bytes, 4 * heads * b * s);
  // The A100's measured FlashAttention-2 rate, causal, d_h 128: 155 TFLOP/s at 2k, 173 at 4k; linear in log s.
  const double rate = (155 + (173 - 155) * std::log(s / 2048) / std::log(2.0)) * 1e12;
  EXPECT_NEAR(fused.forward_seconds, fused.forward_flops / rate, 1e-12 * fused.forward_seconds);
  EXPECT_NEAR(fused.backward_seconds, 2.5 * fused.forward_seconds, 1e-12 * fused.backward_seconds);
  // Unfused (Megatron 2021): the full s×s products, and the scores kept: softmax output, dropout mask and output.
  const AttentionCost unfused = attention_cost(m, gpu, AttentionKernel::kUnfused, 2, 2);
  EXPECT_DOUBLE_EQ(unfused.forward_flops, unfused.counted_flops);
  EXPECT_DOUBLE_EQ(unfused.activation_bytes, 5 * heads * b * s * s);
  m.dropout = false;
  EXPECT_DOUBLE_EQ(attention_cost(m, gpu, AttentionKernel::kUnfused, 2, 2).activation_bytes, 2 * heads * b * s * s);
  // At 64k the fused kernel is the cheaper by far in memory (statistics against scores) and in time.
  m.sequence = 65536;
  EXPECT_LT(attention_cost(m, gpu, AttentionKernel::kFlash2, 1).forward_seconds,
            attention_cost(m, gpu, AttentionKernel::kUnfused, 1).forward_seconds / 2);
  // A kernel with no measurement on this GPU is refused by name.
  try {
    attention_cost(m, gpu_preset("h100-sxm"), AttentionKernel::kFlashTriton, 1);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "no measurement of flash-attention-triton on the h100-sxm; measured: "
                                     "flash-attention-2, flash-attention-2, flash-attention-1, flash-attention-1, "
                                     "or unfused");
  }
}

TEST(PlannerAttention, HardwareFlopsWithAFusedCausalKernel) {
  // GPT-3 6.7B, B = 64: linear 24·s·h² a layer forward, 3 passes (+1 with full recomputation); attention forward
  // 2·s²·h (causal half of 4·s²·h), backward 2.5×, + a forward with full recomputation; logits 3 × 2·s·h·V.
  const PlannerModel m = planner_model_preset("gpt3-6.7b");
  const double s = 2048, h = 4096, L = 32, V = 50257, B = 64;
  PlannerLayout l;
  l.t = 1, l.p = 1, l.d = 64, l.global_batch = 64, l.recomputation = Recomputation::kNone;
  const StepPlan none = plan_step(m, a100(8), l);
  EXPECT_NEAR(none.hardware_flops / (B * (L * (3 * 24 * s * h * h + 3.5 * 2 * s * s * h) + 3 * 2 * s * h * V)), 1.0,
              1e-14);
  l.recomputation = Recomputation::kFull;
  const StepPlan full = plan_step(m, a100(8), l);
  EXPECT_NEAR(full.hardware_flops / (B * (L * (4 * 24 * s * h * h + 4.5 * 2 * s * s * h) + 3 * 2 * s * h * V)), 1.0,
              1e-14);
  // MFU counts the full s² whatever the kernel skips (PaLM; llm-foundry).
  EXPECT_NEAR(full.model_flops, B * s * (6 * full.parameters + 12 * L * h * s), 1e-6 * full.model_flops);
}

TEST(PlannerActivations, DerivedPerArchitectureForLlama) {
  // Llama 3 8B (SwiGLU f = 14336, 8 KV heads of 128, RMSNorm, no dropout), fused attention, t = 1, b = 1, s = 8192,
  // no recomputation, one stage: per layer 8sbh (norm inputs, attention and FFN inputs) + Q 2sbh + K, V 2·2·s·b·1024
  // + output 2sbh + gate, up and their product 3·2·s·b·f + the statistics 4·a·s·b; plus the logits 4·s·b·V.
  const PlannerModel m = planner_model_preset("llama3-8b");
  const double s = 8192, h = 4096, f = 14336, a = 32, V = 128256;
  PlannerLayout l;
  l.t = 1, l.p = 1, l.d = 8, l.global_batch = 8, l.recomputation = Recomputation::kNone;
  const double layer = 8 * s * h + 2 * s * h + 4 * s * 1024 + 2 * s * h + 6 * s * f + 4 * a * s;
  EXPECT_NEAR(plan_step(m, h100(1), l).memory.activations, 32 * layer + 4 * s * V, 1.0);
  // Korthikanti's 5as/h would have added 5·a·s²·b a layer: 10.7 GB a layer at 8k, more than an H100's HBM for 32.
  EXPECT_GT(5 * a * s * s * 32, 80e9);
}

TEST(PlannerStages, Llama405bOnSixteenStagesTakesALayerOffEachEnd) {
  // Llama 3 §3.3.2: 126 layers on p = 16, one layer fewer on the first and the last stage: 7, 8 × 14, 7.
  const PlannerModel m = planner_model_preset("llama3-405b");
  const ClusterSpec c = h100(128);  // 1024 GPUs: t = 8, p = 16, d = 8
  PlannerLayout l;
  l.t = 8, l.p = 16, l.global_batch = 128, l.sequence_parallel = true;
  const StepPlan plan = plan_step(m, c, l);
  ASSERT_EQ(plan.stages.size(), 16u);
  EXPECT_EQ(plan.layout.d, 8);
  EXPECT_EQ(plan.stages.front().layers, 7);
  EXPECT_EQ(plan.stages.back().layers, 7);
  for (int i = 1; i < 15; ++i) EXPECT_EQ(plan.stages[i].layers, 8);
  // 1F1B with unequal stages: m slots of the slowest stage, one of every other (fill and drain).
  double sum = 0, slowest = 0;
  for (const StagePlan& st : plan.stages) sum += st.seconds, slowest = std::max(slowest, st.seconds);
  EXPECT_NEAR(plan.time.bubble, sum - slowest, 1e-12 * sum);
  EXPECT_DOUBLE_EQ(plan.stages[plan.slowest_stage].seconds, slowest);
  // The output layer (2·s·h·V/t a sequence forward) is less than one layer, so a middle stage of 8 paces the
  // pipeline; the last stage's 7 layers and the logits outlast the first stage's 7 layers.
  EXPECT_GT(plan.slowest_stage, 0);
  EXPECT_LT(plan.slowest_stage, 15);
  EXPECT_GT(plan.stages.back().seconds, plan.stages.front().seconds);
  // Memory of the first stage, full recomputation with sequence parallelism: p = 16 micro-batches in flight, each
  // keeping every layer's input 2sbh/t, and one layer rebuilt whole in its backward.
  const double s = 8192, h = 16384, t = 8, f = 53248, a = 128;
  const double rebuilt = (8 * s * h + (2 * s * h + 4 * s * 1024 + 2 * s * h + 6 * s * f + 4 * a * s)) / t;
  EXPECT_NEAR(plan.stages.front().memory.activations, 16 * 7 * 2 * s * h / t + rebuilt, 1.0);
  // The last stage keeps one micro-batch in flight, and the fp32 logits of its s·b × V/t.
  EXPECT_NEAR(plan.stages.back().memory.activations, 1 * 7 * 2 * s * h / t + rebuilt + 4 * s * 128256 / t, 1.0);
  // The same stages given by hand price the same; a list that does not sum to the layers is refused.
  PlannerLayout given = l;
  given.stage_layers = {7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 7};
  EXPECT_DOUBLE_EQ(plan_step(m, c, given).time.total, plan.time.total);
  given.stage_layers[0] = 8;
  EXPECT_EQ(plan_error(m, c, given), "layers per stage sum to 127, the model has 126");
  given.stage_layers = {126};
  EXPECT_EQ(plan_error(m, c, given), "layers per stage lists 1 stages, p = 16");
}

TEST(PlannerStages, EqualStagesKeepTheFamiliarBubble) {
  // p equal stages: (p − 1)/v slots of one stage's micro-batch.
  const PlannerModel m = planner_model_preset("gpt3-175b");
  PlannerLayout l;
  l.t = 8, l.p = 8, l.global_batch = 512, l.attention = AttentionKernel::kUnfused;
  l.stage_layers = {12, 12, 12, 12, 12, 12, 12, 12};
  const StepPlan plan = plan_step(m, a100(8), l);
  // Stages 0–6 are alike; the last adds the logits. Fill and drain: the 7 others once.
  EXPECT_NEAR(plan.time.bubble, 7 * plan.stages[0].seconds, 1e-12 * plan.time.bubble);
}

TEST(PlannerPrecision, Fp8HalvesTheKeptMatmulInputsAndUsesTheFp8Rate) {
  // GPT-3 6.7B, t = 1, one stage, no recomputation: FP8 keeps the attention input, the FFN input (h each), the
  // projection's input (h) and the down projection's input (4h) as 1-byte copies: 7·s·b·h fewer bytes a layer.
  const PlannerModel m = planner_model_preset("gpt3-6.7b");
  PlannerLayout l;
  l.t = 1, l.p = 1, l.d = 8, l.global_batch = 8, l.recomputation = Recomputation::kNone;
  const StepPlan bf16 = plan_step(m, h100(1), l);
  l.precision = Precision::kFp8;
  const StepPlan fp8 = plan_step(m, h100(1), l);
  EXPECT_NEAR(bf16.memory.activations - fp8.memory.activations, 32 * 7 * 2048.0 * 4096, 1.0);
  EXPECT_LT(fp8.time.matmul, bf16.time.matmul);
  EXPECT_DOUBLE_EQ(fp8.time.attention, bf16.time.attention);  // attention stays in BF16
  EXPECT_DOUBLE_EQ(fp8.hardware_flops, bf16.hardware_flops);
  EXPECT_EQ(plan_error(m, a100(1), l), "the a100-80gb has no FP8 matmuls: choose bf16");
}

TEST(PlannerZero, FsdpGathersForForwardAndBackwardAndReducesEachMicroBatch) {
  // ZeRO-3 without overlap over d = 16 (two nodes of 8: min(NVLink, 8·NIC) = 200 GB/s a GPU), m = 4: per
  // micro-batch an all-gather of the 2Ψ bytes for forward, one for backward and a reduce-scatter of the gradients;
  // no gather after the step (the next forward gathers).
  const PlannerModel m = planner_model_preset("gpt3-6.7b");
  PlannerLayout l;
  l.t = 1, l.p = 1, l.d = 16, l.global_batch = 64, l.zero_stage = 3;
  const StepPlan plan = plan_step(m, a100(2), l);
  const CostModel link = CostModel::from_bandwidth(5e-6, 200e9);
  const double bytes = 2 * plan.parameters;
  const double per_micro_batch = 2 * closed_form_time("all-gather", "ring", 16, bytes, link).total() +
                                 closed_form_time("reduce-scatter", "ring", 16, bytes, link).total();
  EXPECT_NEAR(plan.time.data, 4 * per_micro_batch, 1e-12 * plan.time.data);
}

TEST(PlannerSearch, SaysWhyItFoundNothing) {
  const PlannerModel m = planner_model_preset("gpt3-175b");
  SearchOptions o;
  o.global_batch = 1537;
  o.micro_batches = {2, 4};  // an odd batch splits into no whole micro-batches of 2 or 4
  EXPECT_TRUE(search_layouts(m, a100(8), o).empty());
  EXPECT_EQ(search_refusal(m, a100(8), o),
            "global batch 1537 is not divisible by d·b for any layout of 64 GPUs (d divides the GPUs, b is one of the "
            "micro-batch sizes): every data-parallel replica runs whole micro-batches");
  o.global_batch = 512;
  o.micro_batches = {1, 2, 4, 8};
  EXPECT_TRUE(search_layouts(m, a100(1), o).empty());  // 175B on one node: 16 bytes a parameter alone are 2.8 TB
  EXPECT_EQ(search_refusal(m, a100(1), o).rfind("none of the ", 0), 0u) << search_refusal(m, a100(1), o);
  EXPECT_TRUE(search_refusal(m, a100(64), o).empty());
}

TEST(PlannerValidation, EveryPublishedRunFitsAndOnlyTable1IsInSample) {
  const PlannerValidation v = planner_validation();
  ASSERT_EQ(v.tables.size(), 3u);
  EXPECT_EQ(v.tables[1].rows.size(), 52u);  // llm-foundry's H100 BF16 table, every row
  EXPECT_EQ(v.tables[2].rows.size(), 61u);  // and its A100 80GB table
  for (const ValidationTable& t : v.tables) {
    EXPECT_EQ(t.fitting, static_cast<int>(t.rows.size())) << t.id;  // a run that ran fits where it ran
    EXPECT_EQ(t.in_sample, t.id == "narayanan-table1") << t.id;
  }
  for (const PlannerConstant& c : v.constants)
    EXPECT_TRUE(c.fitted_on.empty() || c.fitted_on.find("Narayanan") == 0) << c.name;  // nothing else fitted
  // The in-sample bound holds (the out-of-sample errors are reported by bench/published_runs, not enforced).
  EXPECT_LE(v.tables[0].worst_abs_error, 0.06);
  EXPECT_LE(v.tables[0].mean_abs_error, 0.03);
  // Each llm-foundry row's MFU as the table computes it: (6·NumParams + 12·l·h·s) a token against the peak.
  const FoundryRun row = llm_foundry_a100_80gb()[0];  // 70b, s 2048, 64 GPUs, 410 tokens/s/GPU, MFU 53.33 %
  EXPECT_NEAR(foundry_mfu(row, gpu_preset("a100-80gb"), row.tokens_per_gpu_s), 0.5333, 0.0015);
}

TEST(PlannerErrors, BadLayoutsStillNameTheirRule) {
  const PlannerModel llama = planner_model_preset("llama3-70b");  // 64 heads, 8 KV heads, 80 layers
  PlannerLayout l;
  l.t = 8, l.p = 81, l.global_batch = 81;
  EXPECT_EQ(plan_error(llama, h100(81), l), "80 layers cannot fill p = 81 pipeline stages (each needs a layer)");
  PlannerModel gqa = llama;
  gqa.kv_heads = 4;
  l.p = 1, l.global_batch = 8;
  EXPECT_EQ(plan_error(gqa, h100(1), l), "4 KV heads are not divisible by t = 8");
  l.t = 3;
  EXPECT_EQ(plan_error(llama, h100(1), l),
            "t·c·p = 3·1·1 = 3 does not divide the cluster's 8 GPUs (d = GPUs/(t·c·p) must be whole)");
  l.t = 8, l.global_batch = 1, l.micro_batch = 2;
  EXPECT_EQ(plan_error(llama, h100(1), l),
            "global batch 1 is not divisible by d·b = 1·2 (every data-parallel replica runs whole micro-batches)");
}
