// ZeRO stages 1, 2, 3 (FSDP) against the single-device run (same seed, same global batch: parameters equal after
// 1 and 20 steps), what each rank holds (Rajbhandari et al. 2020, Fig. 1, in fp64), and the bytes each stage moves
// against DP's 2(N−1)/N·Ψ.
#include <gtest/gtest.h>

#include "parallel_test_support.h"

#include <cmath>
#include <string>
#include <vector>

#include "dsml/data_parallel.h"
#include "dsml/error.h"
#include "dsml/memory_accountant.h"
#include "dsml/teacher_task.h"
#include "dsml/zero.h"

namespace {

// Ψ = 3·2·72 = 432; each block 144 values, divisible by 1, 2, 3, 4
dsml::MlpConfig model() { return dsml::MlpConfig{3, 6, 12}; }

dsml::OptimizerConfig optimizer(const std::string& kind) {
  dsml::OptimizerConfig o;
  o.kind = dsml::parse_optimizer(kind);
  o.lr = kind == "adam" ? 0.01 : 0.05;
  o.weight_decay = kind == "adam" || kind == "lamb" ? 0.01 : kind == "lars" ? 0.001 : 0.0;
  if (kind == "lars") {
    o.lr = 1.0;
    o.trust_coefficient = 0.02;  // LARS's γ·η is the relative step: 2% of ‖w‖ per step
  }
  return o;
}

constexpr int kBatch = 24;

dsml::ZeroOptions stage(int s) {
  dsml::ZeroOptions o;
  o.stage = s;
  return o;
}

struct Case {
  int stage;
  int dp;
  const char* optimizer;
};

class ZeroEquality : public ::testing::TestWithParam<Case> {};

TEST_P(ZeroEquality, MatchesTheSingleDeviceRunAfter1And20Steps) {
  const Case c = GetParam();
  const dsml::MlpConfig config = model();
  SingleDeviceReference reference(config, optimizer(c.optimizer), 1, 2);
  dsml::Zero zero(dsml::RankGrid{c.dp, 1, 1}, config, optimizer(c.optimizer), reference.initial(), stage(c.stage));
  expect_matches_single_device(zero, reference, kBatch);
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (int s : {1, 2, 3})
    for (int dp : {1, 2, 3, 4})
      for (const char* opt : {"sgd", "momentum", "adam", "lars", "lamb"}) out.push_back({s, dp, opt});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Stages, ZeroEquality, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return "zero" + std::to_string(info.param.stage) + "_dp" + std::to_string(info.param.dp) +
                                  "_" + info.param.optimizer;
                         });

TEST(Zero, Stage3OnAnUnevenShardStillMatches) {
  // Blocks of 2·5·7 = 70 values over 4 ranks: shards 18, 18, 17, 17 — the first n mod p one larger.
  dsml::MlpConfig config;
  config.layers = 2;
  config.width = 5;
  config.hidden = 7;
  const dsml::TeacherTask task(config, 3);
  dsml::MlpParams reference = dsml::init_mlp(config, 4);
  dsml::Optimizer reference_optimizer(optimizer("adam"));
  dsml::Zero zero(dsml::RankGrid{4, 1, 1}, config, optimizer("adam"), reference, stage(3));
  for (int step = 0; step < 5; ++step) {
    const dsml::Batch batch = task.make_batch(static_cast<std::uint64_t>(step), 8);
    dsml::reference_step(config, reference_optimizer, reference, batch);
    zero.step(batch);
  }
  EXPECT_LT(max_relative_difference(zero.full_params(), reference), kSameModel);
  const dsml::ParallelStep last = zero.step(task.make_batch(5, 8));
  EXPECT_DOUBLE_EQ(last.memory[0].params, 8.0 * 2 * 18);
  EXPECT_DOUBLE_EQ(last.memory[3].params, 8.0 * 2 * 17);
}

