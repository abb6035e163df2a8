// plan_fields.cpp — the planner's results as field tables (dsml/plan_fields.h): each field's one name, its unit and
// its meaning, written once for the wasm object, the CLI's JSON and types/planner.d.ts alike.
#include <vector>

#include "dsml/memory_accountant.h"
#include "dsml/plan_fields.h"

namespace dsml {
namespace {

const char* recomputation_of(const PlannerLayout& l) { return recomputation_name(l.recomputation); }
const char* attention_of(const PlannerLayout& l) { return attention_kernel_name(l.attention); }
const char* precision_of(const PlannerLayout& l) { return precision_name(l.precision); }
const StepSplit& same(const StepSplit& s) { return s; }  // computeParts: the same split, its compute by kernel

const FieldTable& layout_fields() {
  static const FieldTable table{
      "PlanLayout",
      "The layout as priced: every default filled in, d derived (the GPUs left, N·G/(t·c·p)) and stageLayers the "
      "counts used.",
      {field::number<&PlannerLayout::t>("t", "GPUs", "tensor parallel"),
       field::number<&PlannerLayout::p>("p", "stages", "pipeline parallel"),
       field::number<&PlannerLayout::v>("v", "chunks", "interleaved chunks per GPU"),
       field::number<&PlannerLayout::d>("d", "replicas", "data parallel"),
       field::number<&PlannerLayout::c>("c", "GPUs", "context parallel: each sequence split over c GPUs"),
       field::number<&PlannerLayout::e>("e", "GPUs", "expert parallel: the experts split over e of the d replicas"),
       field::number<&PlannerLayout::micro_batch>("microBatch", "sequences", "b, one micro-batch"),
       field::number<&PlannerLayout::global_batch>("globalBatch", "sequences", "B, one step"),
       field::number<&PlannerLayout::zero_stage>("zeroStage", "", "ZeRO stage 0–3 (3: FSDP's FULL_SHARD)"),
       field::flag<&PlannerLayout::sequence_parallel>("sequenceParallel", "Megatron's sequence parallelism"),
       field::text<&recomputation_of>("recomputation", "none|selective|full", "activations recomputed in backward"),
       field::flag<&PlannerLayout::overlap_dp>("overlapDp",
                                               "data-parallel reduction under backward (DDP's buckets; FSDP's "
                                               "prefetch)"),
       field::text<&attention_of>("attention", "flash-attention-2|flash-attention-1|flash-attention-triton|unfused",
                                  "the attention kernel"),
       field::text<&precision_of>("precision", "bf16|fp8", "the linear layers' matmuls"),
       field::numbers<&PlannerLayout::stage_layers>("stageLayers", "layers", "per pipeline stage")}};
  return table;
}

const FieldTable& compute_parts_fields() {
  static const FieldTable table{
      "ComputeParts",
      "The slowest stage's compute by kind of kernel: matmul + attention + memoryBound = compute.",
      {field::number<&StepSplit::matmul>("matmul", "s", "the matmuls"),
       field::number<&StepSplit::attention>("attention", "s", "the attention cores"),
       field::number<&StepSplit::memory_bound>("memoryBound", "s", "norms, activations, residuals: HBM-bound")}};
  return table;
}

const FieldTable& time_fields() {
  static const FieldTable table{
      "PlanTime",
      "Seconds per step; total is the sum of the others.",
      {field::number<&StepSplit::compute>("compute", "s", "the m micro-batches' forward, backward and recomputation on the slowest stage"),
       field::number<&StepSplit::bubble>("bubble", "s", "the pipeline's idle time"),
       field::number<&StepSplit::tensor>("tensor", "s", "the slowest stage's tensor-parallel collectives"),
       field::number<&StepSplit::context>("context", "s", "context parallelism's K/V ring"),
       field::number<&StepSplit::expert>("expert", "s", "expert parallelism's all-to-all"),
       field::number<&StepSplit::pipeline>("pipeline", "s", "sends between stages: activations forward, gradients back"),
       field::number<&StepSplit::data>("data", "s", "the data-parallel reduction the step waits for (not hidden under backward)"),
       field::number<&StepSplit::optimizer>("optimizer", "s", "the optimizer step"),
       field::number<&StepSplit::total>("total", "s", "one step"),
       field::object<&same>("computeParts", "s", "compute split by kernel", compute_parts_fields())}};
  return table;
}

const FieldTable& stage_fields() {
  static const FieldTable table{
      "PlanStage",
      "One pipeline stage.",
      {field::number<&StagePlan::layers>("layers", "layers", "transformer layers on it (all its chunks)"),
       field::number<&StagePlan::seconds>("seconds", "s",
                                          "one micro-batch's forward and backward (and recomputation) on it, with "
                                          "its tensor, context and expert collectives"),
       field::object<&StagePlan::memory>("memory", "bytes",
                                         "its model states and the activations of its micro-batches in flight",
                                         plan_memory_fields())}};
  return table;
}

}  // namespace

const FieldTable& plan_memory_fields() {
  static const FieldTable table{
      "PlanMemory",
      "Bytes per GPU.",
      {field::number<&PlanMemory::params>("params", "bytes", "parameters"),
       field::number<&PlanMemory::grads>("grads", "bytes", "gradients"),
       field::number<&PlanMemory::optimizer>("optimizer", "bytes", "optimizer state"),
       field::number<&PlanMemory::activations>("activations", "bytes", "activations kept for backward"),
       field::number<&PlanMemory::total>("total", "bytes", "their sum")}};
  return table;
}

const FieldTable& step_plan_fields() {
  static const FieldTable table{
      "StepPlan",
      "One training step of a transformer on a GPU cluster, priced (plan_step).",
      {field::object<&StepPlan::layout>("layout", "", "the layout as priced", layout_fields()),
       field::number<&StepPlan::gpus>("gpus", "GPUs", "N·G"),
       field::number<&StepPlan::micro_batches>("microBatches", "micro-batches", "m = B/(d·b) per step"),
       field::number<&StepPlan::parameters>("parameters", "parameters", "Ψ"),
       field::number<&StepPlan::active_parameters>("activeParameters", "parameters",
                                                   "Ψ with topK experts per MoE layer instead of all (= parameters "
                                                   "for a dense model); MFU counts these"),
       field::number<&StepPlan::hardware_flops>("hardwareFlops", "FLOP",
                                                "per step, all GPUs: every matmul run, recomputation counted"),
       field::number<&StepPlan::model_flops>("modelFlops", "FLOP", "per step, PaLM's (6Ψ + 12·l·h·s) per token"),
       field::object<&StepPlan::time>("time", "s", "the step's seconds, part by part", time_fields()),
       field::objects<&StepPlan::stages>("stages", "", "per pipeline stage", stage_fields()),
       field::number<&StepPlan::slowest_stage>("slowestStage", "", "the stage that paces the pipeline"),
       field::object<&StepPlan::memory>("memory", "bytes", "the fullest stage's, per GPU: what decides whether it fits",
                                        plan_memory_fields()),
       field::number<&StepPlan::capacity>("capacity", "bytes", "the GPU's HBM"),
       field::flag<&StepPlan::fits>("fits", "every stage fits in capacity"),
       field::number<&StepPlan::tokens_per_s>("tokensPerS", "tokens/s", "training throughput"),
       field::number<&StepPlan::tflops_per_gpu>("tflopsPerGpu", "TFLOP/s",
                                                "hardware FLOPs / (step · GPUs) / 1e12: Narayanan's achieved TFLOP/s"),
       field::number<&StepPlan::mfu>("mfu", "", "model FLOP utilisation: model FLOPs/s over the GPUs' peak"),
       field::number<&StepPlan::hfu>("hfu", "", "hardware FLOP utilisation: hardware FLOPs/s over the GPUs' peak")}};
  return table;
}

const FieldTable& layout_plan_fields() {
  static const FieldTable table = pick(step_plan_fields(), {"time", "memory", "fits"}, "LayoutPlan");
  return table;
}

const FieldTable& attention_cost_fields() {
  static const FieldTable table{
      "AttentionCost",
      "One attention core per layer, per GPU, per micro-batch (attention_cost).",
      {field::number<&AttentionCost::forward_seconds>("forwardSeconds", "s", "forward"),
       field::number<&AttentionCost::backward_seconds>("backwardSeconds", "s", "backward"),
       field::number<&AttentionCost::forward_flops>("forwardFlops", "FLOP",
                                                    "what the kernel runs forward (a fused kernel skips the causal "
                                                    "mask's blocks)"),
       field::number<&AttentionCost::backward_flops>("backwardFlops", "FLOP",
                                                     "fused: 2.5× forward (QKᵀ recomputed, then dV, dP, dQ, dK); "
                                                     "unfused: 2×"),
       field::number<&AttentionCost::counted_flops>("countedFlops", "FLOP",
                                                    "what MFU counts forward: 4·b·(s/c)·s·h/t, no causal halving"),
       field::number<&AttentionCost::hbm_bytes>("hbmBytes", "bytes", "forward traffic of the attention core"),
       field::number<&AttentionCost::activation_bytes>("activationBytes", "bytes",
                                                       "kept for backward beyond Q, K, V and the output (fused: the "
                                                       "softmax statistics; unfused: the s×s scores, the dropout "
                                                       "mask and output)")}};
  return table;
}

}  // namespace dsml
