// The step cost model against its formulas and against the strategies it models: single = 3 × forward FLOPs /
// speed; DP adds the ring all-reduce closed form of Ψ·4 bytes; TP divides compute by tp and adds 2L all-reduces of
// B·D·4 bytes; PP equals time_pipeline_schedule; and the collectives and memory it assumes equal, record for
// record, what one real step of each strategy (core/parallel/, fp64) logs and holds, × 0.5 for fp32. ZeRO against
// DP and real model sizes: test_step_cost_zero.cpp; overlap: test_step_overlap.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <string>
#include <vector>

#include "dsml/collective_cost.h"
#include "dsml/data_parallel.h"
#include "dsml/error.h"
#include "dsml/fsdp_tensor_parallel.h"
#include "dsml/pipeline_parallel.h"
#include "dsml/pipeline_schedule.h"
#include "dsml/step_cost.h"
#include "dsml/tensor_parallel.h"
#include "dsml/topology.h"
#include "dsml/zero.h"
#include "step_cost_test_support.h"
#include "test_support.h"

namespace {

using dsml::StepCost;
using dsml::StepCostConfig;

double comm_total(const StepCost& cost) {
  double total = 0;
  for (const auto& kv : cost.comm_s) total += kv.second;
  return total;
}

TEST(StepCost, SingleDeviceIsThreeForwardsOfFlops) {
  const StepCostConfig c = small_step_cost("single", {});
  const StepCost cost = dsml::step_cost(c, step_cost_network());
  const double forward = c.model.layers * 2.0 * (2.0 * 12 * 8 * 32);  // two (B,D)·(D,F) products per block
  EXPECT_DOUBLE_EQ(cost.total_s, 3 * forward / kStepCostSpeed);
  EXPECT_DOUBLE_EQ(cost.compute_s, cost.total_s);
  EXPECT_TRUE(cost.comm_s.empty());
  EXPECT_EQ(cost.bubble_s, 0);
  EXPECT_EQ(cost.comm.records().size(), 0u);
}

TEST(StepCost, RecomputationAddsOneProductPerBlock) {
  StepCostConfig c = small_step_cost("single", {});
  const double plain = dsml::step_cost(c, step_cost_network()).total_s;
  c.recompute = true;
  const double extra = c.model.layers * 2.0 * 12 * 8 * 32 / kStepCostSpeed;
  EXPECT_NEAR(dsml::step_cost(c, step_cost_network()).total_s - plain, extra, 1e-12 * extra);
  EXPECT_LT(dsml::step_memory(c)[0].activations, dsml::step_memory(small_step_cost("single", {}))[0].activations);
}

TEST(StepCost, DataParallelAddsOneRingAllReduceOfPsi) {
  const StepCostConfig single = small_step_cost("single", {}), dp = small_step_cost("dp-bucketed", {4, 1, 1});
  const double psi = static_cast<double>(dsml::parameter_count(single.model));
  const StepCost cost = dsml::step_cost(dp, step_cost_network());
  const double ring = dsml::closed_form_time("all-reduce", "ring", 4, psi * 4, step_cost_network()).total();
  EXPECT_DOUBLE_EQ(cost.comm_s.at("all-reduce"), ring);
  EXPECT_DOUBLE_EQ(cost.compute_s * 4, dsml::step_cost(single, step_cost_network()).compute_s);
  EXPECT_DOUBLE_EQ(cost.total_s, cost.compute_s + ring);
  // Naive DDP: the same bytes in 2L all-reduces of D·F values — more α terms.
  const StepCost naive = dsml::step_cost(small_step_cost("dp", {4, 1, 1}), step_cost_network());
  EXPECT_DOUBLE_EQ(naive.comm_s.at("all-reduce"),
                   8 * dsml::closed_form_time("all-reduce", "ring", 4, 8 * 32 * 4, step_cost_network()).total());
  // Accumulation over k micro-batches: the same FLOPs and the same collectives, a k-th of the activations.
  const StepCost accumulated = dsml::step_cost(small_step_cost("dp-accumulate", {4, 1, 1}, 3), step_cost_network());
  EXPECT_NEAR(accumulated.compute_s, naive.compute_s, 1e-15 * naive.compute_s);
  EXPECT_DOUBLE_EQ(accumulated.comm_s.at("all-reduce"), naive.comm_s.at("all-reduce"));
  EXPECT_DOUBLE_EQ(accumulated.memory[0].activations * 3, naive.memory[0].activations);
}

TEST(StepCost, TensorParallelDividesComputeAndAddsTwoAllReducesPerBlock) {
  const StepCost single = dsml::step_cost(small_step_cost("single", {}), step_cost_network());
  const StepCost tp = dsml::step_cost(small_step_cost("tp", {1, 4, 1}), step_cost_network());
  EXPECT_DOUBLE_EQ(tp.compute_s, single.compute_s / 4);
  const double one = dsml::closed_form_time("all-reduce", "ring", 4, 12 * 8 * 4, step_cost_network()).total();
  EXPECT_DOUBLE_EQ(tp.comm_s.at("all-reduce"), 2 * 4 * one);
  EXPECT_EQ(tp.comm.records().size(), 8u);
  EXPECT_EQ(tp.spans.size(), 16u * 4);  // 16 phases × 4 ranks
}

TEST(StepCost, PipelineIsTimedByItsSchedule) {
  for (const std::string name : {"pp-gpipe", "pp-1f1b"}) {
    const StepCostConfig c = small_step_cost(name, {1, 1, 2}, 3);
    const StepCost cost = dsml::step_cost(c, step_cost_network());
    const double t_f = 2 * dsml::block_forward_flops(4, 8, 32) / kStepCostSpeed;  // 2 blocks per stage, 4 rows per micro-batch
    const dsml::PipelineSchedule schedule = name == "pp-gpipe" ? dsml::gpipe(2, 3) : dsml::one_f_one_b(2, 3);
    const double p2p = dsml::message_time(step_cost_network(), 4 * 8 * 4);
    EXPECT_DOUBLE_EQ(cost.total_s, dsml::time_pipeline_schedule(schedule, t_f, 2 * t_f, p2p).makespan) << name;
    EXPECT_DOUBLE_EQ(cost.compute_s, 3 * 3 * t_f) << name;
    EXPECT_NEAR(cost.compute_s + cost.bubble_s + comm_total(cost), cost.total_s, 1e-15) << name;
    EXPECT_GT(cost.bubble_s, 0) << name;
  }
}

TEST(StepCost, SimulatedOnTheSwitchEqualsTheClosedForm) {
  const StepCostConfig c = small_step_cost("zero2", {4, 1, 1});  // Ψ = 2048 values: a multiple of 4p bytes
  const StepCost closed = dsml::step_cost(c, step_cost_network());
  const StepCost simulated = dsml::step_cost(c, dsml::Topology::fully_connected(4, step_cost_network()));
  EXPECT_NEAR(simulated.total_s, closed.total_s, 1e-12 * closed.total_s);
  EXPECT_THROW(dsml::step_cost(c, dsml::Topology::ring(3, step_cost_network())), dsml::Error);
}

TEST(StepCost, PhasesTileTheTimelineWithoutOverlap) {
  const StepCost cost = dsml::step_cost(small_step_cost("fsdp-tp", {2, 2, 1}), step_cost_network());
  EXPECT_NEAR(cost.total_s, cost.compute_s + comm_total(cost), 1e-15);
  double end = 0;
  for (const dsml::StepSpan& span : cost.spans)
    if (span.rank == 3) {
      EXPECT_DOUBLE_EQ(span.start, end) << span.label;
      end = span.end;
    }
  EXPECT_DOUBLE_EQ(end, cost.total_s);
  // On a ring the two TP groups' all-reduces share links with each other: never faster than the switch.
  const StepCost ring = dsml::step_cost(small_step_cost("fsdp-tp", {2, 2, 1}), dsml::Topology::ring(4, step_cost_network()));
  EXPECT_GE(ring.comm_s.at("all-reduce"), cost.comm_s.at("all-reduce") * (1 - 1e-12));
}

TEST(StepCost, RejectsWhatTheStrategiesReject) {
  EXPECT_NE(error_of([] { dsml::step_cost(small_step_cost("dp", {1, 2, 1}), step_cost_network()); })
                .find("dp runs on a grid with tp = pp = 1 (it uses only dp), got dp = 1, tp = 2, pp = 1"),
            std::string::npos);
  EXPECT_THROW(dsml::step_cost(small_step_cost("tp", {1, 5, 1}), step_cost_network()), dsml::Error);    // F = 32 over 5
  EXPECT_THROW(dsml::step_cost(small_step_cost("pp-1f1b", {1, 1, 3}), step_cost_network()), dsml::Error);  // L = 4 over 3
  EXPECT_THROW(dsml::step_cost(small_step_cost("dp", {5, 1, 1}), step_cost_network()), dsml::Error);    // B = 12 over 5
  EXPECT_NE(error_of([] { small_step_cost("warp", {}); }).find("unknown strategy \"warp\"; choose single, dp, dp-bucketed"),
            std::string::npos);
  EXPECT_NE(error_of([] { dsml::step_cost(small_step_cost("zero1", {2, 1, 1}, 2), step_cost_network()); })
                .find("micro-batches must be 1 for strategy zero1"),
            std::string::npos);
  EXPECT_NE(error_of([] { dsml::step_cost(small_step_cost("dp-accumulate", {4, 1, 1}, 5), step_cost_network()); })
                .find("batch 12 is not divisible by dp · micro-batches = 4 · 5"),
            std::string::npos);
  StepCostConfig slow = small_step_cost("single", {});
  slow.flops_per_s = 0;
  EXPECT_THROW(dsml::step_cost(slow, step_cost_network()), dsml::Error);
}

// ---- the model against the implementations: one real fp64 step on a tiny model ------------------------------

dsml::OptimizerConfig adam() {
  dsml::OptimizerConfig o;
  o.kind = dsml::OptimizerKind::adam;
  return o;
}

// Call for call: the same kinds, group sizes, sending stages and (at half the element size) bytes, in the same
// order — except a pipeline's sends, whose order is the executor's interleaving of the stages: compared sorted.
void expect_same_bytes(const dsml::CommLog& measured_fp64, const StepCost& model, const std::string& what) {
  ASSERT_EQ(model.comm.records().size(), measured_fp64.records().size()) << what;
  std::vector<dsml::CommRecord> modelled = model.comm.records(), measured = measured_fp64.records();
  if (what.rfind("pp-", 0) == 0) {
    const auto by_stage = [](const dsml::CommRecord& a, const dsml::CommRecord& b) {
      return std::tie(a.stage, a.bytes_per_rank) < std::tie(b.stage, b.bytes_per_rank);
    };
    std::sort(measured.begin(), measured.end(), by_stage);
    std::sort(modelled.begin(), modelled.end(), by_stage);
  }
  for (std::size_t i = 0; i < modelled.size(); ++i) {
    const dsml::CommRecord &m = modelled[i], &r = measured[i];
    EXPECT_EQ(m.kind, r.kind) << what << " record " << i;
    EXPECT_EQ(m.ranks, r.ranks) << what << " record " << i;
    EXPECT_EQ(m.stage, r.stage) << what << " record " << i;
    EXPECT_DOUBLE_EQ(m.bytes_per_rank, 0.5 * r.bytes_per_rank) << what << " record " << i;
  }
}

void expect_same_memory(const dsml::MemoryBreakdown& model, const dsml::MemoryBreakdown& measured_fp64,
                        const std::string& what) {
  EXPECT_DOUBLE_EQ(model.params, 0.5 * measured_fp64.params) << what;
  EXPECT_DOUBLE_EQ(model.grads, 0.5 * measured_fp64.grads) << what;
  EXPECT_DOUBLE_EQ(model.optimizer, 0.5 * measured_fp64.optimizer) << what;
  EXPECT_DOUBLE_EQ(model.activations, 0.5 * measured_fp64.activations) << what;
}

struct Tiny {
  StepCostConfig cost;
  dsml::MlpParams initial;
  dsml::Batch batch;
  explicit Tiny(const std::string& strategy, dsml::RankGrid grid, int micro_batches = 1)
      : cost(small_step_cost(strategy, grid, micro_batches)) {
    cost.model.layers = 2;
    cost.model.width = 4;
    cost.model.hidden = 6;  // Ψ = 96: uneven shards over 5 ranks
    cost.batch = 30;
    initial = dsml::init_mlp(cost.model, 7);
    batch = dsml::TeacherTask(cost.model, 3).make_batch(0, cost.batch);
  }
};

// One step of `trainer` (built from t) against t's priced step: the same collectives record for record and the same
// memory on every rank of t's grid, × 0.5 for fp32.
void expect_priced_like(dsml::ParallelTrainer& trainer, const Tiny& t) {
  const dsml::ParallelStep step = trainer.step(t.batch);
  const StepCost model = dsml::step_cost(t.cost, step_cost_network());
  const std::string name = dsml::strategy_name(t.cost.strategy);
  expect_same_bytes(step.comm, model, name);
  const std::size_t ranks = static_cast<std::size_t>(t.cost.grid.size());
  ASSERT_EQ(model.memory.size(), ranks) << name;
  ASSERT_EQ(step.memory.size(), ranks) << name;
  for (std::size_t r = 0; r < ranks; ++r) expect_same_memory(model.memory[r], step.memory[r], name);
}

TEST(StepCostVsImplementation, DataParallelNaiveAndBucketed) {
  for (const bool bucketed : {false, true}) {
    Tiny t(bucketed ? "dp-bucketed" : "dp", {5, 1, 1});
    t.cost.bucket_bytes = 40 * 4;  // 40 fp32 values per bucket = 40 fp64 values at 320 bytes
    dsml::DataParallelOptions options;
    options.sync = bucketed ? dsml::GradientSync::bucketed : dsml::GradientSync::naive;
    options.bucket_bytes = 40 * 8;
    dsml::DataParallel dp(t.cost.grid, t.cost.model, adam(), t.initial, options);
    expect_priced_like(dp, t);
  }
}

TEST(StepCostVsImplementation, ZeroStages) {
  for (int stage = 1; stage <= 3; ++stage) {
    Tiny t("zero" + std::to_string(stage), {5, 1, 1});
    t.cost.bucket_bytes = 40 * 4;  // Ψ = 96: buckets of 40, 40, 16, uneven over 5 ranks
    dsml::ZeroOptions options;
    options.stage = stage;
    options.bucket_bytes = 40 * 8;
    dsml::Zero zero(t.cost.grid, t.cost.model, adam(), t.initial, options);
    expect_priced_like(zero, t);
  }
}

TEST(StepCostVsImplementation, TensorParallel) {
  Tiny t("tp", {1, 3, 1});
  dsml::TensorParallelTrainer tp(t.cost.grid, t.cost.model, adam(), t.initial);
  expect_priced_like(tp, t);
}

TEST(StepCostVsImplementation, FsdpTensorParallel) {
  Tiny t("fsdp-tp", {5, 2, 1});
  dsml::FsdpTensorParallelTrainer trainer(t.cost.grid, t.cost.model, adam(), t.initial);
  expect_priced_like(trainer, t);
}

// LARS/LAMB: the strategies that split tensors all-reduce 2 sums of squares per tensor before the update — the
// model prices the implementations' "trust-ratio norms" call for call; replicated DP needs none.
TEST(StepCostVsImplementation, LayerwiseNorms) {
  dsml::OptimizerConfig lars;
  lars.kind = dsml::OptimizerKind::lars;
  for (const auto& [strategy, grid] : std::vector<std::pair<std::string, dsml::RankGrid>>{
           {"zero1", {5, 1, 1}}, {"zero3", {5, 1, 1}}, {"tp", {1, 3, 1}}, {"fsdp-tp", {5, 2, 1}}}) {
    Tiny t(strategy, grid);
    t.cost.bucket_bytes = 40 * 4;
    t.cost.layerwise_norms = true;
    const StepCost model = dsml::step_cost(t.cost, step_cost_network());
    dsml::ParallelStep step;
    if (strategy == "tp") step = dsml::TensorParallelTrainer(grid, t.cost.model, lars, t.initial).step(t.batch);
    else if (strategy == "fsdp-tp") step = dsml::FsdpTensorParallelTrainer(grid, t.cost.model, lars, t.initial).step(t.batch);
    else {
      dsml::ZeroOptions options;
      options.stage = strategy == "zero1" ? 1 : 3;
      options.bucket_bytes = 40 * 8;
      step = dsml::Zero(grid, t.cost.model, lars, t.initial, options).step(t.batch);
    }
    expect_same_bytes(step.comm, model, strategy);
    const auto norms = std::count_if(model.comm.records().begin(), model.comm.records().end(),
                                     [](const dsml::CommRecord& r) { return r.label == "trust-ratio norms"; });
    EXPECT_EQ(norms, 1) << strategy;
  }
  Tiny dp("dp-bucketed", {5, 1, 1});
  const StepCost without = dsml::step_cost(dp.cost, step_cost_network());
  dp.cost.layerwise_norms = true;
  EXPECT_EQ(dsml::step_cost(dp.cost, step_cost_network()).comm.records().size(), without.comm.records().size());
}

TEST(StepCostVsImplementation, Pipelines) {
  for (const std::string name : {"pp-gpipe", "pp-1f1b"}) {
    Tiny t(name, {1, 1, 2}, 5);
    dsml::PipelineParallelTrainer trainer(t.cost.grid, t.cost.model, adam(), t.initial);
    const dsml::PipelineParallelStep step =
        trainer.step(t.batch, name == "pp-gpipe" ? dsml::gpipe(2, 5) : dsml::one_f_one_b(2, 5));
    const StepCost model = dsml::step_cost(t.cost, step_cost_network());
    expect_same_bytes(step.comm, model, name);
    for (std::size_t s = 0; s < 2; ++s) expect_same_memory(model.memory[s], step.memory[s], name);
  }
}

}  // namespace
