// dsml.d.ts — the JavaScript API of the wasm core (dsml.mjs for browsers, dsml.cjs for Node), as registered in
// core/bindings/bindings.cpp. This file is the contract: tests/wasm/api.test.cjs fails if the module registers a
// function not declared here, declares one the module lacks, or takes another number of arguments.
//
// Conventions for every function:
//   Units        seconds (s), bytes (B), bytes per second (B/s), seconds per byte (s/B), FLOP/s.
//   Values       plain numbers, strings, objects and arrays, or Float64Array copies: nothing points into wasm
//                memory, nothing needs .delete().
//   Errors       bad input throws a JavaScript Error whose name is "DsmlError" and whose message names the
//                function and the field ("trainCompare: grid: dp must be a whole number >= 1, got 0"); the module
//                keeps working afterwards. "Whole number" means an integer-valued JS number.
//   Arrays in    a JS Array of numbers or any typed array, unless a Float64Array is required (it says so).
//   Matrices     Float64Array, row-major: element (i, j) of an (r × c) matrix is at i·c + j.

/** Options for createDsml (Emscripten's module options; web/wasm.js passes a compiled WebAssembly.Module). */
export interface DsmlModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  instantiateWasm?: (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) => object;
  locateFile?: (path: string, prefix: string) => string;
}

/** Instantiates the core. Resolves to the module whose functions are below. */
export default function createDsml(options?: DsmlModuleOptions): Promise<DsmlCore>;

// ---- Week 1: the α–β model and the simulator ----------------------------------------------------------------

/** One step of a simulated rank's program. `tag` (whole number, default 0) matches sends to receives. */
export type ProgramStep =
  | { op: "send"; to: number; bytes: number; tag?: number }
  | { op: "recv"; from: number; tag?: number }
  | { op: "compute"; seconds: number };

/** A scenario for simulate/traceText: `ranks` programs on Week 1's switch (every pair one α–β link). */
export interface Scenario {
  /** Number of ranks, a whole number >= 1; `programs.length` must equal it. */
  ranks: number;
  /** Latency α, s per message, >= 0. */
  alpha: number;
  /** β, s per byte (1 / bandwidth), > 0. */
  beta: number;
  /** γ, s per byte reduced, >= 0 (default 0). */
  gamma?: number;
  /** programs[r] is rank r's list of steps, run in order. */
  programs: ProgramStep[][];
}

/** A stretch of one rank's simulated timeline. */
export interface SimSpan {
  rank: number;
  kind: "compute" | "send" | "wait";
  /** s */
  start: number;
  /** s */
  end: number;
  /** The other rank of a send or wait (-1 for compute). */
  peer: number;
  /** B (0 for compute and wait). */
  bytes: number;
}

/** One message of a simulated run; times in s. */
export interface MessageRecord {
  src: number;
  dst: number;
  tag: number;
  bytes: number;
  posted: number;
  started: number;
  arrived: number;
  received: number;
}

export interface SimResult {
  /** s until the last rank finished. */
  makespan: number;
  /** Bytes of every message. */
  totalBytes: number;
  /** Simulator events processed. */
  events: number;
  /** s, per rank. */
  finishTimes: number[];
  spans: SimSpan[];
  messages: MessageRecord[];
}

/** A run simulated with `record: false`: totals only. */
export interface SimSummary {
  makespan: number;
  events: number;
  totalBytes: number;
}

export type ScenarioName = "ping-pong" | "token-ring" | "linear-broadcast" | "gather-to-root" | "compute-then-exchange";

export interface ScenarioOptions {
  /** Whole number in [1, 1e6], default 2. */
  ranks?: number;
  /** B per message, >= 0, default 0. */
  bytes?: number;
  /** ping-pong round trips, whole number in [1, 1e6], default 1. */
  rounds?: number;
  /** token-ring laps, whole number in [1, 1e6], default 1. */
  laps?: number;
  /** compute-then-exchange: s of compute before the exchange, default 0. */
  computeSeconds?: number;
}

/** α–β fit of measured points. */
export interface AlphaBetaFit {
  /** s */
  alpha: number;
  /** s/B */
  beta: number;
  /** Coefficient of determination of the fit, in [0, 1]. */
  rSquared: number;
  points: number;
}

// ---- Week 2: collectives as schedules -------------------------------------------------------------------------

export type Collective = "broadcast" | "reduce" | "all-reduce" | "all-gather" | "reduce-scatter" | "all-to-all";

export interface ScheduleStep {
  op: "send" | "recv-copy" | "recv-reduce";
  /** The rank sent to or received from. */
  peer: number;
  /** Slot indices the message carries, in order. */
  slots: number[];
}

/** A collective algorithm as data (core/include/dsml/schedule.h): per rank, steps over slots. */
export interface Schedule {
  collective: Collective | string;
  /** Default "custom" when read. */
  algorithm?: string;
  ranks: number;
  /** Default 0. */
  root?: number;
  /** B per slot; sums to the collective's data size. */
  slotBytes: number[];
  /** all-gather, reduce-scatter: the owning rank of each slot; otherwise empty. */
  owner?: number[];
  /** steps[rank], executed in order. */
  steps: ScheduleStep[][];
}

export interface ScheduleOptions {
  /** Whole number >= 0 (the algorithm says which it supports). */
  ranks: number;
  /** The collective's data size, B (see collective_cost.h for what n counts per collective). */
  bytes: number;
  /** broadcast, reduce; default 0. */
  root?: number;
  /** hierarchical all-reduce: devices per node. */
  devicesPerNode?: number;
}

export interface CollectiveCostOptions extends ScheduleOptions {
  /** s */
  alpha: number;
  /** s/B */
  beta: number;
  /** s/B reduced, default 0. */
  gamma?: number;
}

/** A network for the simulator. `ranks` may be left out where the call knows it. */
export type Topology =
  | { kind: "fully-connected" | "ring"; ranks?: number; alpha: number; beta: number }
  | { kind: "torus2d"; rows: number; cols: number; alpha: number; beta: number }
  | { kind: "hierarchical"; nodes: number; perNode: number; intra: { alpha: number; beta: number };
      inter: { alpha: number; beta: number } };

