// planner_validation.cpp — the three published tables priced by the planner (dsml/planner_validation.h).
#include "dsml/planner_validation.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "dsml/error.h"

namespace dsml {
namespace {

std::string percent_of(double part, double whole) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, " %.0f %%", 100.0 * part / whole);
  return buffer;
}

// The largest part of the step besides the matmuls every row has: where a miss is most likely to come from.
std::string main_term(const StepPlan& p) {
  const StepSplit& T = p.time;
  const std::pair<const char*, double> terms[] = {
      {"attention", T.attention}, {"memory-bound kernels", T.memory_bound}, {"bubble", T.bubble},
      {"tensor", T.tensor},       {"pipeline", T.pipeline},                 {"data", T.data},
      {"optimizer", T.optimizer}, {"context", T.context},                   {"expert", T.expert}};
  const std::pair<const char*, double>* best = &terms[0];
  for (const auto& term : terms)
    if (term.second > best->second) best = &term;
  return best->first + percent_of(best->second, T.total);
}

void summarise(ValidationTable& table) {
  for (const ValidationRow& r : table.rows) {
    table.mean_abs_error += std::fabs(r.relative_error) / table.rows.size();
    table.worst_abs_error = std::fmax(table.worst_abs_error, std::fabs(r.relative_error));
    table.fitting += r.fits ? 1 : 0;
  }
}

ValidationRow row_of(std::string label, double published, double predicted, const StepPlan& plan) {
  ValidationRow r;
  r.label = std::move(label);
  r.published = published;
  r.predicted = predicted;
  r.relative_error = predicted / published - 1.0;
  r.fits = plan.fits;
  r.memory_bytes = plan.memory.total;
  r.capacity_bytes = plan.capacity;
  r.main_term = main_term(plan);
  r.plan = plan;
  return r;
}

ValidationTable table1() {
  ValidationTable t;
  t.id = "narayanan-table1";
  t.title = "Narayanan et al. 2021, Table 1: GPT on Selene (A100), achieved TFLOP/s per GPU";
  t.source = "Narayanan et al., SC'21 (arXiv:2104.04473), Table 1";
  t.gpu = "a100-80gb";
  t.metric = "tflops_per_gpu";
  t.bound_each = 0.06, t.bound_mean = 0.03;
  t.in_sample = true;  // matmul_in_step was fitted on these ten rows
  const GpuSpec gpu = gpu_preset(t.gpu);
  for (const PublishedRun& run : narayanan_table1()) {
    const StepPlan plan = plan_published_run(run, gpu);
    // The table gives neither b nor v: the label says which the planner chose.
    t.rows.push_back(row_of(run.model + ", " + std::to_string(run.gpus) + " GPUs (b " +
                                std::to_string(plan.layout.micro_batch) + ", v " + std::to_string(plan.layout.v) +
                                " chosen)",
                            run.tflops_per_gpu, plan.tflops_per_gpu, plan));
  }
  summarise(t);
  return t;
}

ValidationTable foundry(const char* id, const char* title, const char* gpu_name, std::vector<FoundryRun> runs) {
  ValidationTable t;
  t.id = id;
  t.title = title;
  t.source = "mosaicml/llm-foundry, scripts/train/benchmarking/README.md (b2a43a1, 2023-10-19)";
  t.gpu = gpu_name;
  t.metric = "mfu";
  t.bound_each = 0.15, t.bound_mean = 0.07;
  const GpuSpec gpu = gpu_preset(gpu_name);
  for (const FoundryRun& run : runs) {
    const StepPlan plan = plan_foundry_run(run, gpu);
    const double tokens = plan.tokens_per_s / plan.gpus;
    t.rows.push_back(row_of(run.model + ", s " + std::to_string(run.sequence) + ", " + std::to_string(run.gpus) +
                                " GPUs, b " + std::to_string(run.micro_batch) +
                                (run.checkpointing ? ", checkpointed" : ""),
                            run.mfu_percent / 100.0, foundry_mfu(run, gpu, tokens), plan));
  }
  summarise(t);
  return t;
}

