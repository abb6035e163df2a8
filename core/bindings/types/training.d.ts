// types/training.d.ts — the lab and Weeks 3 and 5: strategies trained beside one device, a step priced, data-
// parallel scaling (core/include/dsml/strategy.h, train_compare.h, step_cost.h, dp_scaling.h).
// Part of the wasm core's API (../dsml.d.ts, which states the conventions every function follows): the types
// of this domain, and its functions, added to DsmlCore by module augmentation.

/** "single", the data-parallel family, ZeRO, tensor, FSDP+TP and pipeline parallelism (dsml/strategy.h). */
export type Strategy =
  | "single" | "dp" | "dp-bucketed" | "dp-accumulate" | "zero1" | "zero2" | "zero3" | "tp" | "fsdp-tp"
  | "pp-gpipe" | "pp-1f1b";

/** A dp × tp × pp grid of ranks; each a whole number >= 1 (default 1), at most 4096 ranks in all. Rank
 *  r = (p·dp + d)·tp + t. Each strategy needs its own shape ("tp runs on a grid with dp = pp = 1 …"). */
export interface Grid {
  dp?: number;
  tp?: number;
  pp?: number;
}

/** A stack of L MLP blocks: block(x) = [x +] act(x·W_inᵀ)·W_outᵀ, W_in (F × D), W_out (D × F). */
export interface ModelConfig {
  /** L, whole number >= 1. */
  layers: number;
  /** D, whole number >= 1. */
  width: number;
  /** F, whole number >= 1. */
  hidden: number;
  /** Default "gelu". */
  activation?: "relu" | "gelu" | "tanh";
  /** Default true. */
  residual?: boolean;
}

export interface OptimizerConfig {
  kind: "sgd" | "momentum" | "adam" | "lars" | "lamb";
  /** Base learning rate, > 0. */
  lr: number;
  /** Linear warm-up steps (Goyal et al. 2017), whole number >= 0, default 0. */
  warmupSteps?: number;
  /** momentum, LARS: in [0, 1), default 0.9. */
  momentum?: number;
  /** Adam, LAMB: in [0, 1), default 0.9. */
  beta1?: number;
  /** Adam, LAMB: in [0, 1), default 0.999. */
  beta2?: number;
  /** Adam, LAMB: > 0, default 1e-8. */
  epsilon?: number;
  /** >= 0, default 0 (L2 for SGD/momentum/LARS, decoupled for Adam/LAMB). */
  weightDecay?: number;
  /** LARS trust coefficient η, > 0, default 0.001 (You et al. 2017). */
  trustCoefficient?: number;
}

/** Bytes one rank holds (fp64 in trainCompare; elementBytes per value in stepCost). */
export interface RankMemory {
  params: number;
  grads: number;
  optimizer: number;
  /** The peak of what forward kept for backward during the step. */
  activations: number;
  /** params + grads + optimizer + activations */
  total: number;
}

export interface TrainCompareRequest {
  strategy: Strategy;
  grid: Grid;
  model: ModelConfig;
  optimizer: OptimizerConfig;
  /** Global batch rows B, whole number >= 1, divisible as the strategy needs (dp, dp·microBatches). */
  batch: number;
  /** Whole number in [1, 10000]. */
  steps: number;
  /** Whole number >= 0 (default 0): teacher = init(seed), student starts from init(seed + 1). */
  seed?: number;
  /** dp family: gradient accumulation steps; pipelines: micro-batches m. Default 2 for dp-accumulate, else 1;
   *  other strategies need 1. */
  microBatches?: number;
  /** dp-bucketed, zero1, zero2: B per gradient bucket (8-byte values), > 0, default 25 MiB. */
  bucketBytes?: number;
}

export interface TrainCompareResult {
  /** The strategy's loss before each step's update. */
  losses: Float64Array;
  /** The single device's, on the same batches from the same start. */
  singleLosses: Float64Array;
  /** Divergence is a result, not an error: the first step whose loss was not finite or whose gradient held
   *  inf/nan, −1 if none. The run stops there: losses[divergedAt] is inf/nan (or NaN if that step's backward
   *  overflowed before a loss came back), every later entry NaN. */
  divergedAt: number;
  /** The same for the single device (equal to divergedAt for an exact strategy). */
  singleDivergedAt: number;
  /** LARS, LAMB: per step taken, the single device's trust ratio of each tensor (mlpInit's order: blocks[0].w_in,
   *  blocks[0].w_out, …); [] for the other optimizers. */
  trustRatios: Float64Array[];
  /** Max over steps where both losses are finite of |losses[i] − singleLosses[i]| / |singleLosses[i]|. */
  maxLossRelativeDifference: number;
  /** Final parameters: max over tensors of ‖W − W_single‖_F / ‖W_single‖_F (≈ 1e-16: the same model); NaN if
   *  either run diverged. */
  maxRelativeDifference: number;
  /** B the busiest rank sent in the last step, by kind ("all-reduce", "all-gather", "reduce-scatter", "send"). */
  commBytes: Record<string, number>;
  /** Per rank, in rank order. */
  memoryPerRank: RankMemory[];
}