export interface LinkBusy {
  /** e.g. "up 0", "nic up node 0". */
  name: string;
  /** s the link carried data. */
  busy: number;
}

export interface TopologySimResult extends SimResult {
  linkBusy: LinkBusy[];
  /** The busiest link ({name: "none", busy: 0} when no link was used). */
  busiestLink: LinkBusy;
}

/** A message recorded on Workers, replayed through the simulator. Times in s on any common clock. */
export interface TraceMessage {
  src: number;
  dst: number;
  bytes: number;
  sendTime: number;
  /** null or absent when the message was never received. */
  recvTime?: number | null;
}

// ---- Lab: training --------------------------------------------------------------------------------------------

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

export interface BlockInForwardResult {
  /** (rows × Fl) = x·wInᵀ */
  pre: Float64Array;
  /** (rows × Fl) = act(pre) */
  act: Float64Array;
}

export interface BlockOutBackwardResult {
  /** (D × Fl) = dyᵀ·a */
  dWOut: Float64Array;
  /** (rows × Fl) = dy·wOut */
  dA: Float64Array;
}

export interface BlockInBackwardResult {
  /** (Fl × D) = dHᵀ·x, dH = dA ⊙ act'(pre) */
  dWIn: Float64Array;
  /** (rows × D) = dH·wIn (no residual: the caller adds dy) */
  dX: Float64Array;
}

// ---- Week 4: parameter servers, stragglers, staleness, Hogwild! (core/include/dsml/param_server.h …) ----

/** A worker's compute time for iteration c: base · multipliers[w] · X, X of mean 1 (slow-node: 1 + p·(slowdown − 1)).
 *  X is a pure function of (seed, worker, c). */
export interface SpeedModel {
  /** fixed: X = 1; exponential: Exp(1); lognormal: exp(σZ − σ²/2); slow-node: slowdown with probability p. */
  distribution?: "fixed" | "exponential" | "lognormal" | "slow-node";
  /** s, > 0 (1) */
  base?: number;
  /** One per worker, each > 0, e.g. [1, 1, 1, 1, 3, 5]; absent = all 1. */
  multipliers?: ArrayLike<number>;
  /** lognormal σ >= 0 (0.5) */
  sigma?: number;
  /** slow-node p ∈ [0, 1] (0.1) */
  slowProbability?: number;
  /** slow-node factor >= 1 (4) */
  slowdown?: number;
  seed?: number;
}

export type Regime = "bsp" | "asp" | "ssp" | "backup";

/** Workers 0 … W−1 and shards W … W+K−1 on a switch (fully-connected, α on uplinks, β on every link). */
export interface ParamServerRequest {
  regime: Regime;
  workers: number;
  /** K shards, each holding a key range of the parameters (1) */
  servers?: number;
  /** SSP's bound s (0); only ssp reads it */
  staleness?: number;
  /** backup's b: the first workers − b gradients of a round win (0) */
  backup?: number;
  /** backup: a worker still computing when its round ends abandons the work (each round a fresh race, the P-th
   *  of N exactly); otherwise it finishes its useless gradient first, as TensorFlow's SyncReplicas does (false) */
  cancelStragglers?: boolean;
  /** rounds (bsp, backup) or clocks per worker (asp, ssp) */
  iterations: number;
  /** N (1e6); trainParamServer uses the model's size instead */
  parameters?: number;
  /** (4) */
  bytesPerParameter?: number;
  speed?: SpeedModel;
  network: { alpha: number; beta: number };
}

export interface ParamServerRun {
  /** s */
  makespan: number;
  /** What each worker did, sorted by (worker, start); wait = for the replies (barrier, SSP hold, network). */
  spans: { worker: number; kind: "compute" | "push" | "wait"; start: number; end: number; iteration: number }[];
  /** One entry per applied gradient per shard, in the order applied; tau = staleness (0 under bsp/backup). */
  updates: { shard: Float64Array; worker: Float64Array; iteration: Float64Array; time: Float64Array;
             tau: Float64Array };
  /** backup: late gradients dropped (per shard) */
  dropped: number;
  /** When every shard finished round/clock r, and the differences (round times), s. */
  roundEnd: Float64Array;
  roundSeconds: Float64Array;
  /** Per worker, s. */
  computeSeconds: Float64Array;
  waitSeconds: Float64Array;
  /** Σ wait / Σ worker time */
  stallFraction: number;
  messages: number;
  bytesIntoBusiestServer: number;
  /** Per link, s, named by linkNames ("down 6" = shard 0's downlink when W = 6). */
  linkBusy: Float64Array;
  linkNames: string[];
  busiestLink: LinkBusy | null;
}

export interface StaleTrainingCurve {
  /** The servers' model on a held-out batch: first at the start, then after each shard update (1/K of an update). */
  time: Float64Array;
  updates: Float64Array;
  loss: Float64Array;
  finalLoss: number;
}

export interface HogwildRequest {
  threads: number;
  /** fraction of features an example touches, (0, 1] */
  sparsity: number;
  /** (1000) */
  features?: number;
  /** total over all threads, rounded up to whole waves (10000) */
  updates?: number;
  /** (0.5) */
  lr?: number;
  /** per-coordinate atomic adds (true); false = plain read-modify-write, which loses updates */
  atomic?: boolean;
  /** about how many loss points (50) */
  points?: number;
  seed?: number;
}

export interface HogwildResult {
  /** k = max(1, round(sparsity·features)) */
  support: number;
  updates: number;
  collisionRate: number;
  /** 1 − q^(T−1), q = C(n−k, k)/C(n, k) */
  predictedCollisionRate: number;
  lostWrites: number;
  lossUpdates: Float64Array;
  loss: Float64Array;
  finalLoss: number;
}

// ---- Week 5: pipelines beyond 1F1B (core/include/dsml/chunk_schedule.h) ---------------------------------------

/** One compute op on the simulated timeline: F forward, BW a full backward, B its input-gradient half, W its
 *  weight-gradient half; chunk c is on device c mod P. Times in the request's unit (seconds by default). */
export interface PipelineSpan {
  device: number;
  kind: "F" | "BW" | "B" | "W";
  microBatch: number;
  chunk: number;
  start: number;
  end: number;
}

