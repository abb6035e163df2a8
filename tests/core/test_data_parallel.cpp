// Data parallelism (naive, bucketed, gradient accumulation) against the single-device run: same seed, same global
// batch, parameters equal after 1 and 20 steps; plus the bytes each variant moves and what each rank holds.
#include <gtest/gtest.h>

#include "parallel_test_support.h"

#include <cmath>
#include <string>
#include <vector>

#include "dsml/data_parallel.h"
#include "dsml/error.h"
#include "dsml/memory_accountant.h"
#include "dsml/teacher_task.h"

namespace {

// Ψ = 2·2·6·12 = 288 values, 72 per tensor
dsml::MlpConfig model() { return dsml::MlpConfig{2, 6, 12}; }

// The strategy tests' settings (parallel_test_support.h).
dsml::OptimizerConfig optimizer(const std::string& kind) { return test_optimizer(kind); }

constexpr int kBatch = 24;  // divisible by dp ∈ {1, 2, 3, 4} times 2 micro-batches

struct Case {
  const char* variant;  // "naive", "bucketed", "accumulate"
  int dp;
  const char* optimizer;
};

std::ostream& operator<<(std::ostream& os, const Case& c) {
  return os << c.variant << " dp=" << c.dp << " " << c.optimizer;
}

dsml::DataParallelOptions options_for(const std::string& variant) {
  dsml::DataParallelOptions o;
  if (variant == "bucketed") {
    o.sync = dsml::GradientSync::bucketed;
    o.bucket_bytes = 8 * 120;  // 288 values → buckets of 120, 120, 48
  }
  if (variant == "accumulate") o.micro_batches = 2;
  return o;
}

class DataParallelEquality : public ::testing::TestWithParam<Case> {};

TEST_P(DataParallelEquality, MatchesTheSingleDeviceRunAfter1And20Steps) {
  const Case c = GetParam();
  const dsml::MlpConfig config = model();
  SingleDeviceReference reference(config, optimizer(c.optimizer), 1, 2);
  dsml::DataParallel dp(dsml::RankGrid{c.dp, 1, 1}, config, optimizer(c.optimizer), reference.initial(),
                        options_for(c.variant));
  const auto step = [&](dsml::DataParallel& t, const dsml::Batch& batch) {
    const double loss = t.step(batch).loss;
    for (int d = 1; d < c.dp; ++d)  // every replica holds rank 0's parameters (full_params)
      EXPECT_LT(max_relative_difference(t.params(d), t.params(0)), kSameModel) << "rank " << d;
    return loss;
  };
  EXPECT_LT(difference_beside_single_device(dp, reference, kBatch, 20, step), kSameModel);
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const char* variant : {"naive", "bucketed", "accumulate"})
    for (int dp : {1, 2, 3, 4})
      for (const char* opt : {"sgd", "adam"}) out.push_back({variant, dp, opt});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Variants, DataParallelEquality, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(info.param.variant) + "_dp" + std::to_string(info.param.dp) + "_" +
                                  info.param.optimizer;
                         });

double psi() { return static_cast<double>(dsml::parameter_count(model())); }

dsml::ParallelStep one_step(int dp, const dsml::DataParallelOptions& options, int batch = kBatch) {
  const dsml::MlpConfig config = model();
  dsml::DataParallel run(dsml::RankGrid{dp, 1, 1}, config, optimizer("sgd"), dsml::init_mlp(config, 2), options);
  return run.step(dsml::TeacherTask(config, 1).make_batch(0, batch));
}

TEST(DataParallel, RingAllReduceMovesTwoPMinusOneOverPPsiEightBytesPerRank) {
  for (int p : {1, 2, 3, 4}) {
    const double expected = 2.0 * (p - 1) / p * psi() * 8.0;  // every tensor (72) and bucket divisible by p
    for (const char* variant : {"naive", "bucketed", "accumulate"}) {
      const dsml::ParallelStep s = one_step(p, options_for(variant));
      EXPECT_DOUBLE_EQ(s.comm.bytes("all-reduce"), expected) << variant << " p=" << p;
      EXPECT_DOUBLE_EQ(s.comm.total_bytes(), expected) << variant << " p=" << p;
    }
  }
}

