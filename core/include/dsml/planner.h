// dsml/planner.h — plan a real training run: a decoder-only transformer on a GPU cluster under a (t, c, p, v, d, e, b)
// layout, with ZeRO/FSDP, sequence parallelism, activation recomputation, fused or unfused attention and BF16 or FP8
// matmuls. One function, plan_step, prices one step; search_layouts walks the layouts and keeps the fastest that fit.
//
// Each GPU preset carries its datasheet and how fast its kernels run, from published kernel measurements cited in
// core/planner/gpu_presets.cpp (a large matmul's achievable FLOP/s, FlashAttention's FLOP/s by sequence length,
// achieved HBM bandwidth). One constant is fitted: matmul_in_step, the share of that matmul rate a training step
// reaches, on Narayanan et al. 2021 Table 1 alone. The planner is checked against published runs it has never
// seen (dsml/planner_validation.h, bench/published_runs.cpp): llm-foundry's H100 and A100 benchmark tables.
//
// The model of a step (every term in seconds, per GPU; core/planner/*.cpp narrate each one):
//   compute   per pipeline stage: every matmul of its layers priced by its tile-and-wave-quantised share of the
//             measured matmul rate, or by the HBM bytes it moves when that is slower (the roofline); attention by
//             its kernel — fused (FlashAttention: the measured forward and backward rates, causal blocks skipped,
//             no s×s scores in HBM) or unfused (Megatron 2021: the s×s products as batched matmuls and the
//             scores' softmax and dropout streamed through HBM); the memory-bound kernels between them (norms,
//             activation, residual adds, dropout) at the achieved HBM bandwidth. Forward once, backward twice,
//             recomputation adds what it reruns (full: one forward; selective: the unfused attention core).
//   stages    a stage holds its own layers (equal chunks, or unequal: Llama 3 takes one layer off the first and
//             the last stage), the first the embedding, the last the output layer and the loss; the slowest stage
//             paces the pipeline: m slots of it plus one of every other stage (1F1B's fill and drain; with v
//             interleaved chunks the fill and drain are 1/v as long, Narayanan et al. §2.2.2)
//   tensor    Megatron's f/g all-reduces of s·b·h·2 bytes (reduce-scatter + all-gather with sequence
//             parallelism) over t on NVLink, 2 per layer per forward — priced with closed_form_time (ring)
//   pipeline  a stage's sends, s·b·h·2/t bytes each (scatter/gather over the t NICs), α–β on the link between
//             stages
//   data      gradients 2Ψ/(tp) bytes: ring all-reduce over d·c (expert weights over d·c/e); ZeRO 1/2: a
//             reduce-scatter of gradients and an all-gather of the updated parameters; ZeRO-3/FSDP: per
//             micro-batch an all-gather of the parameters for forward and one for backward and a reduce-scatter of
//             the gradients (no gather after the step: the next forward gathers); NVLink if the group fits in a
//             node; with overlap (DDP's buckets, FSDP's prefetch) only what outlasts the compute it hides under
//   context   context parallelism c (ring attention, Liu et al. 2023; Megatron's CP): each GPU holds s/c of each
//             sequence; each attention pass passes its K/V block round the ring of c ranks, (c − 1) messages of
//             2·(s/c)·b·g·d_h·2/t bytes (K and V of its g/t KV heads) — forward 1, backward 2, + 1 when
//             recomputation reruns attention; not overlapped (an upper bound)
//   expert    MoE layers (every moe_every-th; `experts` FFNs, each token to top_k of them; Fedus et al. 2021,
//             Jiang et al. 2024): experts/e per GPU; dispatch and combine are each a pairwise all-to-all over e
//             ranks of (s/c)·b·top_k·h·2/t bytes per rank — 2 per forward (dispatch, combine), 2 per backward
//             (their gradients), + 2 under full recomputation; balanced routing (capacity factor 1)
//   optimizer Adam's update reads and writes 16 bytes of state + the 16-bit gradient and parameter per parameter it
//             owns, at the achieved HBM bandwidth
// Memory per GPU, every stage checked: model states by ZeRO stage (memory_per_device) and activations derived per
// architecture (layer_activations.cpp: GeLU or SwiGLU FFN, MHA or GQA, dropout or none, fused or unfused
// attention; for GPT with dropout and unfused attention exactly Korthikanti et al. 2022's sbh(34 + 5as/h)) for the
// micro-batches in flight on that stage.
// FLOPs: hardware FLOPs = what the kernels run (recomputation counted; a fused causal kernel skips the blocks
// above the diagonal and recomputes the scores in backward); for GPT, unfused, full recomputation this is
// Narayanan's equation 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)) exactly. Model FLOPs (PaLM, Chowdhery et al. 2022,
// App. B; llm-foundry's MFU): (6Ψ_active + 12·l·h·s) per token — the full s² attention, whether or not a causal
// kernel skips half of it. MFU = model FLOPs/(step·N·peak); HFU = hardware FLOPs/(step·N·peak).
// Left out (the page says so): kernel launch gaps and the host, NCCL protocol choice, link contention between
// the TP, PP, DP, CP and EP traffic, stragglers, data loading; for MoE, routing imbalance and token dropping; for
// context parallelism, causal-mask load balancing and the overlap of the K/V ring with attention.
#pragma once