/** What a schedule's timeline measures. */
export interface PipelineTimingResult {
  makespan: number;
  /** One device's work without idling: v·m·(forward + backwardInput + backwardWeight). */
  ideal: number;
  /** Σ idle / (P·makespan): the share of the step the devices wait. */
  bubbleFraction: number;
  /** (makespan − ideal)/ideal: (P−1)/m for 1F1B, (P−1)/(v·m) interleaved, (P−1)/(3m) ZB-H1 with unit times. */
  bubbleOverIdeal: number;
  busy: number[];
  idle: number[];
}

/** Times per micro-batch: per chunk for pipelineTimeline, per stage for pipelineCompare. Default 1 each
 *  (p2p 0). A full backward takes backwardInput + backwardWeight. */
export interface PipelineTimes {
  forward?: number;
  backwardInput?: number;
  backwardWeight?: number;
  p2p?: number;
}

/** A mixture-of-experts layer (core/include/dsml/moe.h): E experts, each one MLP block (width D, hidden F). */
export interface MoeConfig {
  width: number;
  hidden: number;
  experts: number;
  /** 1 (Switch: gate = the probability) or 2 (GShard: the two gates renormalised to sum to 1). */
  topK: 1 | 2;
  /** Capacity per expert and rank: ⌈capacityFactor·topK·tokens/E⌉; assignments beyond it are dropped (zero
   *  expert output; a token with every choice dropped passes through the residual). */
  capacityFactor: number;
  activation?: "relu" | "gelu" | "tanh";
}

/** The lab's MoE blocks: E experts, top-k, capacity factor, and which blocks (every `every`-th, default 2). */
export interface LabMoe {
  experts: number;
  topK: 1 | 2;
  capacityFactor: number;
  every?: number;
}

/** One (t, p, d) factorisation priced by price3dLayouts (core/include/dsml/parallel_design.h). Bytes per GPU,
 *  seconds per step; nothing overlapped. */
export interface LayoutRow {
  t: number; p: number; d: number; microBatches: number;
  modelStateBytes: number; modelStateZero1Bytes: number; activationBytes: number;
  memoryBytes: number; memoryZero1Bytes: number;
  compute: number; bubble: number; tensor: number; pipeline: number; data: number; step: number;
  fits: boolean; fitsZero1: boolean;
}

export interface DsmlCore {
  /** The core's version, "major.minor.patch". */
  version(): string;

  /** T(n) = α + β·n, s. @throws unless α >= 0, β > 0, bytes >= 0 (all finite). */
  messageTime(alpha: number, beta: number, bytes: number): number;
  /** n* = α/β, B: the size at which latency and bandwidth cost the same. @throws as messageTime. */
  crossoverSize(alpha: number, beta: number): number;
  /** n / T(n), B/s. @throws as messageTime, and unless bytes > 0. */
  effectiveBandwidth(alpha: number, beta: number, bytes: number): number;
  /** count · T(n), s. @throws as messageTime, and unless count >= 0. */
  messagesTime(alpha: number, beta: number, count: number, bytes: number): number;

  /** Amdahl: 1 / (s + (1 − s)/N). @throws unless s ∈ [0, 1] and N >= 1. */
  amdahlSpeedup(serialFraction: number, processors: number): number;
  /** Gustafson: N − s·(N − 1). @throws as amdahlSpeedup. */
  gustafsonSpeedup(serialFraction: number, processors: number): number;
  /** 1/s (Infinity when s = 0). @throws unless s ∈ [0, 1]. */
  amdahlLimit(serialFraction: number): number;
  /** The s that gives `speedup` on N processors: (N/S − 1)/(N − 1). @throws unless N > 1 and 1 <= S <= N. */
  amdahlSerialFraction(speedup: number, processors: number): number;

  /** C + M − φ·min(C, M), s. @throws unless compute, communication >= 0 and overlap φ ∈ [0, 1]. */
  stepTime(computeSeconds: number, communicationSeconds: number, overlap: number): number;
  /** 1 − (1 − q)^N. @throws unless q ∈ [0, 1] and workers >= 1. */
  probabilityAnySlow(q: number, workers: number): number;

  /** Least-squares α, β of seconds ≈ α + β·bytes. @throws unless both arrays have the same length >= 2, finite
   *  values >= 0, and at least two different sizes. */
  fitAlphaBeta(bytes: ArrayLike<number>, seconds: ArrayLike<number>): AlphaBetaFit;

  /** Runs the programs on Week 1's switch. @throws on a malformed scenario, a peer out of range, or a deadlock
   *  ("deadlock: rank 0 waits for rank 1, rank 1 waits for rank 0"). */
  simulate(scenario: Scenario): SimResult;
  /** The same run as a timestamped event log, one event per line (the golden-trace format). @throws as
   *  simulate. */
  traceText(scenario: Scenario): string;
  /** The programs of a named scenario, ready for simulate. @throws on an unknown name or bad options. */
  scenario(name: ScenarioName, options: ScenarioOptions): ProgramStep[][];
  /** A named scenario built and simulated inside the core (nothing crosses the boundary but the result).
   *  `record: false` returns totals only (benchmarks, very large runs). @throws as scenario and simulate. */
  simulateScenario(name: ScenarioName, options: ScenarioOptions & { alpha: number; beta: number; record?: boolean }):
      SimResult | SimSummary;

