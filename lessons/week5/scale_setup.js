// scale_setup.js — Week 5's real-size examples, shared by calcs.js, the widgets and the exercises.
//   NVLINK, NETWORK the course's links (web/hardware.js): NVLink inside an A100 node (α = 3 µs, 200 GB/s) and InfiniBand
//                 between nodes (α = 10 µs, 25 GB/s per GPU)
//   TP_EXAMPLE    one MLP block of a transformer, D = 4096, F = 4D, 4096 tokens per micro-batch, bf16, t = 8 on NVLink
//   zeroStates    model-state bytes per device of Ψ parameters under DP / ZeRO-1/2/3 on N devices (mixed-precision
//                 Adam: 2 + 2 + 12 bytes per parameter), from core.stepCost's memory per rank
//   zeroCommBytes bytes one rank sends per step under a ZeRO stage, from core.stepCost at α = 0, β = 1 s/B
//   labZeroStep   the lab's running model (web/lab_example.js) under DP / ZeRO on 8 NVLink GPUs, core.stepCost
//   ANATOMY       one OPT-30B layer (s = 2048, b = 1, h = 7168, a = 56) and the course's MLP block of the same width
//   MOE_EXAMPLE   the MoE layer run on Workers-sized data; MOE_REAL a Mixtral-sized layer priced
//   LAYOUT_EXAMPLE every (t, p, d) of OPT-30B on 8 × 8 A100s, each row the planner's plan_step (core.price3dLayouts)
import { NVLINK as LAB_NVLINK, priceStep } from "../../web/lab_example.js";
import { LINKS } from "../../web/hardware.js";

const alphaBeta = (link) => Object.freeze({ alpha: link.alpha, beta: link.beta });
export const NVLINK = alphaBeta(LINKS.nvlink);
export const NETWORK = alphaBeta(LINKS.infiniband);

export const TP_EXAMPLE = Object.freeze({ width: 4096, hidden: 16384, tokens: 4096, elementBytes: 2, t: 8 });
/** Bytes and seconds of the column split's all-gather of A (tokens × F) and Megatron's all-reduce of Y (tokens × D). */
export const tpBytes = (ex = TP_EXAMPLE) => ({ gatherBytes: ex.tokens * ex.hidden * ex.elementBytes,
  reduceBytes: ex.tokens * ex.width * ex.elementBytes });
export function tpCollectives(core, ex = TP_EXAMPLE, link = NVLINK) {
  const { gatherBytes, reduceBytes } = tpBytes(ex);
  const opts = (bytes) => ({ ranks: ex.t, bytes, ...link, gamma: 0 });
  return {
    gatherBytes, reduceBytes,
    gather: core.collectiveCost("all-gather", "ring", opts(gatherBytes)),
    reduce: core.collectiveCost("all-reduce", "ring", opts(reduceBytes)),
  };
}

// A tiny model whose Ψ = 2·1·64·64 = 8192 divides every N ≤ 256 used here: model-state bytes are linear in Ψ, so the
// accountant's bytes per parameter, scaled to a real Ψ, are exact.
const TINY = { model: { layers: 1, width: 64, hidden: 64 }, flops: 1e12, elementBytes: 2, optimizerStates: 6 };
const TINY_PSI = 2 * 64 * 64;
const STRATEGY = { 0: "dp", 1: "zero1", 2: "zero2", 3: "zero3" };
function tinyStep(core, stage, N, link) {
  return core.stepCost({ ...TINY, ...link, strategy: STRATEGY[stage], grid: { dp: N, tp: 1, pp: 1 }, batch: 4 * N });
}
export function zeroStates(core, psi, stage, N) {
  const m = tinyStep(core, stage, N, NETWORK).memoryPerRank[0];
  return ((m.params + m.grads + m.optimizer) / TINY_PSI) * psi;
}
export function zeroCommBytes(core, psi, stage, N) {
  const r = tinyStep(core, stage, N, { alpha: 0, beta: 1 });
  return (Object.values(r.comm).reduce((a, b) => a + b, 0) / TINY_PSI) * psi;
}
export const ZERO_SIZES = { "7B": 7e9, "30B": 30e9, "175B": 175e9 };

// The lab's running model (L 16, D 1024, F 4096, 16384 rows, mixed-precision Adam) on 8 GPUs joined by the lab's
// NVLink (α = 3 µs, 200 GB/s): what ZeRO-3's block-by-block collectives cost in latency, not only in bytes.
export const LAB_ZERO_GPUS = 8;
export const labZeroStep = (core, strategy, link = LAB_NVLINK) => priceStep(core, { strategy, n: LAB_ZERO_GPUS, link });
export const labFreeAlpha = { alpha: 0, beta: LAB_NVLINK.beta };   // times proportional to the bytes moved

export const ANATOMY = Object.freeze({ sequence: 2048, microBatch: 1, hidden: 7168, heads: 56 });
/** The course's MLP block at width h, F = 4h, s·b rows, bf16: what it keeps for backward (core.stepCost). */
export function mlpBlockActivations(core, ex = ANATOMY) {
  return core.stepCost({ strategy: "single", grid: { dp: 1, tp: 1, pp: 1 }, model: { layers: 1, width: ex.hidden,
    hidden: 4 * ex.hidden }, batch: ex.sequence * ex.microBatch, flops: 1e12, alpha: 0, beta: 1, elementBytes: 2 })
    .memoryPerRank[0].activations;
}

export const MOE_EXAMPLE = Object.freeze({ moe: { width: 16, hidden: 32, experts: 8, topK: 2, capacityFactor: 1.25 },
  ranks: 4, batch: 64, seed: 1 });
export const MOE_REAL = Object.freeze({ moe: { width: 4096, hidden: 14336, experts: 8, topK: 2, capacityFactor: 1.25 },
  tokensPerRank: 4096 });
export function priceMoeAllToAll(core, where, ex = MOE_REAL) {
  const topology = where === "node"
    ? { kind: "fully-connected", ranks: ex.moe.experts, ...NVLINK }
    : { kind: "hierarchical", nodes: ex.moe.experts, perNode: 1, intra: NVLINK, inter: NETWORK };
  return core.priceExpertAllToAll({ ...ex, ...(where === "node" ? NVLINK : NETWORK), topology });
}

export const LAYOUT_EXAMPLE = Object.freeze({ model: "opt-30b", gpu: "a100-80gb", nodes: 8, gpusPerNode: 8 });
/** A row's plan with its optimizer state replicated or sharded by ZeRO-1: {time, memory, fits} of the planner's
 *  StepPlan (core.planStep's fields). */
export const planOf = (row, zero1) => (zero1 ? row.zero1 : row.replicated);
/** The fastest row whose plan fits, or null. */
export const fastestFitting = (rows, zero1) => rows.filter((r) => planOf(r, zero1).fits)
  .reduce((a, b) => (!a || planOf(b, zero1).time.total < planOf(a, zero1).time.total ? b : a), null);
/** price3dLayouts — every (t, p, d) the planner accepts, each priced by plan_step with and without ZeRO-1 — and the
 *  fastest row that fits each way. */
export function layouts(core, fields = {}) {
  const r = core.price3dLayouts({ ...LAYOUT_EXAMPLE, ...fields });
  return { ...r, best: fastestFitting(r.rows, false), bestZero1: fastestFitting(r.rows, true) };
}
