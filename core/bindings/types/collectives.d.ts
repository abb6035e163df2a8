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
     *  link only (1024 ranks and more). @throws as schedule, or if the topology's ranks differ from `ranks`. */
    simulateCollective(request: ScheduleOptions & { collective: Collective; algorithm: string; gamma?: number;
                                                    topology: Topology; record?: boolean }):
        TopologySimResult | (SimSummary & { busiestLink: LinkBusy | null });
    /** Messages recorded on Workers replayed on a topology. @throws on a rank out of range or a malformed
     *  record. */
    simulateTrace(request: { ranks: number; topology: Topology; gamma?: number; trace: TraceMessage[] }):
        TopologySimResult;
  }
}