export interface StepCostRequest {
  strategy: Strategy;
  grid: Grid;
  /** Any size: nothing is allocated per parameter, so real models (1e11 parameters) are priced directly. */
  model: ModelConfig;
  /** Global batch rows B, whole number >= 1, divisible by dp·microBatches. */
  batch: number;
  /** Pipelines: micro-batches m; dp family: accumulation steps; others 1. Default 1. */
  microBatches?: number;
  /** One device's sustained speed, FLOP/s, > 0. */
  flops: number;
  /** s per message, >= 0. */
  alpha: number;
  /** s/B, > 0. */
  beta: number;
  /** s/B reduced, >= 0, default 0. */
  gamma?: number;
  /** Checkpoint at block boundaries: keep x only, recompute H in backward. Default false. */
  recompute?: boolean;
  /** Compute and communication on two streams, each collective issued when its data is ready (a bucket's
   *  gradients, FSDP's one-block-ahead prefetch). Default false: one after the other. */
  overlap?: boolean;
  /** LARS/LAMB: ZeRO-1/2/3, tp and fsdp-tp all-reduce 2 sums of squares per tensor before the update, labelled
   *  "trust-ratio norms" (replicated DP needs none: every rank holds the whole gradient). Default false. */
  layerwiseNorms?: boolean;
  /** B per value, > 0, default 4 (fp32). */
  elementBytes?: number;
  /** Optimizer state values per parameter (0 SGD, 1 momentum, 2 Adam), whole number >= 0, default 2. */
  optimizerStates?: number;
  /** dp-bucketed, zero1, zero2: B per bucket, > 0, default 25 MiB; at most 10000 buckets. */
  bucketBytes?: number;
  /** Collective algorithm (listAlgorithms), default "ring". */
  algorithm?: string;
}

export interface StepSpan {
  rank: number;
  /** "compute", a collective, or for pipelines "forward", "backward", "send". */
  kind: string;
  /** s from the start of the step. */
  start: number;
  end: number;
  /** The stream it runs on; with overlap the two run side by side. */
  stream: "compute" | "comm";
  /** e.g. "block 1 backward", "bucket 0", "micro-batch 3". */
  label?: string;
}

export interface StepCostResult {
  /** s: without overlap compute + Σ comm + bubble; with overlap the end of the last span. */
  total: number;
  /** s per rank. */
  compute: number;
  /** s a pipeline stage idles; 0 otherwise. */
  bubble: number;
  /** s by kind: every collective's full duration, hidden behind compute or not. */
  comm: Record<string, number>;
  spans: StepSpan[];
  memoryPerRank: RankMemory[];
}

export interface DpScalingRequest {
  /** strong: the global batch `batch` is fixed; weak: each device keeps `batch` rows (global P·batch). */
  mode: "strong" | "weak";
  model: ModelConfig;
  /** Rows: the global batch (strong) or rows per device (weak); whole number >= 1. */
  batch: number;
  /** Device counts P, whole numbers >= 1 (strong: batch divisible by P·microBatches), 1 to 64 entries. */
  ranks: number[];
  /** dp, dp-bucketed (default), dp-accumulate, zero1 or zero2. */
  strategy?: Strategy;
  /** Gradient accumulation k, default 1. */
  microBatches?: number;
  /** One device's FLOP/s, > 0. */
  flops: number;
  /** s per message, >= 0. */
  alpha: number;
  /** s per byte, >= 0. */
  beta: number;
  gamma?: number;
  /** Default 4. */
  elementBytes?: number;
  /** Compute and communication streams (default true). */
  overlap?: boolean;
  /** Default 25 MiB. */
  bucketBytes?: number;
}

/** One device count of dpScaling (core/include/dsml/dp_scaling.h). */
export interface ScalingPoint {
  ranks: number;
  /** Rows per step over all devices. */
  globalBatch: number;
  /** s per step (stepCost's total). */
  step: number;
  /** s of compute per device. */
  compute: number;
  /** s of collectives, hidden or not. */
  comm: number;
  /** Rows/s relative to one device: strong T₁/T_P, weak P·T₁/T_P. */
  speedup: number;
  /** P */
  ideal: number;
  /** speedup / ideal */
  efficiency: number;
}

declare module "../dsml" {
  interface DsmlCore {
    /** Trains the strategy (fp64, every rank simulated) beside one device from the same start on the same
     *  batches. @throws if the grid, model, optimizer, batch or micro-batches do not fit the strategy, or the run
     *  is larger than a tab should train (layers·width·hidden <= 1e8, batch·width <= 1e7, steps <= 10000). */
    trainCompare(request: TrainCompareRequest): TrainCompareResult;
    /** One training step priced: compute from FLOPs, every collective by its closed form on the α–β–γ switch,
     *  the pipeline bubble, memory per rank (core/include/dsml/step_cost.h). @throws as trainCompare's shape
     *  checks (no size limit), and on a bad speed, network or bucket size. */
    stepCost(request: StepCostRequest): StepCostResult;
    /** Week 3: speed-up of data parallelism vs P, strong (fixed global batch) or weak (fixed rows per device),
     *  against ideal, each point priced by stepCost (core/include/dsml/dp_scaling.h). @throws on a strategy outside
     *  the dp family/zero1/zero2, a batch the grid cannot split, or stepCost's checks. */
    dpScaling(request: DpScalingRequest): ScalingPoint[];
    /** Rows per device below which DP is communication-bound: (P−1)/P·e/2·C/W with overlap (the all-reduce no
     *  longer hides behind backward; the JAX scaling book's C/W for bf16), (P−1)/P·e/3·C/(k·W) without (it exceeds
     *  the compute). bandwidth W in B/s, flops C in FLOP/s; overlap defaults to true. @throws on ranks < 2. */
    commBoundBatch(request: { flops: number; bandwidth: number; elementBytes?: number; ranks: number;
                              overlap?: boolean; microBatches?: number }): number;
    /** The three DDPs of one step priced alike: naive (dp: one all-reduce per tensor after backward), flat (one
     *  all-reduce of every gradient after backward), bucketed (bucketBytes buckets launched during backward, with
     *  overlap). The request is stepCost's; strategy, overlap (and flat's bucket size) are set per variant.
     *  @throws as stepCost (messages start "stepCost:"). */
    ddpVariants(request: StepCostRequest): { naive: StepCostResult; flat: StepCostResult; bucketed: StepCostResult };
  }
}
