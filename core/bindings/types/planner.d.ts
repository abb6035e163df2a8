// types/planner.d.ts — planning a transformer training run on a GPU cluster (core/include/dsml/planner.h).
// Part of the wasm core's API (../dsml.d.ts, which states the conventions every function follows): the types
// of this domain, and its functions, added to DsmlCore by module augmentation.

/** A decoder-only transformer. kvHeads 0 = heads (MHA); ffn 0 = 4·hidden; gatedFfn: SwiGLU. Mixture of experts:
 *  experts > 0 FFNs in every moeEvery-th layer (default 1), each token routed to topK (default 1) of them. */
export interface PlannerModel {
  name?: string; layers: number; hidden: number; heads: number; kvHeads?: number; ffn?: number;
  gatedFfn?: boolean; sequence: number; vocabulary: number; learnedPositions?: boolean; tiedEmbeddings?: boolean;
  dropout?: boolean; experts?: number; topK?: number; moeEvery?: number;
}
export type AttentionKernel = "flash-attention-2" | "flash-attention-1" | "flash-attention-triton" | "unfused";
/** A fused attention kernel's measured forward + backward FLOP/s (causal, FlashAttention's count) at each sequence. */
export interface AttentionSpeed { kernel: AttentionKernel; headDim: number; sequences: number[]; flops: number[] }
/** How fast the GPU's kernels run, from published kernel measurements (core/planner/gpu_presets.cpp cites each). */
export interface KernelSpeeds {
  matmulFlops: number; matmulFp8Flops: number; hbmBandwidth: number; sms: number; tileM: number; tileN: number;
  attention: AttentionSpeed[];
}
/** Datasheet numbers (FLOP/s, bytes, bytes/s per direction, s per message), measured kernel speeds, and
 *  matmulInStep, the one fitted constant (on Narayanan et al. 2021 Table 1): the share of the measured matmul rate
 *  a training step reaches. */
export interface PlannerGpu {
  name?: string; peakFlops: number; fp8PeakFlops: number; hbmBytes: number; hbmBandwidth: number;
  nvlinkBandwidth: number; nvlinkLatency: number; networkBandwidth: number; networkLatency: number;
  matmulInStep: number; kernels: KernelSpeeds;
}
export interface PlannerCluster { gpu: PlannerGpu; nodes: number; gpusPerNode?: number }
/** t·c·p·d = nodes·gpusPerNode; d left out is derived by the core (the GPUs left). c (context parallel) splits
 *  each sequence, e (expert parallel, dividing d) the experts; recomputation defaults to "full", v, c, e and
 *  microBatch to 1, attention to "flash-attention-2" ("fused" reads the same), precision to "bf16". stageLayers:
 *  p layer counts summing to the layers (v = 1); left out, as equal as they can be, the first and last stage one
 *  layer fewer where they do not divide. */
