// The memory accountant against the ZeRO paper's example, Korthikanti et al.'s formulas on a case worked by
// hand, monotonicity, and bad arguments.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "dsml/error.h"
#include "dsml/memory_accountant.h"
#include "dsml/mlp.h"

namespace dsml {
namespace {

// GB to the paper's one decimal (ZeRO reports 10^9 bytes).
double gb_rounded(double bytes) { return std::round(bytes / 1e8) / 10.0; }

TEST(MemoryAccountant, ZeroPaperExample) {
  // Rajbhandari et al. 2020, Figure 1: Ψ = 7.5 B, N_d = 64, K = 12.
  const double psi = 7.5e9;
  EXPECT_DOUBLE_EQ(memory_per_device(psi, 64, 0).total, 120e9);
  EXPECT_DOUBLE_EQ(gb_rounded(memory_per_device(psi, 64, 0).total), 120.0);
  EXPECT_DOUBLE_EQ(gb_rounded(memory_per_device(psi, 64, 1).total), 31.4);
  EXPECT_DOUBLE_EQ(gb_rounded(memory_per_device(psi, 64, 2).total), 16.6);
  EXPECT_DOUBLE_EQ(gb_rounded(memory_per_device(psi, 64, 3).total), 1.9);
  // The exact values behind the rounding.
  EXPECT_DOUBLE_EQ(memory_per_device(psi, 64, 1).total, 4 * psi + 12 * psi / 64);   // 31.40625 GB
  EXPECT_DOUBLE_EQ(memory_per_device(psi, 64, 2).total, 2 * psi + 14 * psi / 64);   // 16.640625 GB
  EXPECT_DOUBLE_EQ(memory_per_device(psi, 64, 3).total, 16 * psi / 64);             // 1.875 GB
}

TEST(MemoryAccountant, BreakdownNamesWhatEachStagePartitions) {
  const double psi = 1e9;
  const MemoryBreakdown s1 = memory_per_device(psi, 8, 1, 5e9);
  EXPECT_DOUBLE_EQ(s1.params, 2e9);
  EXPECT_DOUBLE_EQ(s1.grads, 2e9);
  EXPECT_DOUBLE_EQ(s1.optimizer, 12e9 / 8);
  EXPECT_DOUBLE_EQ(s1.activations, 5e9);
  EXPECT_DOUBLE_EQ(s1.total, 2e9 + 2e9 + 1.5e9 + 5e9);
  const MemoryBreakdown s2 = memory_per_device(psi, 8, 2);
  EXPECT_DOUBLE_EQ(s2.grads, 2e9 / 8);
  EXPECT_DOUBLE_EQ(s2.params, 2e9);
  const MemoryBreakdown s3 = memory_per_device(psi, 8, 3);
  EXPECT_DOUBLE_EQ(s3.params, 2e9 / 8);
  EXPECT_DOUBLE_EQ(s3.activations, 0.0);
  // One device: every stage is plain 16Ψ.
  for (int stage = 0; stage <= 3; ++stage) EXPECT_DOUBLE_EQ(memory_per_device(psi, 1, stage).total, 16e9);
}

TEST(MemoryAccountant, MonotoneInStageDevicesAndParameters) {
  for (int n : {1, 2, 8, 64, 1024}) {
    for (int stage = 1; stage <= 3; ++stage) {
      EXPECT_LE(memory_per_device(7e9, n, stage).total, memory_per_device(7e9, n, stage - 1).total);
      if (n > 1) EXPECT_LT(memory_per_device(7e9, n, stage).total, memory_per_device(7e9, n / 2, stage).total);
    }
    for (int stage = 0; stage <= 3; ++stage) {
      EXPECT_LT(memory_per_device(1e9, n, stage).total, memory_per_device(2e9, n, stage).total);
    }
  }
  // Stage 0 does not shrink with more devices: plain data parallelism replicates everything.
  EXPECT_DOUBLE_EQ(memory_per_device(7e9, 1, 0).total, memory_per_device(7e9, 512, 0).total);
}

TEST(MemoryAccountant, KorthikantiFormulasByHand) {
  // s = 4, b = 2, h = 8, a = 2: s·b·h = 64, 5·a·s/h = 5.
  EXPECT_DOUBLE_EQ(transformer_layer_activation_bytes(4, 2, 8, 2), 64.0 * (34 + 5));        // 2496
  EXPECT_DOUBLE_EQ(transformer_layer_activation_bytes(4, 2, 8, 2, 2), 64.0 * (10 + 12 + 2.5));  // 1568
  EXPECT_DOUBLE_EQ(transformer_layer_activation_bytes(4, 2, 8, 2, 2, true), 64.0 * 39 / 2);  // 1248
  EXPECT_DOUBLE_EQ(transformer_layer_activation_bytes(4, 2, 8, 2, 1, false, Recomputation::kSelective), 64.0 * 34);
  EXPECT_DOUBLE_EQ(transformer_layer_activation_bytes(4, 2, 8, 2, 2, false, Recomputation::kSelective),
                   64.0 * (10 + 12));
  EXPECT_DOUBLE_EQ(transformer_layer_activation_bytes(4, 2, 8, 2, 2, true, Recomputation::kSelective), 64.0 * 17);
  EXPECT_DOUBLE_EQ(transformer_layer_activation_bytes(4, 2, 8, 2, 1, false, Recomputation::kFull), 128.0);
  EXPECT_DOUBLE_EQ(transformer_layer_activation_bytes(4, 2, 8, 2, 2, true, Recomputation::kFull), 64.0);
  // t = 1: sequence parallelism changes nothing.
  EXPECT_DOUBLE_EQ(transformer_layer_activation_bytes(4, 2, 8, 2, 1, true), 2496.0);
}

TEST(MemoryAccountant, KorthikantiGpt3LayerScale) {
  // GPT-3 175B shape (Korthikanti et al. Table 3): s = 2048, b = 1, h = 12288, a = 96.
  // sbh·(34 + 5·96·2048/12288) = 25.17 M · 114 = 2.869 GB per layer with no parallelism; t = 8 with sequence
  // parallelism divides it by 8.
  const double none = transformer_layer_activation_bytes(2048, 1, 12288, 96);
  EXPECT_DOUBLE_EQ(none, 2048.0 * 12288 * (34 + 80));
  EXPECT_NEAR(none / 1e9, 2.869, 5e-4);
  EXPECT_DOUBLE_EQ(transformer_layer_activation_bytes(2048, 1, 12288, 96, 8, true), none / 8);
}

TEST(MemoryAccountant, ActivationsShrinkWithParallelismAndRecomputation) {
  double previous = INFINITY;
  for (int t : {1, 2, 4, 8}) {
    const double tp = transformer_layer_activation_bytes(2048, 4, 4096, 32, t);
    const double sp = transformer_layer_activation_bytes(2048, 4, 4096, 32, t, true);
    EXPECT_LT(tp, previous);
    EXPECT_LE(sp, tp);
    previous = tp;
    const double selective = transformer_layer_activation_bytes(2048, 4, 4096, 32, t, true, Recomputation::kSelective);
    const double full = transformer_layer_activation_bytes(2048, 4, 4096, 32, t, true, Recomputation::kFull);
    EXPECT_LT(selective, sp);
    EXPECT_LT(full, selective);
  }
  // Longer sequences cost quadratically through the attention scores.
  EXPECT_GT(transformer_layer_activation_bytes(4096, 1, 4096, 32),
            2 * transformer_layer_activation_bytes(2048, 1, 4096, 32));
}

TEST(MemoryAccountant, MlpBlockKeepsInputAndPreActivation) {
  EXPECT_DOUBLE_EQ(mlp_block_activation_values(32, 64, 256), 32.0 * (64 + 256));  // 10 240 values
  EXPECT_DOUBLE_EQ(mlp_stack_activation_bytes(32, 64, 256, 4, 8), 4 * 10240.0 * 8);  // 327 680 bytes, doubles
  EXPECT_DOUBLE_EQ(mlp_stack_activation_bytes(32, 64, 256, 4, 2), 4 * 10240.0 * 2);
  // Recomputing H from x keeps only the block inputs.
  EXPECT_DOUBLE_EQ(mlp_block_activation_values(32, 64, 256, false), 32.0 * 64);
  EXPECT_DOUBLE_EQ(mlp_stack_activation_bytes(32, 64, 256, 4, 8, false), 4 * 32.0 * 64 * 8);
}

TEST(MemoryAccountant, MlpCountMatchesWhatMlpForwardKeeps) {
  // The values in MlpForward.inputs and .pre for L = 3, B = 5, D = 4, F = 16.
  MlpConfig config;
  config.layers = 3;
  config.width = 4;
  config.hidden = 16;
  const MlpParams params = init_mlp(config, 7);
  const MlpForward kept = mlp_forward(config, params, Eigen::MatrixXd::Ones(5, 4));
  double values = 0;
  for (const auto& x : kept.inputs) values += static_cast<double>(x.size());
  for (const auto& h : kept.pre) values += static_cast<double>(h.size());
  EXPECT_DOUBLE_EQ(values, 3 * mlp_block_activation_values(5, 4, 16));
}

TEST(MemoryAccountant, RejectsBadArguments) {
  EXPECT_THROW(memory_per_device(0, 8, 1), Error);
  EXPECT_THROW(memory_per_device(NAN, 8, 1), Error);
  EXPECT_THROW(memory_per_device(1e9, 0, 1), Error);
  EXPECT_THROW(memory_per_device(1e9, 8, 1, -1), Error);
  try {
    memory_per_device(1e9, 8, 4);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "ZeRO stage must be 0, 1, 2 or 3, got 4");
  }
  EXPECT_THROW(memory_per_device(1e9, 8, -1), Error);
  EXPECT_THROW(transformer_layer_activation_bytes(0, 1, 8, 2), Error);
  EXPECT_THROW(transformer_layer_activation_bytes(4, 1, 8, 2, 0), Error);
  EXPECT_THROW(transformer_layer_activation_bytes(4, 1, -8, 2), Error);
  EXPECT_THROW(transformer_layer_activation_bytes(4, 1, 8, INFINITY), Error);
  EXPECT_THROW(mlp_block_activation_values(0, 64, 256), Error);
  EXPECT_THROW(mlp_stack_activation_bytes(32, 64, 256, 0, 4), Error);
  EXPECT_THROW(mlp_stack_activation_bytes(32, 64, 256, 2, 0), Error);
}

}  // namespace
}  // namespace dsml
