// dsml/planner.h — plan a real training run: a decoder-only transformer on a GPU cluster under a (t, p, v, d, b)
// layout, with ZeRO, sequence parallelism and activation recomputation. One function, plan_step, prices one step;
// search_layouts walks the layouts and keeps the fastest that fit. Validated against Narayanan et al. 2021
// ("Efficient large-scale language model training on GPU clusters using Megatron-LM", SC'21), Table 1
// (bench/narayanan_table1.cpp).
//
// The model of a step (every term in seconds, per GPU; core/planner/*.cpp narrate each one):
//   compute   every matmul of a layer priced by its own roofline, max(FLOPs/(η_gemm·peak), bytes/(η_hbm·HBM)),
//             plus the memory-bound kernels between them (layer norms, softmax, dropout, GeLU, residual adds) at
//             η_hbm·HBM; forward once, backward twice, recomputation adds what it recomputes (full: one forward
//             of every layer; selective: the attention core). η_gemm and η_hbm are declared once per GPU preset.
//   bubble    (p − 1)/v micro-batch slots of the slowest stage (1F1B; interleaved with v chunks per GPU,
//             Narayanan et al. §2.2.2)
//   tensor    Megatron's f/g all-reduces of s·b·h·2 bytes (reduce-scatter + all-gather with sequence
//             parallelism) over t on NVLink, 2 per layer per forward — priced with closed_form_time (ring)
//   pipeline  a stage's sends, s·b·h·2/t bytes each (scatter/gather over the t NICs), α–β on the link between
//             stages
//   data      gradients 2Ψ/(tp) bytes: ring all-reduce over d·c (expert weights over d·c/e) (ZeRO 1/2: reduce-scatter + all-gather; ZeRO 3
//             adds a parameter all-gather for forward and one for backward), NVLink if the group fits in a node;
//             with overlap only what outlasts the last micro-batch's backward is exposed
//   context   context parallelism c (ring attention, Liu et al. 2023; Megatron's CP): every GPU holds s/c of each
//             sequence; each attention pass passes its K/V block round the ring of c ranks, (c − 1) messages of
//             2·(s/c)·b·k·d_h·2/t bytes (K and V of its k/t KV heads) — forward 1, backward 2 (K/V and their
//             gradients), + 1 when recomputation reruns attention — NVLink if t·c GPUs fit in a node. Counted
//             in full: the exchange is not overlapped with the block products (ring attention does overlap it;
//             this is an upper bound).
//   expert    MoE layers (every moe_every-th layer; `experts` FFNs, each token to top_k of them; Fedus et al. 2021,
//             Jiang et al. 2024): experts/e per GPU; the dispatch and the combine are each a pairwise all-to-all
//             over e ranks of (s/c)·b·k·h·2/t bytes per rank (the course's closed form, Thakur et al. §4.6),
//             2 per forward, 4 per backward, + 2 under full recomputation; perfectly balanced routing (capacity
//             factor 1, no dropped tokens)
//   optimizer Adam's update reads and writes 16 bytes of state + the fp16 gradient and parameter per parameter
//             it owns, at η_hbm·HBM
// Memory per GPU: model states by ZeRO stage (memory_per_device) and activations by Korthikanti et al. 2022
// (transformer_layer_activation_bytes) for the in-flight micro-batches of the first stage.
// FLOPs: hardware FLOPs = every matmul the step runs (with recomputation); for GPT with full recomputation this is
// Narayanan's equation 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)) exactly. Model FLOPs (PaLM, Chowdhery et al. 2022,
// App. B): (6Ψ_active + 12·l·h·s) per token, Ψ_active counting top_k experts per MoE layer (Ψ = Ψ_active for a
// dense model). MFU = model FLOPs/(step·N·peak); HFU = hardware FLOPs/(step·N·peak).
// Left out (the page says so): kernel launch gaps, wave quantisation, NCCL protocol choice, link contention between
// the TP, PP, DP, CP and EP traffic, stragglers, data loading; for MoE, routing imbalance, token dropping and
// capacity factors, the router's auxiliary loss, expert tensor parallelism other than t; for context parallelism,
// causal-mask load balancing and the overlap of the K/V ring with attention; FlashAttention (the s×s scores go
// through HBM, as in Megatron 2021, so long contexts are priced memory-bound).
#pragma once

#include <string>
#include <vector>

#include "dsml/memory_accountant.h"