  /** Every (collective, algorithm) the core can build. */
  listAlgorithms(): { collective: Collective; algorithm: string }[];
  /** The schedule of an algorithm. @throws on an unknown collective or algorithm, or sizes it does not support
   *  (the message names the requirement). */
  schedule(collective: Collective, algorithm: string, options: ScheduleOptions): Schedule;
  /** Runs the schedule on buffers: ok when every rank ends with what the collective promises; otherwise
   *  `message` names the first rank and slot that is wrong. @throws only on a malformed object. */
  verifySchedule(schedule: Schedule): { ok: boolean; message: string };
  /** Closed-form α–β–γ time, s (Thakur, Rabenseifner & Gropp 2005). @throws as schedule. */
  collectiveCost(collective: Collective, algorithm: string, options: CollectiveCostOptions): number;
  /** The lower bound of the collective, s (Chan et al. 2007). @throws on an unknown collective or bad sizes. */
  lowerBound(collective: Collective, options: Omit<CollectiveCostOptions, "root" | "devicesPerNode">): number;
  /** NCCL's algorithm bandwidth bytes/seconds and bus bandwidth (× the collective's factor), B/s.
   *  @throws unless ranks is a whole number >= 1, bytes >= 0 and seconds > 0. */
  busBandwidth(collective: Collective, ranks: number, bytes: number, seconds: number): { algbw: number; busbw: number };
  /** The schedule simulated on a topology with link contention. `record: false` returns totals and the busiest
   *  link only (1024 ranks and more). @throws as schedule, or if the topology's ranks differ from `ranks`. */
  simulateCollective(request: ScheduleOptions & { collective: Collective; algorithm: string; gamma?: number;
                                                  topology: Topology; record?: boolean }):
      TopologySimResult | (SimSummary & { busiestLink: LinkBusy });
  /** Messages recorded on Workers replayed on a topology. @throws on a rank out of range or a malformed
   *  record. */
  simulateTrace(request: { ranks: number; topology: Topology; gamma?: number; trace: TraceMessage[] }):
      TopologySimResult;

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

  /** A block's first product on a rank's slice: x (rows × D), wIn (Fl × D), Fl = wIn.length / D.
   *  @throws on lengths that do not fit rows, width, or an unknown activation. */
  blockInForward(x: Float64Array, wIn: Float64Array, rows: number, width: number,
                 activation: "relu" | "gelu" | "tanh"): BlockInForwardResult;
  /** (rows × D) = a·wOutᵀ for a (rows × Fl), wOut (D × Fl) (no residual: the caller adds x). @throws as
   *  blockInForward. */
  blockOutForward(a: Float64Array, wOut: Float64Array, rows: number, width: number): Float64Array;
  /** Gradients of blockOutForward given dy (rows × D). @throws as blockInForward. */
  blockOutBackward(dy: Float64Array, a: Float64Array, wOut: Float64Array, rows: number,
                   width: number): BlockOutBackwardResult;
  /** Gradients of blockInForward given dA (rows × Fl), the kept pre (rows × Fl) and x. @throws as
   *  blockInForward. */
  blockInBackward(dA: Float64Array, pre: Float64Array, x: Float64Array, wIn: Float64Array, rows: number,
                  width: number, activation: "relu" | "gelu" | "tanh"): BlockInBackwardResult;
  /** blockOutBackward writing into the caller's arrays dWOut (D × Fl) and dA (rows × Fl), which it reuses step
   *  after step (allocating a buffer costs a Web Worker more than the kernel). @throws as blockInForward, or
   *  when an output is not a Float64Array of its shape's length. */
  blockOutBackwardInto(dy: Float64Array, a: Float64Array, wOut: Float64Array, rows: number, width: number,
                       dWOut: Float64Array, dA: Float64Array): void;
  /** blockInBackward writing into dWIn (Fl × D) and dX (rows × D). @throws as blockOutBackwardInto. */
  blockInBackwardInto(dA: Float64Array, pre: Float64Array, x: Float64Array, wIn: Float64Array, rows: number,
                      width: number, activation: "relu" | "gelu" | "tanh", dWIn: Float64Array, dX: Float64Array): void;
  /** B of a zero-bubble pipeline (Qi et al. 2024): the input-gradient half of blockOutBackward + blockInBackward
   *  given dy (rows × D), the kept pre (rows × Fl), wIn (Fl × D) and wOut (D × Fl): dH (rows × Fl) =
   *  (dy·wOut) ⊙ act'(pre), kept for W, and dX (rows × D) = dH·wIn (no residual: the caller adds dy) — bit for bit
   *  the full backward's dX. @throws as blockInForward. */
  blockBackwardInput(dy: Float64Array, pre: Float64Array, wIn: Float64Array, wOut: Float64Array, rows: number,
                     width: number, activation: "relu" | "gelu" | "tanh"): { dH: Float64Array; dX: Float64Array };
  /** W, the weight-gradient half, from B's dy and dH and the forward's act (rows × Fl) and x (rows × D):
   *  dWOut (D × Fl) = dyᵀ·act, dWIn (Fl × D) = dHᵀ·x — bit for bit the full backward's. @throws as
   *  blockInForward. */
  blockBackwardWeight(dy: Float64Array, act: Float64Array, dH: Float64Array, x: Float64Array, rows: number,
                      width: number): { dWOut: Float64Array; dWIn: Float64Array };
  /** act(pre), elementwise. @throws on an unknown activation. */
  activate(pre: Float64Array, activation: "relu" | "gelu" | "tanh"): Float64Array;
  /** loss = Σ(y − t)²/n and grad = 2(y − t)/n, n = y.length. @throws on different lengths or an empty y. */
  mseLoss(y: Float64Array, t: Float64Array): { loss: number; grad: Float64Array };
  /** The initial parameters [w_in0 (F × D), w_out0 (D × F), w_in1, …] of init_mlp(model, seed).
   *  @throws on a bad model or one larger than layers·width·hidden = 1e8. */
  mlpInit(request: ModelConfig & { seed?: number }): Float64Array[];
  /** Step `step`'s batch of the teacher task: inputs and targets (batch × D). @throws on a bad model or
   *  batch. */
  teacherBatch(request: { model: ModelConfig; seed?: number; step?: number; batch: number }):
      { inputs: Float64Array; targets: Float64Array };
  /** One optimizer update of a tensor or any shard of one, at 1-based step t (the rate warmed up as the
   *  Optimizer would): the update each ZeRO rank applies to its shard. m and v may be empty (zeros); state a
   *  kind does not use comes back as given. @throws for LARS and LAMB (they need whole-tensor norms), t < 1, or
   *  lengths that differ from w's. */
  optimizerStep(optimizer: OptimizerConfig, t: number, w: Float64Array, g: Float64Array, m: Float64Array,
                v: Float64Array): { w: Float64Array; m: Float64Array; v: Float64Array };
  /** optimizerStep written into w and into the state the kind uses (m unless SGD, v for Adam), which must have
   *  w's length (zeros before the first step); unused state is left alone. @throws as optimizerStep, or on
   *  state of another length. */
  optimizerStepInPlace(optimizer: OptimizerConfig, t: number, w: Float64Array, g: Float64Array, m: Float64Array,
                       v: Float64Array): void;
  /** trainCompare's single-device reference alone: the losses and final parameters (mlpInit's order).
   *  @throws as trainCompare. */
  trainSingle(request: { model: ModelConfig; optimizer: OptimizerConfig; batch: number; steps: number;
                         seed?: number }): { losses: Float64Array; params: Float64Array[] };
  /** The lab's MoE stack (core/include/dsml/moe_mlp.h): every `every`-th block (default 2) an MoE layer of
   *  `experts` experts of the model's width and hidden width. Its initial tensors, per block: dense W_in, W_out;
   *  MoE router (E × D), then each expert's W_in, W_out. @throws on a bad model or MoE config. */
  moeMlpInit(request: { model: ModelConfig; moe: LabMoe; seed?: number }): Float64Array[];
  /** trainSingle with the MoE stack (teacher as trainSingle's, student moeMlpInit(seed + 1)), the capacity cut per
   *  group of batch/groups consecutive rows (the lab's dp·m): losses, final tensors (moeMlpInit's order) and the
   *  last step's load per MoE block. @throws as moeMlpInit, or unless groups divides batch. */
  trainSingleMoe(request: { model: ModelConfig; moe: LabMoe; groups: number; optimizer: OptimizerConfig;
                            batch: number; steps: number; seed?: number }):
      { losses: Float64Array; params: Float64Array[];
        load: Array<{ block: number; wanted: number[]; kept: number[]; dropped: number }> };
  /** One token group's routing (moe_route): softmax of x·routerᵀ, top-k, capacity ⌈c·k·rows/E⌉. expert, gate and
   *  slot hold rows·topK values, token-major; slot −1 = dropped. @throws on shapes or a bad topK/capacity. */
  moeRoute(x: Float64Array, router: Float64Array, rows: number, width: number, topK: number, capacityFactor: number):
      { probs: Float64Array; expert: Float64Array; gate: Float64Array; slot: Float64Array; capacity: number };
  /** ∂loss/∂logits (rows × E) from the gate gradients dGate (rows·topK), through top-k gating and the softmax.
   *  @throws on shapes or an expert index out of range. */
  moeRouterBackward(probs: Float64Array, expert: Float64Array, dGate: Float64Array, rows: number, topK: number):
      Float64Array;