// Adam keeps 2 moments: optimizer state 2Ψ unsharded. Values per rank, ×8 bytes (fp64).
TEST(Zero, EachStageShardsWhatThePaperSays) {
  const dsml::MlpConfig config = model();
  const double psi = static_cast<double>(dsml::parameter_count(config));
  const dsml::TeacherTask task(config, 1);
  for (int N : {1, 2, 4}) {
    struct Expect { double params, grads, optimizer; };
    const Expect by_stage[] = {{psi, psi, 2 * psi / N}, {psi, psi / N, 2 * psi / N}, {psi / N, psi / N, 2 * psi / N}};
    for (int s = 1; s <= 3; ++s) {
      dsml::Zero zero(dsml::RankGrid{N, 1, 1}, config, optimizer("adam"), dsml::init_mlp(config, 2), stage(s));
      const dsml::ParallelStep step = zero.step(task.make_batch(0, kBatch));
      const Expect e = by_stage[s - 1];
      for (int d = 0; d < N; ++d) {
        const dsml::MemoryBreakdown& m = step.memory[static_cast<std::size_t>(d)];
        EXPECT_DOUBLE_EQ(m.params, 8 * e.params) << "stage " << s << " N=" << N;
        EXPECT_DOUBLE_EQ(m.grads, 8 * e.grads) << "stage " << s << " N=" << N;
        EXPECT_DOUBLE_EQ(m.optimizer, 8 * e.optimizer) << "stage " << s << " N=" << N;
        // The accountant's mixed-precision formula (2Ψ fp16 params, 2Ψ fp16 grads, 12Ψ fp32 master + m + v),
        // scaled to this fp64 run: params and grads 8/2 = 4×; state 16Ψ (m, v in fp64, no master copy) vs 12Ψ.
        const dsml::MemoryBreakdown formula = dsml::memory_per_device(psi, N, s);
        EXPECT_DOUBLE_EQ(m.params, 4 * formula.params) << "stage " << s << " N=" << N;
        EXPECT_DOUBLE_EQ(m.grads, 4 * formula.grads) << "stage " << s << " N=" << N;
        EXPECT_DOUBLE_EQ(m.optimizer, 16.0 / 12.0 * formula.optimizer) << "stage " << s << " N=" << N;
        // Activations are not sharded: every stage keeps its rows' x and H of every block, like DP.
        EXPECT_DOUBLE_EQ(m.activations, dsml::mlp_stack_activation_bytes(kBatch / N, 6, 12, 3, 8));
      }
    }
    // DP for comparison: everything replicated.
    dsml::DataParallel dp(dsml::RankGrid{N, 1, 1}, config, optimizer("adam"), dsml::init_mlp(config, 2));
    const dsml::MemoryBreakdown replicated = dp.step(task.make_batch(0, kBatch)).memory[0];
    EXPECT_DOUBLE_EQ(replicated.params + replicated.grads + replicated.optimizer, 8 * 4 * psi);
    const dsml::MemoryBreakdown stage0 = dsml::memory_per_device(psi, N, 0);
    EXPECT_DOUBLE_EQ(replicated.params + replicated.grads, 4 * (stage0.params + stage0.grads));
  }
}

