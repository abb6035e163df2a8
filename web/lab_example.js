// lab_example.js — the hardware and the model the lab's running example is priced on, in one place so that the
// lab (lessons/lab/calcs.js), Week 3's scaling sections (lessons/week3/scaling_setup.js) and Week 5's ZeRO section
// (lessons/week5/scale_setup.js) agree. The hardware is the course's table (hardware.js), an A100 cluster:
//   FLOPS     150 TFLOP/s sustained per GPU (about half the 312 TFLOP/s bf16 peak: a realistic utilisation)
//   NVLINK    inside a node of 8 GPUs (one NVLink domain): α = 3 µs per message, 200 GB/s per GPU
//   INFINIBAND between nodes: α = 10 µs, 25 GB/s per GPU (one 200 Gb/s HDR NIC per GPU)
// Mixed precision, as in the ZeRO paper (Rajbhandari et al. 2020, §3.1): parameters, gradients and activations
// in 2-byte bf16/fp16, and 12 bytes of fp32 optimizer state per parameter (master copy, Adam's m and v).
// stepCost counts optimizer state as optimizerStates values of elementBytes each, so 6 × 2 B = 12 B.
//
// The model: the binding prices lab-sized models only (layers·width·hidden ≤ 1e8), so the running example is
// GPT-2-small sized: L = 16 blocks, D = 1024, F = 4096 (Ψ = 2·L·D·F = 134 M parameters), B = 16384 rows
// (think tokens) per step.
import { A100_SUSTAINED_FLOPS, LINKS } from "./hardware.js";

export const FLOPS = A100_SUSTAINED_FLOPS;                     // FLOP/s per GPU
export const NVLINK = LINKS.nvlink;                            // alpha s, beta s/B
export const INFINIBAND = LINKS.infiniband;                    // alpha s, beta s/B
export const MIXED = { elementBytes: 2, optimizerStates: 6 };  // 2 B values, 12 B of Adam state per parameter
export const MODEL = { layers: 16, width: 1024, hidden: 4096 };
export const BATCH = 16384;                                    // rows per step (global)

// The grid a strategy uses on n GPUs (fsdp-tp: tp GPUs per tensor-parallel group, n/tp groups).
export function gridFor(strategy, n, tp = 8) {
  if (strategy === "single") return { dp: 1, tp: 1, pp: 1 };
  if (strategy === "tp") return { dp: 1, tp: n, pp: 1 };
  if (strategy.startsWith("pp-")) return { dp: 1, tp: 1, pp: n };
  if (strategy === "fsdp-tp") { const t = Math.min(tp, n); return { dp: Math.max(1, n / t), tp: t, pp: 1 }; }
  return { dp: n, tp: 1, pp: 1 };
}

// One step of `strategy` on n GPUs over `link`, in the page's conventions. Throws the core's readable Error.
export function priceStep(core, { strategy, n, link = NVLINK, model = MODEL, batch = BATCH, microBatches = 1, tp = 8,
  recompute = false }) {
  return core.stepCost({ strategy, grid: gridFor(strategy, n, tp), microBatches: strategy.startsWith("pp-") ? microBatches : 1,
    model, batch, flops: FLOPS, alpha: link.alpha, beta: link.beta, recompute, ...MIXED });
}