  /** Compute times t(w, c) = base·m_w·X(w, c), one Float64Array of `iterations` per worker. @throws on a bad
   *  model, multipliers whose count differs from workers, or workers·iterations > 4e6. */
  speedTimes(speed: SpeedModel, workers: number, iterations: number): Float64Array[];
  /** A parameter server simulated under a consistency regime (param_server.h). @throws on a bad field, backup
   *  b >= workers, more servers than parameters, or workers·servers·iterations > 2e6. */
  simulateParamServer(request: ParamServerRequest): ParamServerRun;
  /** The same run, then the teacher task trained with the gradients as the run made them stale
   *  (θ ← θ − η∇L(θ_{t−τ}); bsp/backup average a round). Reproducible by seed (the student starts from
   *  init_mlp(model, seed + 1)). @throws as simulateParamServer, on a bad model, or
   *  workers·iterations·batch·parameters > 2e10. */
  trainParamServer(request: Omit<ParamServerRequest, "parameters"> & { model: ModelConfig; batch?: number;
                   lr?: number; stalenessAware?: boolean; evalBatch?: number; seed?: number }):
      { run: ParamServerRun; training: StaleTrainingCurve };
  /** Hogwild! on sparse least squares: lockstep waves of T threads (hogwild.h). @throws on a bad field. */
  hogwild(request: HogwildRequest): HogwildResult;
  /** H_n = 1 + 1/2 + … + 1/n (H_0 = 0). @throws unless n is a whole number >= 0. */
  harmonicNumber(n: number): number;
  /** E[max of P iid Exp(mean)] = mean·H_P. @throws unless workers >= 1 and mean > 0. */
  expectedMaxExponential(workers: number, mean: number): number;
  /** E[P-th smallest of N iid Exp(mean)] = mean·(H_N − H_{N−P}): a round with N − P backup workers.
   *  @throws unless 1 <= quota <= workers and mean > 0. */
  expectedOrderStatisticExponential(quota: number, workers: number, mean: number): number;
  /** E[P-th smallest of the workers' compute times] under any speed model (exact for fixed and slow-node,
   *  Simpson otherwise); quota = workers is the straggler barrier. @throws as speedTimes, or a bad quota. */
  expectedRoundCompute(speed: SpeedModel, workers: number, quota: number): number;
  /** SSP's waiting with fixed speeds and a free network: finish_w = max(I·t_w, (I−s)⁺·t_max).
   *  @throws unless the speed model is fixed. */
  sspStallFixedSpeeds(speed: SpeedModel, workers: number, iterations: number, staleness: number):
      { waitSeconds: Float64Array; finishSeconds: Float64Array; stallFraction: number };
  /** One round of pushes on a switch: bytes into a shard W·S/K, its downlink W·(α + β·S/K) s, a worker's uplink
   *  K·α + β·S s. @throws on a bad network or sizes. */
  psBandwidth(network: { alpha: number; beta: number }, workers: number, servers: number, parameterBytes: number):
      { serverBytes: number; serverSeconds: number; workerSeconds: number; serversBottleneck: boolean };
  /** The fewest shards K with the servers no longer the bottleneck (K = W on a switch). @throws as psBandwidth. */
  psServersToBalance(network: { alpha: number; beta: number }, workers: number, parameterBytes: number): number;
  /** 1 − q^(T−1), q = C(n−k, k)/C(n, k). @throws unless 1 <= support <= features. */
  hogwildCollisionProbability(threads: number, features: number, support: number): number;
  /** Week 5: one pipeline schedule generated, checked and timed: the timeline per device (for drawing), the
   *  bubble, peak chunk activations per device, point-to-point messages per step. interleaved needs
   *  chunksPerDevice >= 1 and microBatches a multiple of devices; the others chunksPerDevice = 1.
   *  @throws on an unknown schedule, those rules, or bad times. */
  pipelineTimeline(request: PipelineTimes & { schedule: "gpipe" | "1f1b" | "interleaved" | "zb-h1";
                   devices: number; microBatches: number; chunksPerDevice?: number }):
      PipelineTimingResult & { name: string; devices: number; chunksPerDevice: number; microBatches: number;
                               peakActivations: number[]; messages: number; timeline: PipelineSpan[] };
  /** The schedule executed on the MLP (layers cut into devices·chunksPerDevice chunks, chunk c on device
   *  c mod P; ZB-H1 runs the backward as separate B and W kernels) for `steps` steps of the teacher task beside
   *  one device from the same start: losses, and the final parameters' distance (~1e-16).
   *  @throws as pipelineTimeline, if layers is not divisible by devices·chunksPerDevice, microBatches > batch,
   *  or the run is larger than trainCompare allows. */
  pipelineTrain(request: { schedule: "gpipe" | "1f1b" | "interleaved" | "zb-h1"; devices: number;
                           microBatches: number; chunksPerDevice?: number; model: ModelConfig;
                           optimizer: OptimizerConfig; batch: number; steps: number; seed?: number }):
      { losses: Float64Array; singleLosses: Float64Array; maxRelativeDifference: number; peakInFlight: number[];
        messages: number; bytesPerStep: number };
  /** GPipe, 1F1B, interleaved (v = chunksPerDevice >= 2) and ZB-H1 at the same (P, m), each with the same
   *  per-stage times, measured beside each paper's bubble formula. peakStageActivations is in micro-batches of
   *  a whole stage. @throws as pipelineTimeline. */
  pipelineCompare(request: PipelineTimes & { devices: number; microBatches: number; chunksPerDevice: number }):
      Array<PipelineTimingResult & { name: string; chunksPerDevice: number; formulaOverIdeal: number;
                                     peakActivations: number[]; peakStageActivations: number; messages: number }>;
  /** Week 5: the MoE layer run across `ranks` expert-parallel ranks (all-to-all dispatch and combine) beside the
   *  single-device layer with one token group per rank, on one teacher-task batch: load per expert (kept and
   *  wanted), dropped assignments, and how far outputs and gradients are from the reference (~1e-16).
   *  @throws unless ranks divides experts and batch, or on a bad MoE config. */
  expertParallel(request: { moe: MoeConfig; ranks: number; batch: number; seed?: number }):
      { load: number[]; wanted: number[]; dropped: number; unroutedTokens: number; capacity: number; loss: number;
        outputRelativeDifference: number; gradientRelativeDifference: number;
        commBytes: Record<string, number>; allToAllBytesPerRank: number };
  /** One expert-parallel all-to-all (n = E·C·D·elementBytes sent per rank, elementBytes default 2) in closed
   *  form on the α–β link and simulated on the topology (whose rank count is R). @throws as expertParallel, or
   *  on a bad topology. */
  priceExpertAllToAll(request: { moe: MoeConfig; tokensPerRank: number; elementBytes?: number; alpha: number;
                                 beta: number; topology: Topology }):
      { capacity: number; bytesPerRank: number; closedForm: number; simulated: number };
  /** Week 5: T(m) = (m + P − 1)(compute/m + overhead) for m = 1 … max, its closed-form optimum
   *  √((P − 1)·compute/overhead) and the searched best whole m. @throws on stages < 1, compute <= 0,
   *  overhead < 0 or max < 1. */
  optimalMicroBatches(request: { stages: number; compute: number; overhead: number; max: number }):
      { closedForm: number; best: number; bestStep: number; steps: number[] };
  /** One transformer layer's activations with and without full recomputation (Korthikanti et al.), and the
   *  compute factor 4/3. @throws on sizes <= 0. */
  recomputationTradeoff(request: { sequence: number; microBatch: number; hidden: number; heads: number;
                                   tensorParallel?: number; sequenceParallel?: boolean }):
      { keptBytes: number; recomputedBytes: number; savedFraction: number; computeFactor: number };
  /** Every (t, p, d) with t·p·d = nodes·gpusPerNode (t | heads, p | layers, d·microBatch | globalBatch) priced:
   *  memory per GPU with and without ZeRO-1, communication per axis, step time, fits in memoryBytes (80e9).
   *  Defaults: globalBatch 512, microBatch 1, flopsPerGpu 156e12, intra {1e-6, 1/300e9}, inter {5e-6, 1/25e9},
   *  sequenceParallel true. @throws on an unknown model or a bad field. */
  price3dLayouts(request: { model: "gpt3-6.7b" | "opt-30b" | "gpt3-175b"; nodes: number; gpusPerNode: number;
                            globalBatch?: number; microBatch?: number; flopsPerGpu?: number;
                            intra?: { alpha: number; beta: number }; inter?: { alpha: number; beta: number };
                            memoryBytes?: number; sequenceParallel?: boolean; fullRecomputation?: boolean }):
      { parameters: number; rows: LayoutRow[] };
  // Week 6: gradient compression and checkpointing (types at the end of this file)
  /** One worker's tensor through one compressor: the decompressed values and its bytes on the wire (compression.h).
   *  PowerSGD treats values as the row-major (rows × cols) matrix, one step from a seeded Q. @throws on a bad field. */
  compressGradient(request: CompressGradientRequest): { values: Float64Array; bytes: number };
  /** The collectives a compressed data-parallel step launches and what one worker sends (ring algorithms);
   *  with network, their closed-form time. @throws on a bad field. */
  compressionWire(request: CompressionWireRequest): CompressionWire;
  /** Data-parallel SGD on the teacher task with each worker's gradient compressed (± error feedback): the held-out
   *  loss and the cumulative bytes one worker sent, before and after every step. @throws on a bad field. */
  trainCompressed(request: TrainCompressedRequest): TrainCompressedResult;
  /** min(n/s², √n/s): QSGD's bound on E‖Q(v) − v‖²/‖v‖². @throws unless n, s are whole numbers >= 1. */
  qsgdVarianceBound(n: number, levels: number): number;
  /** Young's √(2δM) and Daly's higher-order τ* (Daly 2006), s. @throws unless both are > 0. */
  checkpointIntervals(checkpoint: number, mtbf: number): { young: number; daly: number };
  /** δ/τ + τ/(2M), the first-order fraction of time lost. @throws on a bad argument. */
  firstOrderOverhead(interval: number, checkpoint: number, mtbf: number): number;
  /** Daly's complete model with detection D: (W/τ)·(M + D)·e^{R/M}·(e^{(τ+δ)/M} − 1), s. @throws on a bad field. */
  expectedWallTime(request: { work: number; interval: number; checkpoint: number; mtbf: number; restart?: number;
                              detection?: number }): number;
  /** The interval minimising expectedWallTime (golden-section search), s. @throws on a bad field. */
  optimalInterval(request: { work: number; checkpoint: number; mtbf: number; restart?: number;
                             detection?: number }): number;
  /** node MTBF / nodes. @throws unless nodeMtbf > 0 and nodes is a whole number >= 1. */
  fleetMtbf(nodeMtbf: number, nodes: number): number;
  /** Runs of a checkpointed job under Poisson node failures with rollback, heartbeat detection and restart.
   *  @throws on a bad field or a run too long for a tab. */
  simulateCheckpointing(request: CheckpointRunRequest): CheckpointStudy;
  /** Data parallelism whose world changes at the given steps (global batch kept; ZeRO-1 optimizer state re-sharded
   *  unless replicated), beside one device on the same batches. @throws if a world size does not divide the batch,
   *  on LARS/LAMB, or on a bad field. */
  trainElastic(request: TrainElasticRequest): TrainElasticResult;
  /** Week 6's capstone: one data-parallel job simulated end to end (core/include/dsml/simulated_job.h) — the step
   *  priced by stepCost's compute and compressionWire's calls, slow-node stragglers (the synchronous step waits for
   *  the slowest), one simulateCheckpointing run over the failure-free time, the teacher task trained by
   *  trainCompressed on the same workers. The wall split sums to wall. @throws on a bad field, workers·steps > 4e6,
   *  or a training run larger than a tab allows. */
  simulateJob(request: JobRequest): JobRunResult;
  /** The same job's efficiency against P in expectation (E[slowest worker], Daly's expected wall time); the request's
   *  workers is replaced by each entry (1 … 1024, 1 to 64 entries). @throws as simulateJob's checks. */
  jobScaling(request: JobRequest, workers: number[]): JobScalingPoint[];