TEST(Zero, CommunicationVolumeAgainstDataParallel) {
  const dsml::MlpConfig config = model();
  const double psi = static_cast<double>(dsml::parameter_count(config));
  const dsml::Batch batch = dsml::TeacherTask(config, 1).make_batch(0, kBatch);
  for (int N : {2, 3, 4}) {
    const double ring = (N - 1.0) / N * psi * 8;  // one reduce-scatter or all-gather of Ψ, per rank
    dsml::DataParallel dp(dsml::RankGrid{N, 1, 1}, config, optimizer("sgd"), dsml::init_mlp(config, 2));
    const double dp_bytes = dp.step(batch).comm.total_bytes();
    EXPECT_DOUBLE_EQ(dp_bytes, 2 * ring);

    auto step_of = [&](int s) {
      dsml::Zero z(dsml::RankGrid{N, 1, 1}, config, optimizer("sgd"), dsml::init_mlp(config, 2), stage(s));
      return z.step(batch).comm;
    };
    const dsml::CommLog z1 = step_of(1), z2 = step_of(2), z3 = step_of(3);
    // ZeRO-1 and ZeRO-2: reduce-scatter + all-gather = exactly DP's volume (Rajbhandari et al. §7.2.1).
    for (const dsml::CommLog* z : {&z1, &z2}) {
      EXPECT_DOUBLE_EQ(z->bytes("reduce-scatter"), ring);
      EXPECT_DOUBLE_EQ(z->bytes("all-gather"), ring);
      EXPECT_DOUBLE_EQ(z->bytes("all-reduce"), 0);
      EXPECT_DOUBLE_EQ(z->total_bytes(), dp_bytes);
    }
    EXPECT_DOUBLE_EQ(z3.bytes("all-gather"), 2 * ring);  // forward + backward gathers
    EXPECT_DOUBLE_EQ(z3.bytes("reduce-scatter"), ring);
    EXPECT_DOUBLE_EQ(z3.total_bytes(), 1.5 * dp_bytes);  // Rajbhandari et al. §7.2.2
    // Stage 3 works block by block: per block one gather forward, one backward, one reduce-scatter.
    ASSERT_EQ(z3.records().size(), 3u * 3u);
    EXPECT_EQ(z3.records()[0].label, "block 0 params (forward)");
    EXPECT_EQ(z3.records()[3].label, "block 2 params (backward)");
    EXPECT_EQ(z3.records()[4].label, "block 2 grads");
  }
}

// ZeRO-1/2 use DP's buckets: as many reduce-scatters as bucketed DP has all-reduces, then as many all-gathers.
TEST(Zero, Stages1And2SendTheGradientsInDataParallelBuckets) {
  const dsml::MlpConfig config = model();  // Ψ = 432
  const dsml::Batch batch = dsml::TeacherTask(config, 1).make_batch(0, kBatch);
  dsml::DataParallelOptions bucketed;
  bucketed.sync = dsml::GradientSync::bucketed;
  bucketed.bucket_bytes = 8 * 100;  // buckets of 100, 100, 100, 100, 32 values
  dsml::DataParallel dp(dsml::RankGrid{4, 1, 1}, config, optimizer("adam"), dsml::init_mlp(config, 2), bucketed);
  const dsml::CommLog dp_log = dp.step(batch).comm;
  ASSERT_EQ(dp_log.records().size(), 5u);
  for (int s : {1, 2}) {
    dsml::ZeroOptions o = stage(s);
    o.bucket_bytes = bucketed.bucket_bytes;
    dsml::Zero zero(dsml::RankGrid{4, 1, 1}, config, optimizer("adam"), dsml::init_mlp(config, 2), o);
    const dsml::ParallelStep step = zero.step(batch);
    ASSERT_EQ(step.comm.records().size(), 10u) << "stage " << s;
    for (std::size_t b = 0; b < 5; ++b) {
      const dsml::CommRecord& rs = step.comm.records()[b];
      const dsml::CommRecord& ag = step.comm.records()[5 + b];
      EXPECT_EQ(rs.kind, "reduce-scatter");
      EXPECT_EQ(rs.label, "bucket " + std::to_string(b) + " grads");
      EXPECT_EQ(ag.kind, "all-gather");
      EXPECT_EQ(ag.label, "bucket " + std::to_string(b) + " params");
      // Half an all-reduce each: together exactly DP's bucket.
      EXPECT_DOUBLE_EQ(rs.bytes_per_rank + ag.bytes_per_rank, dp_log.records()[b].bytes_per_rank) << "bucket " << b;
    }
    // Rank 0 owns shard 0 of every bucket: 25 + 25 + 25 + 25 + 8 = 108 values of Adam state ×2.
    EXPECT_DOUBLE_EQ(step.memory[0].optimizer, 8.0 * 2 * 108);
    EXPECT_DOUBLE_EQ(step.memory[0].grads, 8.0 * (s == 1 ? 432 : 108));
  }
}

