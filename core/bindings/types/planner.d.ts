// types/planner.d.ts — planning a transformer training run on a GPU cluster (core/include/dsml/planner.h).
// Part of the wasm core's API (../dsml.d.ts, which states the conventions every function follows): the types
// of this domain, and its functions, added to DsmlCore by module augmentation.

/** A decoder-only transformer. kvHeads 0 = heads (MHA); ffn 0 = 4·hidden; gatedFfn: SwiGLU. */
export interface PlannerModel {
  name?: string; layers: number; hidden: number; heads: number; kvHeads?: number; ffn?: number;
  gatedFfn?: boolean; sequence: number; vocabulary: number; learnedPositions?: boolean; tiedEmbeddings?: boolean;
}
/** Datasheet numbers (FLOP/s, bytes, bytes/s per direction, s per message) and the planner's achievable
 *  fractions of peak, one pair per GPU. */
export interface PlannerGpu {
  name?: string; peakFlops: number; hbmBytes: number; hbmBandwidth: number; nvlinkBandwidth: number;
  nvlinkLatency: number; networkBandwidth: number; networkLatency: number; gemmEfficiency: number;
  hbmEfficiency: number;
}
export interface PlannerCluster { gpu: PlannerGpu; nodes: number; gpusPerNode?: number }
/** t·p·d = nodes·gpusPerNode; recomputation defaults to "full", v and microBatch to 1. */
export interface PlannerLayout {
  t: number; p: number; v?: number; d: number; microBatch?: number; globalBatch: number; zeroStage?: number;
  sequenceParallel?: boolean; recomputation?: "none" | "selective" | "full"; overlapDp?: boolean;
}
export interface PublishedRun {
  model: string; billions: number; t: number; p: number; gpus: number; globalBatch: number; tflopsPerGpu: number;
}
export interface PlannerPresets { models: PlannerModel[]; gpus: PlannerGpu[]; table1: PublishedRun[] }
export interface StepPlan {
  layout: Required<PlannerLayout>; gpus: number; microBatches: number; parameters: number;
  /** Per step, all GPUs: every matmul run (recomputation counted), and PaLM's (6Ψ + 12·l·h·s) per token. */
  hardwareFlops: number; modelFlops: number;
  /** Seconds; total is the sum of the others. */
  time: { compute: number; bubble: number; tensor: number; pipeline: number; data: number; optimizer: number;
          total: number };
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
     *  @throws naming the broken rule: t·p·d ≠ GPUs, t > GPUs per node, heads not divisible by t, layers not
     *  divisible by p·v, global batch not divisible by d·microBatch, interleaving with micro-batches not a multiple
     *  of p, a ZeRO stage outside 0–3. */
    planStep(request: { model: PlannerModel; cluster: PlannerCluster; layout: PlannerLayout }): StepPlan;
    /** The `keep` (default 5) fastest layouts that fit, fastest first (empty if none fits): every t dividing the
     *  GPUs per node, p dividing the layers, v ≤ maxInterleave (4), b in microBatches ([1, 2, 4, 8]), ZeRO stage in
     *  zeroStages ([0, 1]); selective recomputation, sequence parallelism and overlap by default. */
    searchLayouts(request: { model: PlannerModel; cluster: PlannerCluster; globalBatch: number;
                             microBatches?: number[]; zeroStages?: number[]; sequenceParallel?: boolean;
                             recomputation?: "none" | "selective" | "full"; overlapDp?: boolean;
                             maxInterleave?: number; keep?: number }): StepPlan[];
  }
}