TEST(DataParallel, BucketingSendsFewerLargerMessagesWithTheSameBytes) {
  const dsml::ParallelStep naive = one_step(4, options_for("naive"));
  const dsml::ParallelStep bucketed = one_step(4, options_for("bucketed"));
  ASSERT_EQ(naive.comm.records().size(), 4u);  // one per tensor: 2 blocks × (w_in, w_out), as backward ends them
  EXPECT_EQ(naive.comm.records()[0].label, "blocks[1].w_out");
  EXPECT_EQ(naive.comm.records()[1].label, "blocks[1].w_in");
  EXPECT_EQ(naive.comm.records()[3].label, "blocks[0].w_in");
  ASSERT_EQ(bucketed.comm.records().size(), 3u);  // ⌈288 / 120⌉
  EXPECT_EQ(bucketed.comm.records()[0].label, "bucket 0");
  EXPECT_EQ(bucketed.comm.records()[2].label, "bucket 2");
  // DDP's order: bucket 0 holds the LAST 120 values (block 1, done first by backward); bucket 2, the first 48,
  // is the partial one.
  EXPECT_DOUBLE_EQ(bucketed.comm.records()[0].bytes_per_rank, 2.0 * 3 / 4 * 120 * 8);
  EXPECT_DOUBLE_EQ(bucketed.comm.records()[2].bytes_per_rank, 2.0 * 3 / 4 * 48 * 8);
  const std::vector<dsml::Bucket> buckets = dsml::gradient_buckets(288, 120);
  ASSERT_EQ(buckets.size(), 3u);
  EXPECT_EQ(buckets[0].begin, 168u);
  EXPECT_EQ(buckets[0].end, 288u);
  EXPECT_EQ(buckets[2].begin, 0u);
  EXPECT_EQ(buckets[2].end, 48u);
  EXPECT_EQ(dsml::bucket_values(8 * 120, 8), 120u);
  EXPECT_EQ(dsml::bucket_values(3, 8), 1u);  // at least one value per bucket
  EXPECT_DOUBLE_EQ(naive.comm.bytes("all-reduce"), bucketed.comm.bytes("all-reduce"));
  // One huge bucket = one message.
  dsml::DataParallelOptions one = options_for("bucketed");
  one.bucket_bytes = 1e9;
  EXPECT_EQ(one_step(4, one).comm.records().size(), 1u);
}

TEST(DataParallel, AccumulationCommunicatesOncePerKMicroBatches) {
  // k = 3 micro-batches of 8 rows per optimizer step vs 3 separate steps of 8 rows: same samples, 1/3 the bytes.
  dsml::DataParallelOptions acc;
  acc.micro_batches = 3;
  const double accumulated = one_step(2, acc, 2 * 3 * 4).comm.total_bytes();
  const double per_micro_step = one_step(2, options_for("naive"), 2 * 4).comm.total_bytes();
  EXPECT_DOUBLE_EQ(accumulated, per_micro_step);  // bytes per step do not grow with k …
  EXPECT_DOUBLE_EQ((accumulated / 24) / (per_micro_step / 8), 1.0 / 3);  // … so per sample they fall by k
}

TEST(DataParallel, EveryRankHoldsTheFullModelGradientsAndOptimizerState) {
  const dsml::MlpConfig config = model();
  const dsml::TeacherTask task(config, 1);
  for (const char* opt : {"sgd", "momentum", "adam"}) {
    for (int k : {1, 2}) {
      dsml::DataParallelOptions options;
      options.micro_batches = k;
      dsml::DataParallel run(dsml::RankGrid{4, 1, 1}, config, optimizer(opt), dsml::init_mlp(config, 2), options);
      const dsml::ParallelStep step = run.step(task.make_batch(0, kBatch));
      const double moments = std::string(opt) == "adam" ? 2 : std::string(opt) == "momentum" ? 1 : 0;
      // One micro-batch of 24 / (4·k) rows alive at a time: x (rows, 6) and H (rows, 12) per block.
      const double activations = 8.0 * 2 * (kBatch / (4 * k)) * (6 + 12);
      EXPECT_DOUBLE_EQ(activations, dsml::mlp_stack_activation_bytes(kBatch / (4 * k), 6, 12, 2, 8));
      ASSERT_EQ(step.memory.size(), 4u);
      for (const dsml::MemoryBreakdown& m : step.memory) {
        EXPECT_DOUBLE_EQ(m.params, 8 * psi());
        EXPECT_DOUBLE_EQ(m.grads, 8 * psi());
        EXPECT_DOUBLE_EQ(m.optimizer, moments * 8 * psi()) << opt;
        EXPECT_DOUBLE_EQ(m.activations, activations) << opt << " k=" << k;
        EXPECT_DOUBLE_EQ(m.total, (2 + moments) * 8 * psi() + activations);
      }
    }
  }
}

TEST(DataParallel, RejectsWhatItCannotSplitExactly) {
  const dsml::MlpConfig config = model();
  const dsml::MlpParams init = dsml::init_mlp(config, 2);
  dsml::DataParallel three(dsml::RankGrid{3, 1, 1}, config, optimizer("sgd"), init);
  try {
    three.step(dsml::TeacherTask(config, 1).make_batch(0, 10));
    ADD_FAILURE() << "expected dsml::Error";
  } catch (const dsml::Error& e) {
    EXPECT_NE(std::string(e.what()).find("not divisible"), std::string::npos) << e.what();
  }
  EXPECT_THROW(dsml::DataParallel(dsml::RankGrid{2, 2, 1}, config, optimizer("sgd"), init), dsml::Error);
  EXPECT_THROW(dsml::DataParallel(dsml::RankGrid{0, 1, 1}, config, optimizer("sgd"), init), dsml::Error);
  dsml::DataParallelOptions bad;
  bad.micro_batches = 0;
  EXPECT_THROW(dsml::DataParallel(dsml::RankGrid{2, 1, 1}, config, optimizer("sgd"), init, bad), dsml::Error);
  bad = options_for("bucketed");
  bad.bucket_bytes = 0;
  EXPECT_THROW(dsml::DataParallel(dsml::RankGrid{2, 1, 1}, config, optimizer("sgd"), init, bad), dsml::Error);
  EXPECT_THROW(three.params(3), dsml::Error);
}

}  // namespace
