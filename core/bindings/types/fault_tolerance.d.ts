// types/fault_tolerance.d.ts — Week 6: checkpointing, elastic training and the capstone job
// (core/include/dsml/checkpointing.h, elastic.h, simulated_job.h).
// Part of the wasm core's API (../dsml.d.ts, which states the conventions every function follows): the types
// of this domain, and its functions, added to DsmlCore by module augmentation.

import type { CompressorOptions } from "./compression";
import type { ModelConfig, OptimizerConfig } from "./training";

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
  /** crash: the leaving ranks fail during `step` without handing over their state (fewer workers than before):
   *  ZeRO-1 rolls back to the last checkpoint and recomputes the steps since, DP carries on (false) */
  changes?: { step: number; workers: number; crash?: boolean }[]; replicated?: boolean; algorithm?: string;
  /** a checkpoint at the start of every k-th step, and of step 0 (0: the start only) */
  checkpointInterval?: number;
}
export interface TrainElasticResult {
  workers: Float64Array; losses: Float64Array; singleLosses: Float64Array; maxRelativeDifference: number;
  stepBytes: Float64Array;
  /** restoredFrom: the checkpoint's step a ZeRO-1 crash rolled back to (−1 otherwise); lostSteps recomputed;
   *  bytesRestored read from the checkpoint */
  resizes: { step: number; from: number; to: number; optimizerBytesMoved: number; parameterBytesToJoiners: number;
             crash: boolean; restoredFrom: number; lostSteps: number; bytesRestored: number }[];
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
  /** Default: the core's for the compressor (jobErrorFeedbackDefault; off for "none"). */
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
  /** jobToTarget, jobTargetScaling: the held-out loss to reach (default 0.1, > 0); steps is then the cap. */
  targetLoss?: number;
  /** SSP through P parameter-server shards instead of the synchronous ring (default false; compressor none). */
  asynchronous?: boolean;
  /** SSP's bound s, whole number >= 0 (default 0: every clock waits for the slowest — the synchronous job). */
  staleness?: number;
}
// The results, as their field tables (core/include/dsml/job_fields.h) give them; tests/core/test_result_fields.cpp
// checks this block against the tables.
// <job_fields>
/** The capstone job simulated end to end (run_job): its clock with stragglers, failures and checkpoints, the bytes
 *  one worker sends, and the teacher task's loss. */
export interface JobRunResult {
  /** a step's compute, no straggler [s] */
  stepCompute: number;
  /** a step's communication [s] */
  stepComm: number;
  /** Σ step: the job without failures or checkpoints [s] */
  work: number;
  /** the wall time: split's sum [s] */
  wall: number;
  /** where the wall time went */
  split: WallSplit;
  /** every failure */
  failures: number;
  /** checkpoints written and kept */
  checkpoints: number;
  /** steps with at least one straggler */
  slowSteps: number;
  /** τ = Δ·work/steps, the checkpoint interval [s] */
  interval: number;
  /** the node MTBF over the workers [s] */
  fleetMtbf: number;
  /** Daly's expected wall time at (work, τ) [s] */
  expectedWall: number;
  /** steps·stepCompute / wall */
  efficiency: number;
  /** what one worker sends a step (ring algorithms) [bytes] */
  bytesPerStep: number;
  /** the same for the fp32 gradient's ring all-reduce [bytes] */
  uncompressedBytesPerStep: number;
  /** bytesPerStep · steps [bytes] */
  bytesPerWorker: number;
  /** whether the compressed messages sum (an all-reduce carries them) */
  composesWithAllReduce: boolean;
  /** Young's checkpoint interval, in steps of the mean step */
  youngSteps: number;
  /** Daly's, in steps */
  dalySteps: number;
  /** the interval minimising Daly's expected wall, in steps */
  optimalSteps: number;
  /** Daly's expected wall time at that interval [s] */
  expectedWallAtOptimal: number;
  /** the teacher task's held-out loss before step 1, then after every step (empty unless train) */
  losses: Float64Array;
}
/** Where the wall time went: compute + communication + stragglerWait + checkpoints + lostWork + restarts = wall. */
export interface WallSplit {
  /** computing, no straggler [s] */
  compute: number;
  /** the gradients' collectives [s] */
  communication: number;
  /** waiting for the slowest worker [s] */
  stragglerWait: number;
  /** writing the checkpoints kept [s] */
  checkpoints: number;
  /** work redone after failures [s] */
  lostWork: number;
  /** detecting failures and restarting [s] */
  restarts: number;
}
/** One P of the sweep over workers, in expectation (job_scaling). */
export interface JobScalingPoint {
  /** P */
  workers: number;
  /** a step's compute, no straggler [s] */
  stepCompute: number;
  /** a step's communication [s] */
  stepComm: number;
  /** E[slowest worker's compute] − stepCompute, per step [s] */
  stragglerWait: number;
  /** Daly's model with failures on; work + checkpoints otherwise [s] */
  expectedWall: number;
  /** steps·stepCompute / expectedWall */
  efficiency: number;
  /** the same without failures */
  failureFreeEfficiency: number;
}
/** One job trained to the loss target (time_to_target). */
export interface TargetRun {
  /** P */
  workers: number;
  /** false: the step cap came first; steps, work and wall are the cap's */
  reached: boolean;
  /** steps to the target (asynchronous: updates / P) */
  steps: number;
  /** gradients of taskRows rows applied by then */
  updates: number;
  /** the first held-out loss <= target, or the last at the cap */
  loss: number;
  /** failure-free time to the target [s] */
  work: number;
  /** expected wall time with checkpoints and failures (Daly) [s] */
  wall: number;
  /** the stalest update applied by then (asynchronous; 0 synchronous) */
  maxStaleness: number;
  /** jobToTarget only: the loss curve's steps */
  curveSteps?: Float64Array;
  /** jobToTarget only: the held-out loss at curveSteps */
  curveLoss?: Float64Array;
}
/** time_to_target for each P (target_scaling). */
export interface TargetSweep {
  /** one per P, without the curves */
  points: TargetRun[];
  /** the index of the smallest wall among those that reached the target (−1: none did) */
  best: number;
}
// </job_fields>

declare module "../dsml" {
  interface DsmlCore {
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
    /** Trains the job's teacher task until its held-out loss reaches targetLoss (at most `steps` steps), on the
     *  synchronous ring or, asynchronous, SSP with bound `staleness` through P parameter-server shards (Week 4's engine,
     *  trainParamServer's replay), and prices the time on the job's hardware. curveSteps/curveLoss: the loss to there.
     *  @throws as simulateJob's checks, and on a compressor with asynchronous. */
    jobToTarget(request: JobRequest): Required<TargetRun>;
    /** jobToTarget for each P (1 to 16 entries, each 1 … 256), without curves; best: the index of the smallest wall
     *  among those that reached the target (−1: none did). @throws as jobToTarget. */
    jobTargetScaling(request: JobRequest, workers: number[]): TargetSweep;
    /** Error feedback's default for a compressor on the capstone's job (dsml/simulated_job.h
     *  job_error_feedback_default): what simulateJob uses when a request leaves errorFeedback out. */
    jobErrorFeedbackDefault(request: { compressor: string }): boolean;
  }
}
