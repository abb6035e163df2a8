// types/model_parallel.d.ts — Week 5: pipelines beyond 1F1B, mixture-of-experts and expert parallelism, 3-D layouts
// (core/include/dsml/chunk_schedule.h, moe.h, expert_parallel.h, parallel_design.h).
// Part of the wasm core's API (../dsml.d.ts, which states the conventions every function follows): the types
// of this domain, and its functions, added to DsmlCore by module augmentation.

import type { Topology } from "./collectives";
import type { StepPlan } from "./planner";
import type { ModelConfig, OptimizerConfig } from "./training";

// The timed schedules, generated from their field tables (core/pipeline/pipeline_fields.cpp: each field's one name,
// unit and meaning, which the wasm objects and `dsml pipeline` are written from). tests/core/test_result_fields.cpp
// checks this block against the tables and prints it when they differ: change the table, then paste what it prints.
// <pipeline_fields>
/** One pipeline schedule generated, checked and timed (schedule_timeline). Times in the request's unit (seconds by
 *  default). */
export interface PipelineTimeline {
  /** the schedule */
  name: "gpipe" | "1f1b" | "interleaved" | "zb-h1";
  /** P */
  devices: number;
  /** v */
  chunksPerDevice: number;
  /** m */
  microBatches: number;
  /** until the last device finishes [s] */
  makespan: number;
  /** one device's work without idling: v·m·(forward + backwardInput + backwardWeight) [s] */
  ideal: number;
  /** Σ idle / (P·makespan): the share of the step the devices wait */
  bubbleFraction: number;
  /** (makespan − ideal)/ideal: (P−1)/m for 1F1B, (P−1)/(v·m) interleaved, (P−1)/(3m) ZB-H1 with unit times */
  bubbleOverIdeal: number;
  /** per device, computing [s] */
  busy: number[];
  /** per device, makespan − busy [s] */
  idle: number[];
  /** per device, the most (micro-batch, chunk) activations held at once */
  peakActivations: number[];
  /** point-to-point messages per step */
  messages: number;
  /** every op, by device in execution order */
  timeline: PipelineSpan[];
}
/** One compute op on the simulated timeline: F forward, BW a full backward, B its input-gradient half, W its
 *  weight-gradient half; chunk c is on device c mod P. */
export interface PipelineSpan {
  /** the device that runs it */
  device: number;
  /** the op */
  kind: "F" | "BW" | "B" | "W";
  /** its micro-batch */
  microBatch: number;
  /** its model chunk */
  chunk: number;
  /** from the start of the step [s] */
  start: number;
  /** from the start of the step [s] */
  end: number;
}
/** One of GPipe, 1F1B, interleaved and ZB-H1 at the same (P, m) with the same per-stage times, beside its paper's
 *  bubble formula (compare_pipeline_schedules). */
export interface PipelineComparison {
  /** the schedule */
  name: "gpipe" | "1f1b" | "interleaved" | "zb-h1";
  /** v */
  chunksPerDevice: number;
  /** until the last device finishes [s] */
  makespan: number;
  /** one device's work without idling: v·m·(forward + backwardInput + backwardWeight) [s] */
  ideal: number;
  /** Σ idle / (P·makespan): the share of the step the devices wait */
  bubbleFraction: number;
  /** (makespan − ideal)/ideal: (P−1)/m for 1F1B, (P−1)/(v·m) interleaved, (P−1)/(3m) ZB-H1 with unit times */
  bubbleOverIdeal: number;
  /** per device, computing [s] */
  busy: number[];
  /** per device, makespan − busy [s] */
  idle: number[];
  /** the bubble over ideal its paper gives */
  formulaOverIdeal: number;
  /** per device, in chunks (interleaved: each 1/v of a stage) */
  peakActivations: number[];
  /** max over devices of peak / v: in micro-batches of a whole stage */
  peakStageActivations: number;
  /** point-to-point messages per step */
  messages: number;
}
// </pipeline_fields>

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

/** One (t, p, d) factorisation priced by price3dLayouts (core/include/dsml/parallel_design.h): the planner's
 *  plan_step of the layout with its optimizer state replicated and with ZeRO-1 (planStep's time, memory and fits). */
export type LayoutPlan = Pick<StepPlan, "time" | "memory" | "fits">;
export interface LayoutRow {
  t: number; p: number; d: number; microBatches: number;
  replicated: LayoutPlan; zero1: LayoutPlan;
}

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

declare module "../dsml" {
  interface DsmlCore {
    /** Week 5: one pipeline schedule generated, checked and timed: the timeline per device (for drawing), the
     *  bubble, peak chunk activations per device, point-to-point messages per step. interleaved needs
     *  chunksPerDevice >= 1 and microBatches a multiple of devices; the others chunksPerDevice = 1.
     *  @throws on an unknown schedule, those rules, or bad times. */
    pipelineTimeline(request: PipelineTimes & { schedule: "gpipe" | "1f1b" | "interleaved" | "zb-h1";
                     devices: number; microBatches: number; chunksPerDevice?: number }): PipelineTimeline;
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
        PipelineComparison[];
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
    /** Every (t, p, d) with t·p·d = nodes·gpusPerNode that the planner accepts (t | heads, t ≤ gpusPerNode,
     *  p | layers, d·microBatch | globalBatch), by t then p, each priced by plan_step (planStep) with v = 1,
     *  nothing overlapped, at ZeRO 0 and ZeRO-1. model and gpu name planner presets (plannerPresets); defaults:
     *  gpu "a100-80gb", globalBatch 512, microBatch 1, sequenceParallel true, recomputation "none". parameters is
     *  the model's Ψ, capacity the GPU's memory in bytes. @throws on an unknown preset or a bad field. */
    price3dLayouts(request: { model: string; gpu?: string; nodes: number; gpusPerNode: number; globalBatch?: number;
                              microBatch?: number; sequenceParallel?: boolean;
                              recomputation?: "none" | "selective" | "full" }):
        { model: string; gpu: string; parameters: number; capacity: number; rows: LayoutRow[] };
    /** Week 5: the MLP with MoE blocks trained on one device (as trainSingleMoe) with Switch Transformer's
     *  load-balancing loss α·E·Σ f_i·P_i in every MoE block (moe.balance = α; 0 = none), per step: the MSE, the
     *  balance loss and the assignments dropped. @throws on a bad field or a run too large for a tab. */
    trainMoeBalanced(request: TrainMoeBalancedRequest): TrainMoeBalancedResult;
    /** α·E·Σ_i f_i·P_i for one token group: f the share of first choices per expert, P the mean router probability
     *  per expert (each summing to 1). @throws on α < 0, mismatched sizes, or shares outside [0, 1]. */
    moeBalanceLoss(alpha: number, f: ArrayLike<number>, P: ArrayLike<number>): number;
  }
}