  // --- seed-core (issue 26) ---
  /** Week 2: a pipelined broadcast ("pipelined-chain" or "pipelined-tree") of k segments, three ways at once —
   *  verified on buffers, simulated on the single-port switch, and its closed form T(k) = (a·k + c)(α + nβ/k)
   *  (core/include/dsml/pipelined_broadcast.h). segments 0 or absent means p. @throws on a bad field or
   *  segments·ranks > 2^22. */
  pipelinedBroadcast(request: PipelinedBroadcastRequest): PipelinedBroadcastResult;
  /** The whole k ≥ 1 with the least T(k): the better of ⌊k*⌋ and ⌈k*⌉, k* = √(c·nβ/(a·α)) (chain: √((p − 2)nβ/α)). */
  bestSegments(algorithm: "pipelined-chain" | "pipelined-tree", options: { ranks: number; bytes: number; alpha: number; beta: number }): BestSegments;
  /** Week 5: the MLP with MoE blocks trained on one device (as trainSingleMoe) with Switch Transformer's
   *  load-balancing loss α·E·Σ f_i·P_i in every MoE block (moe.balance = α; 0 = none), per step: the MSE, the
   *  balance loss and the assignments dropped. @throws on a bad field or a run too large for a tab. */
  trainMoeBalanced(request: TrainMoeBalancedRequest): TrainMoeBalancedResult;
  /** α·E·Σ_i f_i·P_i for one token group: f the share of first choices per expert, P the mean router probability
   *  per expert (each summing to 1). @throws on α < 0, mismatched sizes, or shares outside [0, 1]. */
  moeBalanceLoss(alpha: number, f: ArrayLike<number>, P: ArrayLike<number>): number;
}