// LARS and LAMB under ZeRO: the sharded step all-reduces 2 sums of squares per tensor — and it must. With the
// shard's own norms (what update_shard would compute) the replicas would apply different ratios.
TEST(Zero, LayerwiseOptimizersAllReduceTheirSquaredNorms) {
  const dsml::MlpConfig config = model();  // 3 blocks: 6 tensors of 72 values; one 25 MiB bucket of 432
  const dsml::TeacherTask task(config, 1);
  for (int s : {1, 3}) {
    dsml::Zero zero(dsml::RankGrid{4, 1, 1}, config, optimizer("lamb"), dsml::init_mlp(config, 2), stage(s));
    const dsml::ParallelStep step = zero.step(task.make_batch(0, kBatch));
    const std::vector<dsml::CommRecord> norms = records_labelled(step.comm, "trust-ratio norms");
    ASSERT_EQ(norms.size(), 1u) << "stage " << s;
    EXPECT_EQ(norms[0].kind, "all-reduce");
    EXPECT_EQ(norms[0].ranks, 4);
  }
  // update_shard alone still refuses them: one shard cannot know the whole tensor's norm.
  dsml::Buffer w(3, 1.0), g(3, 1.0);
  dsml::ShardMoments m;
  for (const char* opt : {"lars", "lamb"}) {
    try {
      dsml::update_shard(optimizer(opt), 1, w, g, m);
      ADD_FAILURE() << "expected dsml::Error for " << opt;
    } catch (const dsml::Error& e) {
      EXPECT_NE(std::string(e.what()).find("whole norm"), std::string::npos) << e.what();
    }
  }
}

TEST(Zero, RejectsBadArguments) {
  const dsml::MlpConfig config = model();
  const dsml::MlpParams init = dsml::init_mlp(config, 2);
  EXPECT_THROW(dsml::Zero(dsml::RankGrid{2, 1, 1}, config, optimizer("sgd"), init, stage(4)), dsml::Error);
  EXPECT_THROW(dsml::Zero(dsml::RankGrid{2, 1, 2}, config, optimizer("sgd"), init, stage(1)), dsml::Error);
  dsml::Zero three(dsml::RankGrid{3, 1, 1}, config, optimizer("sgd"), init, stage(3));
  EXPECT_THROW(three.step(dsml::TeacherTask(config, 1).make_batch(0, 10)), dsml::Error);
  dsml::Buffer w(3), g(2);
  dsml::ShardMoments m;
  EXPECT_THROW(dsml::update_shard(optimizer("sgd"), 1, w, g, m), dsml::Error);
  g.resize(3);
  EXPECT_THROW(dsml::update_shard(optimizer("sgd"), 0, w, g, m), dsml::Error);  // t is 1-based
  m.first = Eigen::MatrixXd::Zero(2, 1);  // state of another shard
  EXPECT_THROW(dsml::update_shard(optimizer("momentum"), 1, w, g, m), dsml::Error);
}

// The caller-held state of a shard update: empty or one value per parameter for each moment the kind uses, the
// unused ones ignored, and in place only a full-length state (it is written back).
TEST(Zero, ShardStateIsEmptyOrOneValuePerParameter) {
  using dsml::OptimizerKind;
  EXPECT_NO_THROW(dsml::check_shard_state(OptimizerKind::adam, 24, 0, 0, false));
  EXPECT_NO_THROW(dsml::check_shard_state(OptimizerKind::adam, 24, 24, 24, true));
  EXPECT_NO_THROW(dsml::check_shard_state(OptimizerKind::sgd, 24, 5, 7, true));       // neither moment used
  EXPECT_NO_THROW(dsml::check_shard_state(OptimizerKind::momentum, 24, 24, 0, true));  // v unused
  EXPECT_EQ(error_of([] { dsml::check_shard_state(OptimizerKind::adam, 3, 2, 0, false); }),
            "m has 2 numbers, expected 0 (zeros: the start) or one per parameter, 3");
  EXPECT_EQ(error_of([] { dsml::check_shard_state(OptimizerKind::adam, 3, 3, 1, false); }),
            "v has 1 numbers, expected 0 (zeros: the start) or one per parameter, 3");
  EXPECT_EQ(error_of([] { dsml::check_shard_state(OptimizerKind::adam, 24, 0, 24, true); }),
            "m has 0 numbers, expected one per parameter, 24 (in place, the state is updated, not created: start from "
            "zeros)");
}

}  // namespace
