// The step cost model's ZeRO-1/2 against bucketed DP (the same buckets, the same bytes and α terms — ZeRO
// §7.2.1), and the model at real sizes (nothing allocated per parameter).
#include <gtest/gtest.h>

#include <string>

#include "dsml/step_cost.h"
#include "step_cost_test_support.h"
#include "test_support.h"

namespace {

using dsml::StepCost;
using dsml::StepCostConfig;

// ZeRO-1 and ZeRO-2 are a reduce-scatter plus an all-gather per bucket of DP's buckets
// — on the ring exactly the α terms and bytes of bucketed DP's all-reduces (ZeRO §7.2.1), so all three cost the
// same; and with Ψ in 3 buckets each pays 3 ring all-reduces' worth, not one unbucketed pass.
TEST(StepCost, ZeroStages1And2CostExactlyWhatBucketedDataParallelCosts) {
  for (const double bucket_values : {1e9, 700.0}) {  // one bucket; Ψ = 2048 values in 700 + 700 + 648
    StepCostConfig dp = small_step_cost("dp-bucketed", {4, 1, 1});
    dp.bucket_bytes = bucket_values * dp.element_bytes;
    const StepCost bucketed = dsml::step_cost(dp, step_cost_network());
    const std::size_t buckets = bucket_values > 2048 ? 1 : 3;
    ASSERT_EQ(bucketed.comm.records().size(), buckets);
    for (const std::string zero : {"zero1", "zero2"}) {
      StepCostConfig z = small_step_cost(zero, {4, 1, 1});
      z.bucket_bytes = dp.bucket_bytes;
      const StepCost cost = dsml::step_cost(z, step_cost_network());
      EXPECT_EQ(cost.comm.records().size(), 2 * buckets) << zero;
      EXPECT_EQ(cost.comm_s.count("all-reduce"), 0u) << zero;
      EXPECT_NEAR(cost.comm_s.at("reduce-scatter") + cost.comm_s.at("all-gather"), bucketed.comm_s.at("all-reduce"),
                  1e-12 * bucketed.comm_s.at("all-reduce")) << zero;
      EXPECT_DOUBLE_EQ(cost.comm.total_bytes(), bucketed.comm.total_bytes()) << zero;
      EXPECT_NEAR(cost.total_s, bucketed.total_s, 1e-12 * bucketed.total_s) << zero;
    }
  }
}

// Nothing in the model is allocated per parameter: a GPT-3-sized stack (96 blocks, D = 12288, F = 4D:
// Ψ = 2·96·12288·49152 ≈ 1.16e11) on 64 GPUs is priced directly, and its bytes per parameter are those of the
// small model — the ZeRO paper's 16Ψ / (4 + 12/N)Ψ / … with 2-byte params and grads and 12 bytes of Adam state.
TEST(StepCost, PricesRealModelSizes) {
  StepCostConfig c = small_step_cost("zero1", {64, 1, 1});
  c.model.layers = 96;
  c.model.width = 12288;
  c.model.hidden = 4 * 12288;
  c.batch = 64;
  c.element_bytes = 2;
  c.optimizer_states = 6;  // 12 bytes: fp32 master, m, v
  c.bucket_bytes = 1e9;
  const double psi = 2.0 * 96 * 12288 * 4 * 12288;
  const StepCost cost = dsml::step_cost(c, step_cost_network());
  EXPECT_DOUBLE_EQ(cost.memory[0].params, 2 * psi);
  EXPECT_DOUBLE_EQ(cost.memory[0].grads, 2 * psi);
  EXPECT_NEAR(cost.memory[0].optimizer, 12 * psi / 64, 1e-12 * psi);  // shards of ⌈Ψ/N⌉ or ⌊Ψ/N⌋ per bucket
  EXPECT_EQ(cost.comm.records().size(), 2 * 232u);  // ⌈2Ψ bytes / 1 GB⌉ buckets, a reduce-scatter and a gather each
  EXPECT_GT(cost.total_s, cost.compute_s);
  // Too many buckets is refused with a reason, not an allocation of millions of phases.
  c.bucket_bytes = 1024;
  EXPECT_NE(error_of([&] { dsml::step_cost(c, step_cost_network()); }).find("more than 10000 buckets"), std::string::npos);
}

}  // namespace