namespace dsml {

struct PlannerModel {
  std::string name;
  int layers = 0, hidden = 0, heads = 0;
  int kv_heads = 0;          // grouped-query attention; 0 means = heads (multi-head attention)
  int ffn = 0;               // FFN width; 0 means 4·hidden
  bool gated_ffn = false;    // SwiGLU: three h×ffn matrices instead of two
  int sequence = 2048, vocabulary = 51200;
  bool learned_positions = true;  // GPT's s×h position table (Llama uses RoPE: no parameters)
  bool tied_embeddings = true;    // the output layer reuses the input embedding (GPT); Llama unties them
  int experts = 0;                // mixture of experts: FFNs per MoE layer; 0 = dense
  int top_k = 1;                  // experts each token is routed to (1 ≤ top_k ≤ experts)
  int moe_every = 1;              // every moe_every-th layer is an MoE layer (1: all; 2: every other, GShard)
};

struct GpuSpec {
  std::string name;
  double peak_flops = 0;       // dense BF16/FP16 tensor-core FLOP/s (datasheet)
  double hbm_bytes = 0;        // capacity
  double hbm_bandwidth = 0;    // bytes/s (datasheet)
  double nvlink_bandwidth = 0; // bytes/s per direction per GPU
  double nvlink_latency = 0;   // s per message
  double network_bandwidth = 0;  // bytes/s per direction per GPU (one NIC per GPU)
  double network_latency = 0;    // s per message
  double gemm_efficiency = 0;  // η_gemm: fraction of peak a compute-bound matmul reaches (one per preset)
  double hbm_efficiency = 0;   // η_hbm: fraction of HBM bandwidth a memory-bound kernel reaches
};

struct ClusterSpec {
  GpuSpec gpu;
  int nodes = 1, gpus_per_node = 8;
};

struct PlannerLayout {
  int t = 1, p = 1, v = 1, d = 1;  // tensor, pipeline, interleaved chunks per GPU, data; t·c·p·d = GPUs
  int c = 1;                       // context parallel: each sequence split over c GPUs
  int e = 1;                       // expert parallel: the experts split over e of the d data-parallel ranks
  int micro_batch = 1;             // b, sequences
  int global_batch = 1;            // B, sequences per step
  int zero_stage = 0;              // 0–3
  bool sequence_parallel = false;
  Recomputation recomputation = Recomputation::kFull;
  bool overlap_dp = false;         // data-parallel gradient reduction under the last backward
};

struct StepSplit {  // seconds per step; total is their sum
  double compute = 0, bubble = 0, tensor = 0, pipeline = 0, data = 0, optimizer = 0, total = 0;
  double context = 0, expert = 0;  // context-parallel K/V ring, expert all-to-all
};

struct PlanMemory {  // bytes per GPU (the first pipeline stage: the most activations)
  double params = 0, grads = 0, optimizer = 0, activations = 0, total = 0;
};

struct StepPlan {
  PlannerLayout layout;
  int gpus = 0, micro_batches = 0;  // micro_batches m = B/(d·b)
  double parameters = 0;            // Ψ
  double active_parameters = 0;     // Ψ_active: top_k experts per MoE layer (= Ψ when dense)
  double hardware_flops = 0;        // per step, all GPUs, recomputation counted
  double model_flops = 0;           // per step, PaLM's 6Ψ + 12·l·h·s per token
  StepSplit time;
  PlanMemory memory;
  double capacity = 0;              // the GPU's HBM, bytes
  bool fits = false;
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
// heads) not divisible by t, layers not divisible by p·v, B not divisible by d·b, interleaving with m not a
// multiple of p, a ZeRO stage outside 0–3, a sequence not divisible by c, e not dividing d, experts not divisible
// by e, e > 1 on a dense model, a stage's layers not a multiple of the MoE interval, top_k outside 1…experts, a
// model or GPU with non-positive sizes.
StepPlan plan_step(const PlannerModel& model, const ClusterSpec& cluster, const PlannerLayout& layout);
// The sentence plan_step would throw for this layout, or "" when it is admissible (the model and GPU are checked
// by plan_step alone). The search asks this instead of catching: the wasm core is built without exception
// handling in most files (CMakeLists.txt), so a catch there would not run.
std::string layout_error(const PlannerModel& model, const ClusterSpec& cluster, const PlannerLayout& layout);

struct SearchOptions {
  int global_batch = 512;
  std::vector<int> micro_batches{1, 2, 4, 8};
  std::vector<int> zero_stages{0, 1};
  std::vector<int> contexts{1};  // context-parallel sizes c to try (each dividing the GPUs left by t)
  bool sequence_parallel = true;
  Recomputation recomputation = Recomputation::kSelective;
  bool overlap_dp = true;
  int max_interleave = 4;
  int keep = 5;  // how many of the fastest fitting plans to return
};
// Every admissible (t, c, p, v, d, e, b, ZeRO stage) under `options` — t a divisor of the GPUs per node, c from
// options.contexts, e a divisor of d dividing the experts, layouts that plan_step would refuse skipped — priced by plan_step; the `keep` fastest that fit, fastest first (empty when
// none fits).
std::vector<StepPlan> search_layouts(const PlannerModel& model, const ClusterSpec& cluster,
                                     const SearchOptions& options);

// Presets: data tables in core/planner/planner_presets.cpp. Throws naming the known presets otherwise.
PlannerModel planner_model_preset(const std::string& name);
std::vector<std::string> planner_model_names();
GpuSpec gpu_preset(const std::string& name);
std::vector<std::string> gpu_names();

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
// The planner's layout and cluster for a published row: `gpu` (the a100-80gb preset for the paper), 8 GPUs per node, d = GPUs/(t·p), b = 1, v = 1,
// full recomputation, no sequence parallelism, no ZeRO, no overlap (Megatron-LM as of the paper).
StepPlan plan_published_run(const PublishedRun& run, const GpuSpec& gpu);

// Every preset at once (what the page's controls list): models, GPUs and Table 1's rows, in table order.
struct PlannerPresets {
  std::vector<PlannerModel> models;
  std::vector<GpuSpec> gpus;
  std::vector<PublishedRun> table1;
};
PlannerPresets planner_presets();

}  // namespace dsml