// ---- Week 6: gradient compression and checkpointing ----------------------------------------------------------

export type CompressorName = "none" | "top-k" | "random-k" | "int8" | "qsgd" | "sign" | "powersgd";
/** ratio: fraction k/n kept by top-k and random-k (default 0.01); levels: QSGD's s (16); rank: PowerSGD's r (1). */
export interface CompressorOptions { compressor: CompressorName; ratio?: number; levels?: number; rank?: number }
export interface CompressGradientRequest extends CompressorOptions {
  values: number[] | Float64Array; seed?: number; rows?: number; cols?: number;
}
export interface CompressionWireRequest extends CompressorOptions {
  model: ModelConfig; workers: number; network?: { alpha: number; beta: number; gamma?: number };
}
export interface CompressionWire {
  collectives: { collective: "all-reduce" | "all-gather"; bytes: number }[];
  payloadBytes: number; bytesPerStep: number; uncompressedBytesPerStep: number; composesWithAllReduce: boolean;
  commSeconds?: number; uncompressedCommSeconds?: number;
}
export interface TrainCompressedRequest extends CompressorOptions {
  model: ModelConfig; workers: number; errorFeedback?: boolean; batch?: number; steps?: number; lr?: number;
  seed?: number; evalBatch?: number;
}
export interface TrainCompressedResult {
  losses: Float64Array; cumulativeBytes: Float64Array; bytesPerStep: number; uncompressedBytesPerStep: number;
  payloadBytes: number; collectives: { collective: "all-reduce" | "all-gather"; bytes: number }[];
  finalErrorNorm: number;
}
export interface CheckpointRunRequest {
  work: number; interval: number; checkpoint: number; nodeMtbf: number; restart?: number; nodes?: number;
  heartbeatPeriod?: number; heartbeatTimeout?: number; runs?: number; seed?: number;
}
export interface CheckpointStudy {
  meanWall: number; ci95: number; meanFailures: number; lostWorkPerFailure: number; meanTimeBetweenFailures: number;
  expectedWall: number; wall: Float64Array; failures: Float64Array;
}
export interface TrainElasticRequest {
  model: ModelConfig; optimizer?: OptimizerConfig; batch: number; steps: number; seed?: number; workers: number;
  changes?: { step: number; workers: number }[]; replicated?: boolean; algorithm?: string;
}
export interface TrainElasticResult {
  workers: Float64Array; losses: Float64Array; singleLosses: Float64Array; maxRelativeDifference: number;
  stepBytes: Float64Array;
  resizes: { step: number; from: number; to: number; optimizerBytesMoved: number; parameterBytesToJoiners: number }[];
}