#include <string>
#include <vector>

#include "dsml/memory_accountant.h"

namespace dsml {

struct PlannerModel {
  std::string name;
  int layers = 0, hidden = 0, heads = 0;
  int kv_heads = 0;          // grouped-query attention: g KV heads; 0 means = heads (multi-head attention)
  int ffn = 0;               // FFN width; 0 means 4·hidden
  bool gated_ffn = false;    // SwiGLU: three h×ffn matrices instead of two (and RMSNorm, no biases: Llama)
  int sequence = 2048, vocabulary = 51200;
  bool learned_positions = true;  // GPT's s×h position table (Llama uses RoPE: no parameters)
  bool tied_embeddings = true;    // the output layer reuses the input embedding (GPT); Llama unties them
  bool dropout = false;           // dropout after attention's softmax and both residual branches (GPT, Megatron 2021)
  int experts = 0;                // mixture of experts: FFNs per MoE layer; 0 = dense
  int top_k = 1;                  // experts each token is routed to (1 ≤ top_k ≤ experts)
  int moe_every = 1;              // every moe_every-th layer is an MoE layer (1: all; 2: every other, GShard)
};

// The attention core's kernel. Fused kernels (FlashAttention, Dao et al. 2022; FlashAttention-2, Dao 2023) keep the
// s×s scores on chip: only Q, K, V, the output and the softmax statistics touch HBM, the scores are recomputed in
// backward and a causal mask's blocks above the diagonal are skipped; each runs at its own measured speed (the
// FlashAttention-1-era Triton kernel is what llm-foundry's 2023 benchmarks ran). Unfused (Megatron 2021) runs QKᵀ
// and scores·V as batched matmuls and streams the scores through HBM for the softmax (and dropout), keeping them
// for backward.
enum class AttentionKernel { kFlash2, kFlash1, kFlashTriton, kUnfused };
// FP8 (Micikevicius et al. 2022; NVIDIA Transformer Engine): the layers' linear matmuls run at the GPU's FP8 rate
// with 1-byte inputs, and keep their inputs for backward as 1-byte copies; attention, the output layer, norms and
// the optimizer stay in BF16/FP32.
enum class Precision { kBf16, kFp8 };

// A fused attention kernel's measured forward + backward FLOP/s on one GPU, causal, at head dimension head_dim, at
// each of `sequences` (ascending), FLOPs counted as FlashAttention's benchmark counts them: 4·s²·d_h per head
// forward, halved under the causal mask, backward 2.5× forward. Between the points linear in log s, held at the ends.
struct AttentionSpeed {
  AttentionKernel kernel = AttentionKernel::kFlash2;
  int head_dim = 128;
  std::vector<double> sequences, flops;
};

// How fast one GPU's kernels run, from published kernel measurements (gpu_presets.cpp cites each). The planner
// has no fitted efficiency: a matmul runs at matmul_flops, cut by the tile and wave quantisation of its shape.
struct KernelSpeeds {
  double matmul_flops = 0;      // achievable BF16 matmul FLOP/s on large shapes (measured)
  double matmul_fp8_flops = 0;  // the same for FP8 (0: the GPU has none)
  double hbm_bandwidth = 0;     // achieved HBM bandwidth of a streaming kernel, bytes/s (measured)
  int sms = 0;                  // streaming multiprocessors: tiles run in waves of `sms`
  int tile_m = 256, tile_n = 128;  // the output tile one multiprocessor computes
  std::vector<AttentionSpeed> attention;  // the fused kernels measured on this GPU
};

struct GpuSpec {
  std::string name;
  double peak_flops = 0;       // dense BF16/FP16 tensor-core FLOP/s (datasheet): the denominator of MFU
  double fp8_peak_flops = 0;   // dense FP8 FLOP/s (datasheet; 0 when the GPU has none)
  double hbm_bytes = 0;        // capacity
  double hbm_bandwidth = 0;    // bytes/s (datasheet)
  double nvlink_bandwidth = 0; // bytes/s per direction per GPU
  double nvlink_latency = 0;   // s per message
  double network_bandwidth = 0;  // bytes/s per direction per GPU (one NIC per GPU)
  double network_latency = 0;    // s per message
  KernelSpeeds kernels;
  // The one fitted constant: the fraction of its isolated measured rate a matmul reaches inside a training step
  // (the gaps between kernels, synchronisation, caches cold after other kernels), the same for every GPU. Fitted on
  // Narayanan et al. 2021 Table 1 only (bench/published_runs --fit); every report marks those rows in-sample.
  double matmul_in_step = 1.0;
};

struct ClusterSpec {
  GpuSpec gpu;
  int nodes = 1, gpus_per_node = 8;
};

struct PlannerLayout {
  int t = 1, p = 1, v = 1;  // tensor, pipeline, interleaved chunks per GPU
  int d = 0;                // data parallel; 0: derived, the GPUs left, N/(t·c·p) (complete_layout)
  int c = 1;                // context parallel: each sequence split over c GPUs
  int e = 1;                // expert parallel: the experts split over e of the d data-parallel ranks
  int micro_batch = 1;      // b, sequences
  int global_batch = 1;     // B, sequences per step
  int zero_stage = 0;       // 0–3 (3: FSDP's FULL_SHARD)
  bool sequence_parallel = false;
  Recomputation recomputation = Recomputation::kFull;
  bool overlap_dp = false;  // data-parallel reduction under backward (DDP's buckets; FSDP's prefetch)
  AttentionKernel attention = AttentionKernel::kFlash2;
  Precision precision = Precision::kBf16;
  // Layers per pipeline stage (p entries summing to the layers, v = 1). Empty: as equal as they can be, the
  // first and the last stage taking one layer fewer where the layers do not divide (they also run the embedding
  // and the output layer; Llama 3 §3.3.2). plan_step's result always holds the counts it used.
  std::vector<int> stage_layers;
};

struct StepSplit {  // seconds per step; total is their sum
  double compute = 0, bubble = 0, tensor = 0, pipeline = 0, data = 0, optimizer = 0, total = 0;
  double context = 0, expert = 0;  // context-parallel K/V ring, expert all-to-all
  // compute, by kind of kernel, on the slowest stage: matmul + attention + memory_bound = compute
  double matmul = 0, attention = 0, memory_bound = 0;
};

struct PlanMemory {  // bytes per GPU
  double params = 0, grads = 0, optimizer = 0, activations = 0, total = 0;
};

struct StagePlan {
  int layers = 0;        // transformer layers on this stage (all its chunks)
  double seconds = 0;    // one micro-batch's forward and backward (and recomputation) on it, with its tensor,
                         // context and expert collectives
  PlanMemory memory;     // its model states and the activations of its micro-batches in flight
};

struct StepPlan {
  PlannerLayout layout;             // as priced: d and stage_layers filled in
  int gpus = 0, micro_batches = 0;  // micro_batches m = B/(d·b)
  double parameters = 0;            // Ψ
  double active_parameters = 0;     // Ψ_active: top_k experts per MoE layer (= Ψ when dense)
  double hardware_flops = 0;        // per step, all GPUs: what the kernels run, recomputation counted
  double model_flops = 0;           // per step, PaLM's 6Ψ + 12·l·h·s per token
  StepSplit time;
  std::vector<StagePlan> stages;    // per pipeline stage
  int slowest_stage = 0;            // the stage that paces the pipeline
  PlanMemory memory;                // the fullest stage's (what decides whether it fits)
  double capacity = 0;              // the GPU's HBM, bytes
  bool fits = false;                // every stage fits
  double tokens_per_s = 0;
  double tflops_per_gpu = 0;        // hardware FLOPs / (step · GPUs) / 1e12 — Narayanan's "achieved TFLOP/s"
  double mfu = 0, hfu = 0;
};

// Ψ: every weight (attention, FFN or every expert and the router, layer norms, biases for GPT, embeddings).
// Throws on a bad model.
double planner_parameters(const PlannerModel& model);
// Ψ_active: what one token runs through — top_k experts of each MoE layer instead of all of them.
double planner_active_parameters(const PlannerModel& model);

// Narayanan et al. 2021, eq. (3): 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)), FLOPs per iteration with full
// recomputation, for batch B of a GPT model (4h FFN, multi-head attention).
double narayanan_flops_per_iteration(const PlannerModel& model, double global_batch);

// Prices one step. Throws dsml::Error naming the rule broken: t·c·p·d ≠ GPUs, t > GPUs per node, heads (or KV
// heads) not divisible by t, fewer layers than stages, stage_layers that are not p positive counts summing to the
// layers (or given with v > 1), layers not divisible by p·v when interleaved, B not divisible by d·b, interleaving
// with m not a multiple of p, a ZeRO stage outside 0–3, a sequence not divisible by c, e not dividing d, experts
// not divisible by e, e > 1 on a dense model, a stage's layers not a multiple of the MoE interval, top_k outside
// 1…experts, FP8 on a GPU without it, a model or GPU with non-positive sizes.
StepPlan plan_step(const PlannerModel& model, const ClusterSpec& cluster, const PlannerLayout& layout);
// The layout with d derived when it is 0 (N/(t·c·p); left as is when it does not divide, for layout_error to say)
// and stage_layers filled in (as equal as they can be, the first and last stage one layer fewer where they do not
// divide; every chunk L/(p·v) when interleaved). plan_step, the search and every front end call this one.
PlannerLayout complete_layout(const PlannerModel& model, const ClusterSpec& cluster, PlannerLayout layout);
// The sentence plan_step would throw for this layout, or "" when it is admissible (the model and GPU are checked
// by plan_step alone). The search asks this instead of catching: the wasm core is built without exception
// handling in most files (CMakeLists.txt), so a catch there would not run.
std::string layout_error(const PlannerModel& model, const ClusterSpec& cluster, const PlannerLayout& layout);

// One attention core (QKᵀ, softmax, scores·V) of one layer on one GPU for one micro-batch of b sequences, under
// t-way tensor and c-way context parallelism (s/c queries against s keys): what the kernel runs and keeps.
struct AttentionCost {
  double forward_seconds = 0, backward_seconds = 0;
  double forward_flops = 0;     // what the kernel runs forward (a fused kernel skips the causal mask's blocks)
  double backward_flops = 0;    // fused: 2.5× forward (QKᵀ recomputed, then dV, dP, dQ, dK); unfused: 2×
  double counted_flops = 0;     // what MFU counts forward: 4·b·(s/c)·s·h/t, no causal halving
  double hbm_bytes = 0;         // forward traffic of the attention core
  double activation_bytes = 0;  // kept for backward beyond Q, K, V and the output (fused: the softmax
                                // statistics; unfused: the s×s scores, and the dropout mask and output)
};
// Throws naming the kernels measured on `gpu` when it has no measurement of a fused `kernel`.
AttentionCost attention_cost(const PlannerModel& model, const GpuSpec& gpu, AttentionKernel kernel,
                             double micro_batch, int t = 1, int c = 1);
// "flash-attention-2" (also "fused"), "flash-attention-1", "flash-attention-triton", "unfused"; "bf16", "fp8" (a
// request's or the CLI's names); parse throws Error naming the choices.
AttentionKernel parse_attention_kernel(const std::string& name);
const char* attention_kernel_name(AttentionKernel kernel);
Precision parse_precision(const std::string& name);
const char* precision_name(Precision precision);

struct SearchOptions {
  int global_batch = 512;
  std::vector<int> micro_batches{1, 2, 4, 8};
  std::vector<int> zero_stages{0, 1};
  std::vector<int> contexts{1};  // context-parallel sizes c to try (each dividing the GPUs left by t)
  bool sequence_parallel = true;
  Recomputation recomputation = Recomputation::kSelective;
  bool overlap_dp = true;
  AttentionKernel attention = AttentionKernel::kFlash2;
  Precision precision = Precision::kBf16;
  int max_interleave = 4;
  int keep = 5;  // how many of the fastest fitting plans to return
};
// Every admissible (t, c, p, v, d, e, b, ZeRO stage) under `options` — t a divisor of the GPUs per node, c from
// options.contexts, p up to the layers (unequal stages where p does not divide them; v only where it does), e a
// divisor of d dividing the experts, layouts that plan_step would refuse skipped — priced by plan_step; the `keep`
// fastest that fit, fastest first (empty when none fits; search_refusal says why).
std::vector<StepPlan> search_layouts(const PlannerModel& model, const ClusterSpec& cluster,
                                     const SearchOptions& options);
// Why search_layouts found nothing: the rule every layout broke when one rule refused them all (e.g. "global
// batch 1537 is not divisible by d·b for any layout"), or how close the smallest layout came to fitting.
std::string search_refusal(const PlannerModel& model, const ClusterSpec& cluster, const SearchOptions& options);

// Presets: data tables in core/planner/planner_presets.cpp (models) and gpu_presets.cpp (GPUs and their kernel
// measurements). Throws naming the known presets otherwise.
PlannerModel planner_model_preset(const std::string& name);
std::vector<std::string> planner_model_names();
GpuSpec gpu_preset(const std::string& name);
std::vector<std::string> gpu_names();
std::vector<GpuSpec> gpu_presets();

// Narayanan et al. 2021, Table 1: the published row and the layout it ran (core/planner/narayanan_table1.cpp).
struct PublishedRun {
  std::string model;       // a planner_model_preset name
  double billions = 0;     // the paper's parameter count, billions
  int t = 1, p = 1, gpus = 0, global_batch = 0;
  double tflops_per_gpu = 0;  // achieved teraFLOP/s per GPU (published)
  double percent_of_peak = 0;   // the table's "% of theoretical peak FLOP/s" column
  double aggregate_pflops = 0;  // the table's "achieved aggregate petaFLOP/s" column
  std::string checked;          // what the row was checked against (narayanan_table1.cpp lists the sources)
};
std::vector<PublishedRun> narayanan_table1();
// A published row on `gpu` (a100-80gb for the paper), 8 GPUs per node, at its published t, p, GPUs and batch, as
// Megatron-LM ran then: unfused attention, dropout, full recomputation, no sequence parallelism or ZeRO, the
// gradient all-reduce not overlapped, and the interleaved schedule §5.1 names. The table gives neither the
// micro-batch size nor the chunks per stage: the fastest (b, v) that fits is chosen, b in 1, 2, 4, 8 and v every
// chunk count that divides the stage's layers (v = 1 where p = 1); the result's layout says which.
StepPlan plan_published_run(const PublishedRun& run, const GpuSpec& gpu);

// Every preset at once (what the page's controls list): models, GPUs and Table 1's rows, in table order.
struct PlannerPresets {
  std::vector<PlannerModel> models;
  std::vector<GpuSpec> gpus;
  std::vector<PublishedRun> table1;
};
PlannerPresets planner_presets();

}  // namespace dsml