std::vector<PlannerConstant> constants() {
  std::vector<PlannerConstant> out;
  out.push_back({"matmul_in_step (every GPU)", gpu_preset("a100-80gb").matmul_in_step, "",
                 "the share of the measured matmul rate a training step reaches",
                 "Narayanan et al. 2021 Table 1 (its 10 rows)"});
  const char* matmul = "maximum achievable matmul FLOP/s (S. Bekman, Machine Learning Engineering, MAMF table)";
  const char* hbm = "BabelStream triad (Azure AI benchmarking guide)";
  const char* attention = "FlashAttention-2 paper (Dao 2023), Fig. 4 / Fig. 7 bar labels, causal, d_h 128, 16k";
  for (const GpuSpec& g : gpu_presets()) {
    out.push_back({g.name + " matmul", g.kernels.matmul_flops, "FLOP/s", matmul, ""});
    if (g.kernels.matmul_fp8_flops > 0)
      out.push_back({g.name + " FP8 matmul", g.kernels.matmul_fp8_flops, "FLOP/s", matmul, ""});
    out.push_back({g.name + " HBM", g.kernels.hbm_bandwidth, "B/s", hbm, ""});
    for (const AttentionSpeed& a : g.kernels.attention)
      if (a.head_dim == 128)
        out.push_back({g.name + " " + attention_kernel_name(a.kernel) + " at 16k", a.flops.back(), "FLOP/s",
                       attention, ""});
    out.push_back({g.name + " latency per message", g.nvlink_latency, "s", "assumed (NCCL's small messages)", ""});
  }
  return out;
}

}  // namespace

StepPlan plan_foundry_run(const FoundryRun& run, const GpuSpec& gpu) {
  PlannerModel model = planner_model_preset(run.model);
  model.sequence = run.sequence;
  ClusterSpec cluster;
  cluster.gpu = gpu;
  cluster.gpus_per_node = 8;
  if (run.gpus % 8 != 0) throw Error("an llm-foundry row runs on whole 8-GPU nodes, got " + std::to_string(run.gpus));
  cluster.nodes = run.gpus / 8;
  PlannerLayout l;
  l.d = run.gpus;
  l.micro_batch = run.micro_batch;
  l.global_batch = run.micro_batch * run.grad_accum * run.gpus;
  l.zero_stage = 3;
  l.overlap_dp = true;
  l.recomputation = run.checkpointing ? Recomputation::kFull : Recomputation::kNone;
  bool triton = false;
  for (const AttentionSpeed& a : gpu.kernels.attention) triton = triton || a.kernel == AttentionKernel::kFlashTriton;
  l.attention = triton ? AttentionKernel::kFlashTriton : AttentionKernel::kFlash1;
  return plan_step(model, cluster, l);
}

double foundry_mfu(const FoundryRun& run, const GpuSpec& gpu, double tokens_per_gpu_s) {
  const PlannerModel model = planner_model_preset(run.model);
  const double peak = gpu.name == "h100-sxm" ? 989.5e12 : gpu.peak_flops;  // Composer's GPU_AVAILABLE_FLOPS
  const double per_token = 6.0 * run.num_params + 12.0 * model.layers * model.hidden * run.sequence;
  return per_token * tokens_per_gpu_s / peak;
}

PlannerValidation planner_validation() {
  PlannerValidation v;
  v.constants = constants();
  v.tables.push_back(table1());
  v.tables.push_back(foundry("llm-foundry-h100-bf16", "llm-foundry: MPT on H100 80GB, BF16, FSDP — MFU", "h100-sxm",
                             llm_foundry_h100_bf16()));
  v.tables.push_back(foundry("llm-foundry-a100-80gb", "llm-foundry: MPT on A100 80GB, FSDP — MFU", "a100-80gb",
                             llm_foundry_a100_80gb()));
  return v;
}

}  // namespace dsml