// ---- Week 6: the capstone -------------------------------------------------------------------------------------

/** Defaults: the lab's A100-class preset (150 TFLOP/s, InfiniBand α = 10 µs, 25 GB/s), a priced MLP of
 *  L 32, D 4096, F 16384 (4.3 B parameters) at 4096 rows per worker, bf16 (2 B) on the wire. */
export interface JobRequest extends CompressorOptions {
  /** P, whole number 1 … 1024. */
  workers: number;
  /** Whole number 1 … 10000. */
  steps: number;
  /** The priced model (never allocated). */
  model?: ModelConfig;
  rowsPerWorker?: number;
  /** FLOP/s of one device. */
  flops?: number;
  network?: { alpha: number; beta: number; gamma?: number };
  elementBytes?: number;
  /** Default true. */
  errorFeedback?: boolean;
  /** p ∈ [0, 1] per worker per step (default 0); slowdown >= 1 (default 2). */
  stragglerProbability?: number;
  slowdown?: number;
  /** Default true. */
  failures?: boolean;
  /** s, default 2 days; the fleet's MTBF is nodeMtbf / workers. */
  nodeMtbf?: number;
  /** Δ, steps between checkpoints (default 200); checkpointSeconds C (20), restartSeconds R (300),
   *  detectionSeconds D (30). */
  checkpointEvery?: number;
  checkpointSeconds?: number;
  restartSeconds?: number;
  detectionSeconds?: number;
  /** The teacher task the loss is measured on (default L 2, D 8, F 32), taskRows rows per worker (4). */
  task?: ModelConfig;
  taskRows?: number;
  lr?: number;
  evalBatch?: number;
  /** The teacher's seed (default 3), apart from seed (stragglers and failures). */
  taskSeed?: number;
  /** false: no training, losses is empty (default true). */
  train?: boolean;
  seed?: number;
}
/** Seconds; compute + communication + stragglerWait + checkpoints + lostWork + restarts = wall. */
export interface WallSplit {
  compute: number; communication: number; stragglerWait: number; checkpoints: number; lostWork: number;
  restarts: number;
}
export interface JobRunResult {
  /** Held-out loss of the teacher task before step 1, then after every step (steps + 1 values; empty if !train). */
  losses: Float64Array;
  /** s per step: compute (no straggler) and communication. */
  stepCompute: number; stepComm: number;
  /** Failure-free time without checkpoints Σ step, and the wall time, s. */
  work: number; wall: number;
  split: WallSplit;
  failures: number; checkpoints: number; slowSteps: number;
  /** τ = Δ·work/steps, s; the fleet MTBF, s; Daly's expected wall time at (work, τ), s. */
  interval: number; fleetMtbf: number; expectedWall: number;
  /** steps·stepCompute / wall. */
  efficiency: number;
  /** One worker, bytes sent (ring algorithms, the priced model). */
  bytesPerStep: number; uncompressedBytesPerStep: number; bytesPerWorker: number; composesWithAllReduce: boolean;
  /** The closed forms' intervals in steps of the mean step; expected wall time at the optimal one, s. */
  youngSteps: number; dalySteps: number; optimalSteps: number; expectedWallAtOptimal: number;
}
export interface JobScalingPoint {
  workers: number; stepCompute: number; stepComm: number;
  /** E[slowest worker's compute] − stepCompute, s per step. */
  stragglerWait: number;
  expectedWall: number; efficiency: number; failureFreeEfficiency: number;
}


// ---- seed-core (issue 26): Week 2's pipelined broadcasts ------------------------------------------------------
export interface PipelinedBroadcastRequest {
  algorithm: "pipelined-chain" | "pipelined-tree";
  ranks: number;
  /** The message, B (a multiple of 4: float32 elements). */
  bytes: number;
  /** k; 0 or absent: p. */
  segments?: number;
  root?: number;
  /** s per message; s per byte. */
  alpha: number; beta: number;
}
export interface BestSegments {
  /** The best whole k, the real-valued optimum k* (Infinity when α = 0), and T(k) in s. */
  segments: number; optimum: number; seconds: number;
}
export interface PipelinedBroadcastResult {
  /** k as run; T(k) = (perSegment·k + startup)(α + nβ/k). */
  segments: number; perSegment: number; startup: number;
  /** The closed form's α and β terms and their sum, s. */
  closedForm: { latency: number; bandwidth: number; total: number };
  /** The simulator's makespan, s, and its messages (k·(p − 1)). */
  simulated: number; messages: number;
  /** Every rank ended with the root's segments (checked with one element per segment). */
  verified: boolean; verifyMessage: string;
  best: BestSegments;
}
// ---- seed-core (issue 26): Week 5's load-balancing loss ----------------------------------------------------------
export interface TrainMoeBalancedRequest {
  model: ModelConfig;
  /** LabMoe's fields, and balance: Switch's α (0.01 in the paper; 0 = none). */
  moe: LabMoe & { balance: number };
  /** Token groups for the capacity cut (default 1). */
  groups?: number;
  optimizer: OptimizerConfig;
  batch: number; steps: number; seed?: number;
}
export interface TrainMoeBalancedResult {
  /** Per step, before its update: the MSE, and the sum of the MoE blocks' balance losses. */
  losses: Float64Array; balanceLosses: Float64Array;
  /** Per step: assignments dropped over all MoE blocks, out of `assignments` (batch·k·MoE blocks). */
  dropped: number[]; assignments: number;
  /** The last step, per MoE block. */
  load: { block: number; wanted: number[]; kept: number[]; dropped: number }[];
}
