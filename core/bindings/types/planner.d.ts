// types/planner.d.ts — planning a transformer training run on a GPU cluster (core/include/dsml/planner.h).
// Part of the wasm core's API (../dsml.d.ts, which states the conventions every function follows): the types
// of this domain, and its functions, added to DsmlCore by module augmentation.

/** A decoder-only transformer. kvHeads 0 = heads (MHA); ffn 0 = 4·hidden; gatedFfn: SwiGLU. Mixture of experts:
 *  experts > 0 FFNs in every moeEvery-th layer (default 1), each token routed to topK (default 1) of them. */
export interface PlannerModel {
  name?: string; layers: number; hidden: number; heads: number; kvHeads?: number; ffn?: number;
  gatedFfn?: boolean; sequence: number; vocabulary: number; learnedPositions?: boolean; tiedEmbeddings?: boolean;
  experts?: number; topK?: number; moeEvery?: number;
}
/** Datasheet numbers (FLOP/s, bytes, bytes/s per direction, s per message) and the planner's achievable
 *  fractions of peak, one pair per GPU. */
export interface PlannerGpu {
  name?: string; peakFlops: number; hbmBytes: number; hbmBandwidth: number; nvlinkBandwidth: number;
  nvlinkLatency: number; networkBandwidth: number; networkLatency: number; gemmEfficiency: number;
  hbmEfficiency: number;
}
export interface PlannerCluster { gpu: PlannerGpu; nodes: number; gpusPerNode?: number }
/** t·c·p·d = nodes·gpusPerNode; c (context parallel) splits each sequence, e (expert parallel, dividing d) the
 *  experts; recomputation defaults to "full", v, c, e and microBatch to 1. */
export interface PlannerLayout {
  t: number; p: number; v?: number; d: number; c?: number; e?: number; microBatch?: number; globalBatch: number; zeroStage?: number;
  sequenceParallel?: boolean; recomputation?: "none" | "selective" | "full"; overlapDp?: boolean;
}
/** A row of Narayanan et al. 2021's Table 1; `checked` names what its cells were checked against. */
export interface PublishedRun {
  model: string; billions: number; t: number; p: number; gpus: number; globalBatch: number; tflopsPerGpu: number;
  percentOfPeak: number; aggregatePflops: number; checked: string;
}
export interface PlannerPresets { models: PlannerModel[]; gpus: PlannerGpu[]; table1: PublishedRun[] }
export interface StepPlan {
  layout: Required<PlannerLayout>; gpus: number; microBatches: number; parameters: number;
  /** Ψ with top_k experts per MoE layer instead of all (= parameters for a dense model); MFU counts these. */
  activeParameters: number;
  /** Per step, all GPUs: every matmul run (recomputation counted), and PaLM's (6Ψ + 12·l·h·s) per token. */
  hardwareFlops: number; modelFlops: number;
  /** Seconds; total is the sum of the others. */
  time: { compute: number; bubble: number; tensor: number; context: number; expert: number; pipeline: number;
          data: number; optimizer: number; total: number };
  /** Bytes per GPU (first pipeline stage); capacity is the GPU's HBM. */
  memory: { params: number; grads: number; optimizer: number; activations: number; total: number };
  capacity: number; fits: boolean; tokensPerS: number; tflopsPerGpu: number; mfu: number; hfu: number;
}

declare module "../dsml" {
  interface DsmlCore {
    /** Every planner preset (core/planner/planner_presets.cpp): models, GPUs, and Narayanan et al. 2021's Table 1
     *  rows (the layout each ran and its published TFLOP/s per GPU). */
    plannerPresets(): PlannerPresets;
    /** One training step of a transformer on a GPU cluster (dsml/planner.h plan_step — the function `dsml plan`
     *  calls): its split in seconds, memory per GPU of the first stage, FLOPs, MFU and HFU, whether it fits.
     *  @throws naming the broken rule: t·c·p·d ≠ GPUs, t > GPUs per node, heads not divisible by t, layers not
     *  divisible by p·v, global batch not divisible by d·microBatch, interleaving with micro-batches not a multiple
     *  of p, a ZeRO stage outside 0–3, sequence not divisible by c, e not dividing d, experts not divisible by e,
     *  e > 1 on a dense model, topK outside 1…experts. */
    planStep(request: { model: PlannerModel; cluster: PlannerCluster; layout: PlannerLayout }): StepPlan;
    /** The `keep` (default 5) fastest layouts that fit, fastest first (empty if none fits): every t dividing the
     *  GPUs per node, p dividing the layers, v ≤ maxInterleave (4), b in microBatches ([1, 2, 4, 8]), ZeRO stage in
     *  zeroStages ([0, 1]), c in contexts ([1]), every e dividing d and the experts; selective recomputation,
     *  sequence parallelism and overlap by default. */
    searchLayouts(request: { model: PlannerModel; cluster: PlannerCluster; globalBatch: number;
                             microBatches?: number[]; zeroStages?: number[]; contexts?: number[]; sequenceParallel?: boolean;
                             recomputation?: "none" | "selective" | "full"; overlapDp?: boolean;
                             maxInterleave?: number; keep?: number }): StepPlan[];
  }
}