export interface PlannerLayout {
  t: number; p: number; v?: number; d?: number; c?: number; e?: number; microBatch?: number; globalBatch: number;
  zeroStage?: number; sequenceParallel?: boolean; recomputation?: "none" | "selective" | "full"; overlapDp?: boolean;
  attention?: AttentionKernel | "fused"; precision?: "bf16" | "fp8"; stageLayers?: number[];
}
/** A row of Narayanan et al. 2021's Table 1; `checked` names what its cells were checked against. */
export interface PublishedRun {
  model: string; billions: number; t: number; p: number; gpus: number; globalBatch: number; tflopsPerGpu: number;
  percentOfPeak: number; aggregatePflops: number; checked: string;
}
export interface PlannerPresets { models: PlannerModel[]; gpus: PlannerGpu[]; table1: PublishedRun[] }
export interface ValidationRow {
  label: string; published: number; predicted: number; relativeError: number; fits: boolean; memoryBytes: number;
  capacityBytes: number; mainTerm: string; layout: PlanLayout;
}
/** A published table priced row by row; inSample: the fitted constant was fitted on it. */
export interface ValidationTable {
  id: string; title: string; source: string; gpu: string; metric: "tflopsPerGpu" | "mfu"; inSample: boolean;
  bound: { each: number; mean: number }; rows: ValidationRow[]; meanAbsError: number; worstAbsError: number;
  fitting: number;
}
export interface PlannerConstant { name: string; value: number; unit: string; source: string; fittedOn: string }
// The planner's results, generated from their field tables (core/planner/plan_fields.cpp: each field's one name,
// unit and meaning, which the wasm object and `dsml plan` are written from). tests/core/test_result_fields.cpp checks
// this block against the tables and prints it when they differ: change the table, then paste what it prints.
// <plan_fields>
/** One training step of a transformer on a GPU cluster, priced (plan_step). */
export interface StepPlan {
  /** the layout as priced */
  layout: PlanLayout;
  /** N·G [GPUs] */
  gpus: number;
  /** m = B/(d·b) per step [micro-batches] */
  microBatches: number;
  /** Ψ [parameters] */
  parameters: number;
  /** Ψ with topK experts per MoE layer instead of all (= parameters for a dense model); MFU counts these
   *  [parameters] */
  activeParameters: number;
  /** per step, all GPUs: every matmul run, recomputation counted [FLOP] */
  hardwareFlops: number;
  /** per step, PaLM's (6Ψ + 12·l·h·s) per token [FLOP] */
  modelFlops: number;
  /** the step's seconds, part by part [s] */
  time: PlanTime;
  /** per pipeline stage */
  stages: PlanStage[];
  /** the stage that paces the pipeline */
  slowestStage: number;
  /** the fullest stage's, per GPU: what decides whether it fits [bytes] */
  memory: PlanMemory;
  /** the GPU's HBM [bytes] */
  capacity: number;
  /** every stage fits in capacity */
  fits: boolean;
  /** training throughput [tokens/s] */
  tokensPerS: number;
  /** hardware FLOPs / (step · GPUs) / 1e12: Narayanan's achieved TFLOP/s [TFLOP/s] */
  tflopsPerGpu: number;
  /** model FLOP utilisation: model FLOPs/s over the GPUs' peak */
  mfu: number;
  /** hardware FLOP utilisation: hardware FLOPs/s over the GPUs' peak */
  hfu: number;
}
/** The layout as priced: every default filled in, d derived (the GPUs left, N·G/(t·c·p)) and stageLayers the
 *  counts used. */
export interface PlanLayout {
  /** tensor parallel [GPUs] */
  t: number;
  /** pipeline parallel [stages] */
  p: number;
  /** interleaved chunks per GPU [chunks] */
  v: number;
  /** data parallel [replicas] */
  d: number;
  /** context parallel: each sequence split over c GPUs [GPUs] */
  c: number;
  /** expert parallel: the experts split over e of the d replicas [GPUs] */
  e: number;
  /** b, one micro-batch [sequences] */
  microBatch: number;
  /** B, one step [sequences] */
  globalBatch: number;
  /** ZeRO stage 0–3 (3: FSDP's FULL_SHARD) */
  zeroStage: number;
  /** Megatron's sequence parallelism */
  sequenceParallel: boolean;
  /** activations recomputed in backward */
  recomputation: "none" | "selective" | "full";
  /** data-parallel reduction under backward (DDP's buckets; FSDP's prefetch) */
  overlapDp: boolean;
  /** the attention kernel */
  attention: "flash-attention-2" | "flash-attention-1" | "flash-attention-triton" | "unfused";
  /** the linear layers' matmuls */
  precision: "bf16" | "fp8";
  /** per pipeline stage [layers] */
  stageLayers: number[];
}
/** Seconds per step; total is the sum of the others. */
export interface PlanTime {
  /** the m micro-batches' forward, backward and recomputation on the slowest stage [s] */
  compute: number;
  /** the pipeline's idle time [s] */
  bubble: number;
  /** the slowest stage's tensor-parallel collectives [s] */
  tensor: number;
  /** context parallelism's K/V ring [s] */
  context: number;
  /** expert parallelism's all-to-all [s] */
  expert: number;
  /** sends between stages: activations forward, gradients back [s] */
  pipeline: number;
  /** the data-parallel reduction the step waits for (not hidden under backward) [s] */
  data: number;
  /** the optimizer step [s] */
  optimizer: number;
  /** one step [s] */
  total: number;
  /** compute split by kernel [s] */
  computeParts: ComputeParts;
}
/** The slowest stage's compute by kind of kernel: matmul + attention + memoryBound = compute. */
export interface ComputeParts {
  /** the matmuls [s] */
  matmul: number;
  /** the attention cores [s] */
  attention: number;
  /** norms, activations, residuals: HBM-bound [s] */
  memoryBound: number;
}
/** One pipeline stage. */
export interface PlanStage {
  /** transformer layers on it (all its chunks) [layers] */
  layers: number;
  /** one micro-batch's forward and backward (and recomputation) on it, with its tensor, context and expert
   *  collectives [s] */
  seconds: number;
  /** its model states and the activations of its micro-batches in flight [bytes] */
  memory: PlanMemory;
}
/** Bytes per GPU. */
export interface PlanMemory {
  /** parameters [bytes] */
  params: number;
  /** gradients [bytes] */
  grads: number;
  /** optimizer state [bytes] */
  optimizer: number;
  /** activations kept for backward [bytes] */
  activations: number;
  /** their sum [bytes] */
  total: number;
}
/** One attention core per layer, per GPU, per micro-batch (attention_cost). */
export interface AttentionCost {
  /** forward [s] */
  forwardSeconds: number;
  /** backward [s] */
  backwardSeconds: number;
  /** what the kernel runs forward (a fused kernel skips the causal mask's blocks) [FLOP] */
  forwardFlops: number;
  /** fused: 2.5× forward (QKᵀ recomputed, then dV, dP, dQ, dK); unfused: 2× [FLOP] */
  backwardFlops: number;
  /** what MFU counts forward: 4·b·(s/c)·s·h/t, no causal halving [FLOP] */
  countedFlops: number;
  /** forward traffic of the attention core [bytes] */
  hbmBytes: number;
  /** kept for backward beyond Q, K, V and the output (fused: the softmax statistics; unfused: the s×s scores, the
   *  dropout mask and output) [bytes] */
  activationBytes: number;
}
// </plan_fields>

