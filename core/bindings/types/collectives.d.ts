// types/collectives.d.ts — Week 2: collectives as schedules — built, verified, priced in closed form and simulated
// on topologies (core/include/dsml/schedule.h, collective_cost.h, topology.h).
// Part of the wasm core's API (../dsml.d.ts, which states the conventions every function follows): the types
// of this domain, and its functions, added to DsmlCore by module augmentation.

import type { SimResult, SimSummary } from "./simulator";

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
  /** The busiest link, null when no link was used (as in every result). */
  busiestLink: LinkBusy | null;
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

declare module "../dsml" {
  interface DsmlCore {
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
     *  link only (1024 ranks and more). @throws as schedule, if the topology's ranks differ from `ranks`, or if a
     *  recorded run would send more than 1 000 000 messages (kMaxRecordedMessages: a 1024-rank ring all-reduce). */
    simulateCollective(request: ScheduleOptions & { collective: Collective; algorithm: string; gamma?: number;
                                                    topology: Topology; record?: boolean }):
        TopologySimResult | (SimSummary & { busiestLink: LinkBusy | null });
    /** Messages recorded on Workers replayed on a topology. @throws on a rank out of range or a malformed
     *  record. */
    simulateTrace(request: { ranks: number; topology: Topology; gamma?: number; trace: TraceMessage[] }):
        TopologySimResult;
    /** Week 2: a pipelined broadcast ("pipelined-chain" or "pipelined-tree") of k segments, three ways at once —
     *  verified on buffers, simulated on the single-port switch, and its closed form T(k) = (a·k + c)(α + nβ/k)
     *  (core/include/dsml/pipelined_broadcast.h). segments 0 or absent means p. @throws on a bad field or
     *  segments·ranks > 2^22. */
    pipelinedBroadcast(request: PipelinedBroadcastRequest): PipelinedBroadcastResult;
    /** The whole k ≥ 1 with the least T(k): the better of ⌊k*⌋ and ⌈k*⌉, k* = √(c·nβ/(a·α)) (chain: √((p − 2)nβ/α)). */
    bestSegments(algorithm: "pipelined-chain" | "pipelined-tree", options: { ranks: number; bytes: number; alpha: number; beta: number }): BestSegments;
  }
}
