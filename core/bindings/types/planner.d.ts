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
export interface PlanMemory { params: number; grads: number; optimizer: number; activations: number; total: number }
/** One attention core per layer, per GPU, per micro-batch (dsml/planner.h attention_cost). countedFlops is what MFU
 *  counts forward (4·b·(s/c)·s·h/t, no causal halving); forwardFlops what the kernel runs. */
export interface AttentionCost {
  forwardSeconds: number; backwardSeconds: number; forwardFlops: number; backwardFlops: number;
  countedFlops: number; hbmBytes: number; activationBytes: number;
}
export interface ValidationRow {
  label: string; published: number; predicted: number; relativeError: number; fits: boolean; memoryBytes: number;
  capacityBytes: number; mainTerm: string; layout: Required<PlannerLayout>;
}
/** A published table priced row by row; inSample: the fitted constant was fitted on it. */
export interface ValidationTable {
  id: string; title: string; source: string; gpu: string; metric: "tflopsPerGpu" | "mfu"; inSample: boolean;
  bound: { each: number; mean: number }; rows: ValidationRow[]; meanAbsError: number; worstAbsError: number;
  fitting: number;
}
export interface PlannerConstant { name: string; value: number; unit: string; source: string; fittedOn: string }
export interface StepPlan {
  layout: Required<PlannerLayout>; gpus: number; microBatches: number; parameters: number;
  /** Ψ with top_k experts per MoE layer instead of all (= parameters for a dense model); MFU counts these. */
  activeParameters: number;
  /** Per step, all GPUs: every matmul run (recomputation counted), and PaLM's (6Ψ + 12·l·h·s) per token. */
  hardwareFlops: number; modelFlops: number;
  /** Seconds; total is the sum of the others; computeParts splits compute by kernel (their sum is compute). */
  time: { compute: number; bubble: number; tensor: number; context: number; expert: number; pipeline: number;
          data: number; optimizer: number; total: number;
          computeParts: { matmul: number; attention: number; memoryBound: number } };
  /** Per pipeline stage: its layers, one micro-batch's seconds on it, its memory; slowestStage paces the pipeline. */
  stages: { layers: number; seconds: number; memoryBytes: PlanMemory }[]; slowestStage: number;
  /** Bytes per GPU of the fullest stage; capacity is the GPU's HBM; fits: every stage fits. */
  memory: PlanMemory;
  capacity: number; fits: boolean; tokensPerS: number; tflopsPerGpu: number; mfu: number; hfu: number;
}

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