declare module "../dsml" {
  interface DsmlCore {
    /** Every planner preset (core/planner/planner_presets.cpp): models, GPUs, and Narayanan et al. 2021's Table 1
     *  rows (the layout each ran and its published TFLOP/s per GPU). */
    plannerPresets(): PlannerPresets;
    /** One training step of a transformer on a GPU cluster (dsml/planner.h plan_step — the function `dsml plan`
     *  calls): its split in seconds, memory per GPU of the first stage, FLOPs, MFU and HFU, whether it fits.
     *  @throws naming the broken rule: t·c·p not dividing the GPUs, t > GPUs per node, heads or KV heads not
     *  divisible by t, more stages than layers, stageLayers not summing to the layers, layers not divisible by p·v
     *  when interleaved, global batch not divisible by d·microBatch, interleaving with micro-batches not a multiple
     *  of p, a ZeRO stage outside 0–3, sequence not divisible by c, e not dividing d, experts not divisible by e,
     *  e > 1 on a dense model, topK outside 1…experts, fp8 on a GPU without it, an unmeasured attention kernel. */
    planStep(request: { model: PlannerModel; cluster: PlannerCluster; layout: PlannerLayout }): StepPlan;
    /** The `keep` (default 5) fastest layouts that fit, fastest first (empty if none fits): every t dividing the
     *  GPUs per node, p up to the layers (unequal stages), v ≤ maxInterleave (4) dividing L/p, b in microBatches
     *  ([1, 2, 4, 8]), ZeRO stage in
     *  zeroStages ([0, 1]), c in contexts ([1]), every e dividing d and the experts; selective recomputation,
     *  sequence parallelism and overlap by default. */
    searchLayouts(request: { model: PlannerModel; cluster: PlannerCluster; globalBatch: number;
                             microBatches?: number[]; zeroStages?: number[]; contexts?: number[]; sequenceParallel?: boolean;
                             recomputation?: "none" | "selective" | "full"; overlapDp?: boolean;
                             maxInterleave?: number; keep?: number; attention?: AttentionKernel | "fused";
                             precision?: "bf16" | "fp8" }): StepPlan[];
    /** Why searchLayouts (same request) found nothing: "" when a layout fits; else the rule every layout broke or
     *  how close the smallest came to fitting. */
    searchRefusal(request: Parameters<DsmlCore["searchLayouts"]>[0]): string;
    /** One layer's attention core on one GPU for one micro-batch (kernel: a fused kernel the GPU has a
     *  measurement of, or "unfused"); the model's sequence is used. */
    attentionCost(request: { model: PlannerModel; gpu: PlannerGpu; kernel: AttentionKernel | "fused";
                             microBatch?: number; t?: number; c?: number }): AttentionCost;
    /** The planner against published runs: Narayanan et al. 2021 Table 1 (in sample) and llm-foundry's H100 BF16
     *  and A100 80GB tables (out of sample), every row, and the constants the predictions rest on. */
    plannerValidation(): { constants: PlannerConstant[]; tables: ValidationTable[] };
  }
}
