// dsml/planner_validation.h — the planner against published training runs: Narayanan et al. 2021 Table 1 (A100,
// Megatron-LM, 2021) and llm-foundry's H100 BF16 and A100 80GB benchmark tables (MPT models under PyTorch FSDP,
// 2023). Nothing in the planner is fitted to any of them (its constants are datasheets and kernel measurements,
// gpu_presets.cpp); each row is priced on the layout it ran and its error reported. bench/published_runs.cpp prints
// the tables; the planner page draws them.
#pragma once

#include <string>
#include <vector>

#include "dsml/planner.h"

namespace dsml {

// A row of llm-foundry's benchmark tables (core/planner/llm_foundry_runs.cpp says how the runs ran).
struct FoundryRun {
  std::string model;  // an mpt-* planner preset; the row's sequence replaces the preset's
  int sequence = 0, gpus = 0, micro_batch = 0, grad_accum = 0, global_batch = 0;
  bool checkpointing = false;  // activation checkpointing: full recomputation
  bool pure_bf16 = false;      // FSDP mixed precision PURE (gradients reduced in BF16; DEFAULT reduces in FP32)
  double mfu_percent = 0;      // published MFU, %
  double tokens_per_gpu_s = 0; // published throughput, tokens/s/GPU
  double num_params = 0;       // the table's NumParams (the model's Ψ plus the final LayerNorm's 2h)
};
std::vector<FoundryRun> llm_foundry_h100_bf16();
std::vector<FoundryRun> llm_foundry_a100_80gb();
// A row on `gpu`: FSDP FULL_SHARD over all its GPUs (t = c = p = 1, d = GPUs, ZeRO-3 with prefetch), micro-batch b,
// m = gradient accumulation, full recomputation when checkpointed, the Triton FlashAttention kernel where `gpu` has
// a measurement of it and FlashAttention-1 otherwise, no dropout, 8 GPUs a node.
StepPlan plan_foundry_run(const FoundryRun& run, const GpuSpec& gpu);
// MFU as llm-foundry computes it, (6·NumParams + 12·l·h·s)·tokens/s/GPU / peak, for a throughput.
double foundry_mfu(const FoundryRun& run, const GpuSpec& gpu, double tokens_per_gpu_s);

struct ValidationRow {
  std::string label;        // "gpt-1.7b, 32 GPUs" / "mpt-7b, s 2048, 8 GPUs, b 6"
  double published = 0, predicted = 0, relative_error = 0;  // in the table's metric
  bool fits = false;        // the run's layout fits the GPU's memory in the planner
  double memory_bytes = 0, capacity_bytes = 0;
  std::string main_term;    // the largest term of the predicted step besides compute ("bubble", "data", …)
  StepPlan plan;
};
struct ValidationTable {
  std::string id, title, source, gpu;
  std::string metric;       // "tflops_per_gpu" (Table 1) or "mfu" (llm-foundry, as a fraction)
  bool in_sample = false;   // a planner constant was fitted on this table (none is)
  double bound_each = 0, bound_mean = 0;  // the acceptance bounds on |relative error|
  std::vector<ValidationRow> rows;
  double mean_abs_error = 0, worst_abs_error = 0;
  int fitting = 0;          // rows whose published layout fits in the planner
};
// A constant the predictions rest on: its value, unit, where it comes from, and the rows it was fitted on ("" for a
// datasheet or a kernel measurement — none is fitted).
struct PlannerConstant {
  std::string name;
  double value = 0;
  std::string unit, source, fitted_on;
};
struct PlannerValidation {
  std::vector<PlannerConstant> constants;
  std::vector<ValidationTable> tables;
};
PlannerValidation planner_validation();

}  // namespace dsml
