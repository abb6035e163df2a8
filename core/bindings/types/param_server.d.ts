// types/param_server.d.ts — Week 4: parameter servers, stragglers, staleness, Hogwild!
// (core/include/dsml/param_server.h, ps_closed_forms.h, stale_training.h, hogwild.h).
// Part of the wasm core's API (../dsml.d.ts, which states the conventions every function follows): the types
// of this domain, and its functions, added to DsmlCore by module augmentation.

import type { LinkBusy } from "./collectives";
import type { ModelConfig } from "./training";

/** A worker's compute time for iteration c: base · multipliers[w] · X, X of mean 1 (slow-node: 1 + p·(slowdown − 1);
 *  per-round: the list's mean). X is a pure function of (seed, worker, c). */
export interface SpeedModel {
  /** fixed: X = 1; exponential: Exp(1); lognormal: exp(σZ − σ²/2); slow-node: slowdown with probability p;
   *  per-round: an entry of roundSpeeds, each with probability 1/length, drawn afresh by every worker every round.
   *  (fixed, or per-round when only roundSpeeds is given) */
  distribution?: "fixed" | "exponential" | "lognormal" | "slow-node" | "per-round";
  /** s, > 0 (1) */
  base?: number;
  /** One per worker, each > 0, e.g. [1, 1, 1, 1, 3, 5]: worker w is always multipliers[w] times slower; absent = all 1. */
  multipliers?: ArrayLike<number>;
  /** per-round only: the list X is drawn from, 1 to 1024 values > 0, e.g. [1, 1, 1, 1, 3, 5] (a repeat counts twice). */
  roundSpeeds?: ArrayLike<number>;
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
  /** every worker's spans (three a worker and round: a long run's largest part); absent = left out (false) */
  spans?: boolean;
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


// The results, as their field tables (core/include/dsml/ps_fields.h) give them; tests/core/test_result_fields.cpp
// checks this block against the tables.
// <ps_fields>
/** A parameter server simulated under a consistency regime (simulate_param_server): workers 0 … W−1 and shards W
 *  … W+K−1 on a switch. */
export interface ParamServerRun {
  /** until the last worker finished [s] */
  makespan: number;
  /** what each worker did, sorted by (worker, start); only when the request asks (spans: true) */
  spans?: PsSpan[];
  /** every applied gradient, as columns */
  updates: PsUpdates;
  /** backup: late gradients dropped (per shard) */
  dropped: number;
  /** per round or clock, when every shard finished it [s] */
  roundEnd: Float64Array;
  /** per round or clock, roundEnd's differences [s] */
  roundSeconds: Float64Array;
  /** per worker, computing [s] */
  computeSeconds: Float64Array;
  /** per worker, waiting for replies (barrier, SSP hold, network) [s] */
  waitSeconds: Float64Array;
  /** Σ wait / Σ worker time */
  stallFraction: number;
  /** messages sent: pushes and replies */
  messages: number;
  /** the pushes the most loaded shard received [bytes] */
  bytesIntoBusiestServer: number;
  /** per link, the time it carried data [s] */
  linkBusy: Float64Array;
  /** per link, its name ("down 6" = shard 0's downlink when W = 6) */
  linkNames: string[];
  /** the busiest link, null when no link was used */
  busiestLink: LinkBusy | null;
}
/** What one worker did from start to end; wait = for the replies (barrier, SSP hold, network). */
export interface PsSpan {
  /** the worker */
  worker: number;
  /** computing a gradient, sending it, or waiting */
  kind: "compute" | "push" | "wait";
  /** from the start of the run [s] */
  start: number;
  /** from the start of the run [s] */
  end: number;
  /** its round (bsp, backup) or clock (asp, ssp) */
  iteration: number;
}
/** One entry per applied gradient per shard, in the order applied. */
export interface PsUpdates {
  /** the shard that applied it */
  shard: Float64Array;
  /** the worker that computed it */
  worker: Float64Array;
  /** its round or clock */
  iteration: Float64Array;
  /** when the shard applied it [s] */
  time: Float64Array;
  /** its staleness: updates applied since its parameters were read (0 under bsp and backup) */
  tau: Float64Array;
}
/** The servers' model on a held-out batch: first at the start, then after each shard update (1/K of an update). */
export interface StaleTrainingCurve {
  /** when [s] */
  time: Float64Array;
  /** updates applied by then */
  updates: Float64Array;
  /** the held-out loss */
  loss: Float64Array;
  /** the held-out loss at the end */
  finalLoss: number;
}
/** Hogwild! on sparse least squares: lockstep waves of T threads (simulate_hogwild). */
export interface HogwildResult {
  /** k = max(1, round(sparsity·features)) */
  support: number;
  /** updates done: waves·T */
  updates: number;
  /** colliding updates / updates, measured */
  collisionRate: number;
  /** 1 − q^(T−1), q = C(n−k, k)/C(n, k) */
  predictedCollisionRate: number;
  /** atomic = false: writes overwritten by a later stale write */
  lostWrites: number;
  /** updates done when each loss was measured */
  lossUpdates: Float64Array;
  /** the loss at lossUpdates */
  loss: Float64Array;
  /** the loss at the end */
  finalLoss: number;
}
/** SSP's waiting with fixed speeds and a free network: finish_w = max(I·t_w, (I−s)⁺·t_max)
 *  (ssp_stall_fixed_speeds). */
export interface SspStall {
  /** per worker, waiting [s] */
  waitSeconds: Float64Array;
  /** per worker, when it finished [s] */
  finishSeconds: Float64Array;
  /** Σ wait / Σ finish */
  stallFraction: number;
}
/** What SSP can absorb, compute only: the seconds per clock at s = 0 and as s → ∞ (ssp_clock_limits). */
export interface SspClockLimits {
  /** s = 0: E[max_w t], the barrier [s] */
  barrierSeconds: number;
  /** s → ∞: max_w E[t], each worker at its own mean pace [s] */
  unboundedSeconds: number;
  /** barrier − unbounded: all a bound s can remove per clock [s] */
  absorbableSeconds: number;
  /** absorbable / barrier */
  absorbableFraction: number;
}
/** One round of pushes on a switch: W workers, K shards, S bytes of parameters (ps_bandwidth). */
export interface PsBandwidth {
  /** W·S/K into one shard [bytes] */
  serverBytes: number;
  /** W·(α + β·S/K) on that shard's downlink [s] */
  serverSeconds: number;
  /** K·α + β·S on a worker's uplink [s] */
  workerSeconds: number;
  /** serverSeconds > workerSeconds */
  serversBottleneck: boolean;
}
// </ps_fields>

declare module "../dsml" {
  interface DsmlCore {
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
        SspStall;
    /** What SSP can absorb, compute only: seconds per clock at s = 0 (E[max_w t], the barrier) and as s → ∞
     *  (max_w E[t]: each worker at its own mean pace); their difference is all a bound s can remove — 0 for fixed
     *  speeds (a permanently slow worker sets the pace). @throws as speedTimes. */
    sspClockLimits(speed: SpeedModel, workers: number): SspClockLimits;
    /** One round of pushes on a switch: bytes into a shard W·S/K, its downlink W·(α + β·S/K) s, a worker's uplink
     *  K·α + β·S s. @throws on a bad network or sizes. */
    psBandwidth(network: { alpha: number; beta: number }, workers: number, servers: number, parameterBytes: number):
        PsBandwidth;
    /** The fewest shards K with the servers no longer the bottleneck (K = W on a switch). @throws as psBandwidth. */
    psServersToBalance(network: { alpha: number; beta: number }, workers: number, parameterBytes: number): number;
    /** 1 − q^(T−1), q = C(n−k, k)/C(n, k). @throws unless 1 <= support <= features. */
    hogwildCollisionProbability(threads: number, features: number, support: number): number;
  }
}
