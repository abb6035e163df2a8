// training_adapters.cpp — see training_adapters.h.
#include "training_adapters.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "convert.h"
#include "dsml/comm.h"
#include "dsml/cost_model.h"
#include "dsml/data_parallel.h"
#include "dsml/error.h"
#include "dsml/fsdp_tensor_parallel.h"
#include "dsml/memory_accountant.h"
#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/pipeline_parallel.h"
#include "dsml/rank_grid.h"
#include "dsml/step_cost.h"
#include "dsml/teacher_task.h"
#include "dsml/tensor_parallel.h"
#include "dsml/zero.h"
#include "lab_reference.h"
#include "training_convert.h"

namespace dsml::bindings {

namespace {

constexpr double kDoubleBytes = 8;  // the implementations train in fp64

struct TrainRequest {
  std::string strategy;
  RankGrid grid;
  MlpConfig model;
  OptimizerConfig optimizer;
  int micro_batches = 1;
  double bucket_bytes = 25.0 * 1024 * 1024;
  int batch = 1;
  int steps = 1;
  std::uint64_t seed = 0;
};

// What the parallel run leaves behind for the comparison.
struct ParallelRun {
  std::vector<double> losses;
  CommLog last_comm;
  MlpParams params;
  std::vector<MemoryBreakdown> memory;
};

bool is_pipeline(const std::string& s) { return s == "pp-gpipe" || s == "pp-1f1b"; }
bool is_data_parallel(const std::string& s) { return s == "dp" || s == "dp-bucketed" || s == "dp-accumulate"; }

TrainRequest to_train_request(const val& r) {
  const std::string ctx = "trainCompare";
  if (r.typeOf().as<std::string>() != "object" || r.isNull()) throw Error(ctx + ": expected an object");
  TrainRequest t;
  t.strategy = text_field(r, "strategy", ctx);
  const bool known = is_data_parallel(t.strategy) || is_pipeline(t.strategy) || t.strategy == "zero1" ||
                     t.strategy == "zero2" || t.strategy == "zero3" || t.strategy == "tp" || t.strategy == "fsdp-tp";
  if (!known)
    throw Error(ctx + ": strategy must be one of dp, dp-bucketed, dp-accumulate, zero1, zero2, zero3, tp, "
                "pp-gpipe, pp-1f1b, fsdp-tp; got \"" + t.strategy + "\"");
  t.grid = to_grid(object_field(r, "grid", ctx), ctx);
  t.model = to_mlp_config(object_field(r, "model", ctx), ctx);
  t.optimizer = to_optimizer_config(object_field(r, "optimizer", ctx), ctx);
  t.micro_batches =
      static_cast<int>(whole_number_field(r, "microBatches", t.strategy == "dp-accumulate" ? 2 : 1, 1, ctx));
  if (t.micro_batches != 1 && !is_data_parallel(t.strategy) && !is_pipeline(t.strategy))
    throw Error(ctx + ": microBatches is used by dp, dp-bucketed, dp-accumulate and the pipelines only; " +
                t.strategy + " needs 1");
  t.bucket_bytes = number_field_or(r, "bucketBytes", t.bucket_bytes, ctx);
  t.batch = static_cast<int>(whole_number_field(r, "batch", -1, 1, ctx));
  t.steps = static_cast<int>(whole_number_field(r, "steps", -1, 1, ctx));
  if (t.batch < 0 || t.steps < 0) throw Error(ctx + ": batch and steps are required");
  if (t.steps > 10000) throw Error(ctx + ": steps must be at most 10000");
  if (static_cast<double>(t.batch) * t.model.width > 1e7) throw Error(ctx + ": batch·width must be at most 1e7");
  t.seed = static_cast<std::uint64_t>(whole_number_field(r, "seed", 0, 0, ctx));
  return t;
}

MemoryBreakdown with_activations(const RankMemory& m, double activations) {
  return {m.params, m.grads, m.optimizer, activations, m.total() + activations};
}

// Rows a DP/ZeRO rank pushes through one forward: B/(dp·k); its kept activations, fp64.
double replica_activations(const TrainRequest& t) {
  const double rows = static_cast<double>(t.batch) / (t.grid.dp * t.micro_batches);
  return mlp_stack_activation_bytes(rows, t.model.width, t.model.hidden, t.model.layers, kDoubleBytes);
}

// Runs t.steps steps of the strategy; batches[s] is step s's global batch.
ParallelRun run_parallel(const TrainRequest& t, const MlpParams& initial, const std::vector<Batch>& batches) {
  ParallelRun run;
  auto record = [&](double loss, const CommLog& comm) {
    run.losses.push_back(loss);
    run.last_comm = comm;
  };
  if (is_data_parallel(t.strategy)) {
    DataParallelOptions o;
    o.sync = t.strategy == "dp-bucketed" ? GradientSync::bucketed : GradientSync::naive;
    o.bucket_bytes = t.bucket_bytes;
    o.micro_batches = t.micro_batches;
    DataParallel dp(t.grid, t.model, t.optimizer, initial, o);
    for (const Batch& b : batches) { const ParallelStep s = dp.step(b); record(s.loss, s.comm); }
    run.params = dp.params(0);
    for (int d = 0; d < dp.ranks(); ++d) run.memory.push_back(with_activations(dp.memory(d), replica_activations(t)));
  } else if (t.strategy.rfind("zero", 0) == 0) {
    ZeroOptions o;
    o.stage = t.strategy.back() - '0';
    Zero zero(t.grid, t.model, t.optimizer, initial, o);
    for (const Batch& b : batches) { const ParallelStep s = zero.step(b); record(s.loss, s.comm); }
    run.params = zero.gather_params();
    for (int d = 0; d < zero.ranks(); ++d)
      run.memory.push_back(with_activations(zero.memory(d), replica_activations(t)));
  } else if (t.strategy == "tp") {
    TensorParallelTrainer tp(t.model, t.optimizer, t.grid, initial);
    for (const Batch& b : batches) { TensorParallelStep s = tp.step(b); record(s.loss, s.comm); run.memory = s.memory; }
    run.params = tp.full_params();
  } else if (is_pipeline(t.strategy)) {
    PipelineParallelTrainer pp(t.model, t.optimizer, t.grid, initial);
    const PipelineSchedule schedule =
        pipeline_schedule_by_name(t.strategy == "pp-gpipe" ? "gpipe" : "1f1b", t.grid.pp, t.micro_batches);
    for (const Batch& b : batches) {
      PipelineParallelStep s = pp.step(b, schedule);
      record(s.loss, s.comm);
      run.memory = s.memory;
    }
    run.params = pp.full_params();
  } else {  // fsdp-tp
    FsdpTensorParallelTrainer f(t.model, t.optimizer, t.grid, initial);
    for (const Batch& b : batches) { FsdpTensorParallelStep s = f.step(b); record(s.loss, s.comm); run.memory = s.memory; }
    run.params = f.full_params();
  }
  return run;
}

// The sending stage of a pipeline record, from its label "activation 3: stage 1 -> 2" (pipeline_parallel_comm.cpp);
// -1 when the label does not say.
int sending_stage(const std::string& label) {
  const std::string marker = ": stage ";
  const std::size_t at = label.find(marker);
  if (at == std::string::npos) return -1;
  int stage = 0;
  bool digits = false;
  for (std::size_t i = at + marker.size(); i < label.size() && label[i] >= '0' && label[i] <= '9'; ++i) {
    stage = stage * 10 + (label[i] - '0');
    digits = true;
  }
  return digits ? stage : -1;
}

// Bytes the busiest rank sends, by kind (see training_adapters.h).
std::map<std::string, double> busiest_rank_bytes(const CommLog& log, const RankGrid& grid) {
  std::map<std::string, double> out;
  std::map<std::string, std::map<int, double>> by_sender;  // point-to-point: kind → stage → bytes
  const double ranks = grid.size();
  for (const CommRecord& r : log.records()) {
    if (r.kind == "send") {
      by_sender[r.kind][sending_stage(r.label)] += r.bytes_per_rank;
    } else {
      // ranks / r.ranks groups of this size run the call side by side; a rank is in one of them.
      out[r.kind] += r.bytes_per_rank * (r.ranks > 0 ? r.ranks / ranks : 1.0);
    }
  }
  for (const auto& [kind, senders] : by_sender) {
    double busiest = 0;
    for (const auto& [stage, bytes] : senders) busiest = std::max(busiest, bytes);
    out[kind] = busiest;
  }
  return out;
}

double max_relative_difference(const MlpParams& a, const MlpParams& ref) {
  const auto pa = parameter_tensors(a);
  const auto pr = parameter_tensors(ref);
  if (pa.size() != pr.size()) throw Error("trainCompare: the parallel run returned a model of another shape");
  double worst = 0;
  for (std::size_t k = 0; k < pa.size(); ++k) {
    const double norm = pr[k]->norm();
    worst = std::max(worst, (*pa[k] - *pr[k]).norm() / (norm > 0 ? norm : 1.0));
  }
  return worst;
}

}  // namespace

val train_compare(const val& request) {
  const TrainRequest t = to_train_request(request);
  const MlpParams initial = init_mlp(t.model, t.seed + 1);
  const std::vector<Batch> batches = teacher_batches(t.model, t.seed, t.steps, t.batch);

  const ParallelRun run = run_parallel(t, initial, batches);
  const SingleDeviceRun single = single_device_run(t.model, t.optimizer, initial, batches);

  val out = val::object();
  out.set("losses", to_float64_array(run.losses));
  out.set("singleLosses", to_float64_array(single.losses));
  out.set("maxRelativeDifference", max_relative_difference(run.params, single.params));
  out.set("commBytes", to_object(busiest_rank_bytes(run.last_comm, t.grid)));
  out.set("memoryPerRank", to_val(run.memory));
  return out;
}

val training_step_cost(const val& r) {
  const std::string ctx = "stepCost";
  if (r.typeOf().as<std::string>() != "object" || r.isNull()) throw Error(ctx + ": expected an object");
  StepCostConfig c;
  c.strategy = text_field(r, "strategy", ctx);
  c.grid = to_grid(object_field(r, "grid", ctx), ctx);
  c.model = to_mlp_config(object_field(r, "model", ctx), ctx);
  c.batch = static_cast<int>(whole_number_field(r, "batch", -1, 1, ctx));
  if (c.batch < 0) throw Error(ctx + ": batch is required");
  c.micro_batches = static_cast<int>(whole_number_field(r, "microBatches", 1, 1, ctx));
  c.flops_per_s = number_field(r, "flops", ctx);
  c.element_bytes = number_field_or(r, "elementBytes", c.element_bytes, ctx);
  c.optimizer_states = static_cast<int>(whole_number_field(r, "optimizerStates", c.optimizer_states, 0, ctx));
  c.bucket_bytes = number_field_or(r, "bucketBytes", c.bucket_bytes, ctx);
  const val recompute = r["recompute"];
  if (!recompute.isUndefined()) {
    if (recompute.typeOf().as<std::string>() != "boolean") throw Error(ctx + ": recompute must be true or false");
    c.recompute = recompute.as<bool>();
  }
  const CostModel model{number_field(r, "alpha", ctx), number_field(r, "beta", ctx),
                        number_field_or(r, "gamma", 0.0, ctx)};
  validate(model);
  const StepCost cost = step_cost(c, model);

  val out = val::object();
  out.set("total", cost.total_s);
  out.set("compute", cost.compute_s);
  out.set("bubble", cost.bubble_s);
  out.set("comm", to_object(cost.comm_s));
  out.set("spans", to_val(cost.spans));
  out.set("memoryPerRank", to_val(cost.memory));
  return out;
}

}  // namespace dsml::bindings
