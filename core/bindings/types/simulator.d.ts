// types/simulator.d.ts — Week 1: the α–β model, Amdahl and Gustafson, the α–β fit, and the message-passing simulator
// (core/include/dsml/cost_model.h, simulator.h, scenarios.h).
// Part of the wasm core's API (../dsml.d.ts, which states the conventions every function follows): the types
// of this domain, and its functions, added to DsmlCore by module augmentation.

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

declare module "../dsml" {
  interface DsmlCore {
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
    /** T(o) = C + (1 − o)·M for a fraction o of the communication hidden (dsml/step_time.h).
     *  @throws naming min(1, C/M) when o lies outside [0, min(1, C/M)]. */
    partialOverlapStep(computeSeconds: number, communicationSeconds: number, overlapFraction: number): number;
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
     *  `record: false` returns totals only (benchmarks, very large runs). @throws as scenario and simulate, and if
     *  a recorded run would send more than 1 000 000 messages. */
    simulateScenario(name: ScenarioName, options: ScenarioOptions & { alpha: number; beta: number; record?: boolean }):
        SimResult | SimSummary;
  }
}
