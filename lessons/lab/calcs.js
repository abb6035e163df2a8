// calcs.js — every number in the lab's prose, computed by the core (keys match data-calc in index.html, whose
// header comment lists the formulas). The page test checks each against the value printed in the HTML.
// Hardware, precision and the running model are in widgets/presets.js: 150 TFLOP/s, NVLink α = 3 µs and
// 200 GB/s, InfiniBand α = 10 µs and 25 GB/s, 2-byte values + 12 B of optimizer state, L = 16, D = 1024,
// F = 4096, B = 16384.
import { formatBytes, formatPercent, formatRatio, formatSeconds, formatSI } from "../web/units.js";
import { BATCH, FLOPS, INFINIBAND, MIXED, MODEL, NVLINK, priceStep } from "./widgets/presets.js";

// NVLink without latency: times proportional to the bytes moved.
const FREE_ALPHA = { alpha: 0, beta: NVLINK.beta };
const pct = (x, decimals = 1) => formatPercent(x, { decimals });
// Ratios of priced times get 2 significant figures: the prices assume the hardware and no overlap.
const times = (x) => formatRatio(x, { digits: 2 });
const millions = (x) => `${formatSI(x / 1e6)} million`;
const flop = (x) => formatSI(x, "FLOP");

// Many numbers read the same step (64-rank ones take tens of ms): price each configuration once per core.
const priced = new WeakMap();
function step(c, strategy, n, link = NVLINK, extra = {}) {
  if (!priced.has(c)) priced.set(c, new Map());
  const key = JSON.stringify([strategy, n, link, extra]), memo = priced.get(c);
  if (!memo.has(key)) memo.set(key, priceStep(c, { strategy, n, link, ...extra }));
  return memo.get(key);
}
const comm = (r) => Object.values(r.comm).reduce((a, b) => a + b, 0);
const states = (m) => m.params + m.grads + m.optimizer;
const psi = (c) => step(c, "single", 1).memoryPerRank[0].params / MIXED.elementBytes;  // Ψ = 2·L·D·F
// Bytes one rank sends in a ring collective of n bytes on p ranks: its cost at α = 0, β = 1 s/B.
const ringBytes = (c, coll, p, n) => c.collectiveCost(coll, "ring", { ranks: p, bytes: n, alpha: 0, beta: 1, gamma: 0 });

// The ZeRO paper's example, Ψ = 7.5 B on N_d = 64 GPUs. The binding prices lab-sized models only, so the
// accountant is asked for a tiny model (Ψ = 8192, divisible by 64) and its model-state bytes per parameter —
// exact, since params, grads and optimizer state are linear in Ψ — are scaled to 7.5 B.
const ZERO_PSI = 7.5e9;
function zeroExample(c, strategy) {
  const r = c.stepCost({ strategy, grid: { dp: 64, tp: 1, pp: 1 }, model: { layers: 1, width: 64, hidden: 64 },
    batch: 64, flops: FLOPS, ...INFINIBAND, ...MIXED });
  return (states(r.memoryPerRank[0]) / (2 * 64 * 64)) * ZERO_PSI;
}

// The bubble of a pipeline alone: α = 0 and a vanishing β, so the step is compute + idle time. As a fraction of the
// step, (P − 1)/(m + P − 1); against the ideal step (the compute alone, Narayanan et al. 2021), (P − 1)/m.
function pipelineAlone(c, strategy, P, m) {
  return c.stepCost({ strategy, grid: { dp: 1, tp: 1, pp: P }, microBatches: m, model: { layers: 16, width: 4, hidden: 4 },
    batch: 64, flops: FLOPS, alpha: 0, beta: 1e-30 });
}
const bubbleFraction = (c, strategy, P, m) => { const r = pipelineAlone(c, strategy, P, m); return r.bubble / r.total; };
const bubbleOverIdeal = (c, strategy, P, m) => { const r = pipelineAlone(c, strategy, P, m); return r.bubble / (r.total - r.bubble); };

// 64 GPUs = 8 nodes × 8: FSDP + TP with one group on NVLink and the other on InfiniBand. The closed form prices
// every collective on one kind of link, so each layout adds the compute, the TP all-reduces priced on one link
// and the FSDP all-gathers and reduce-scatters priced on the other (the two groups use different links).
function layout(c, tpLink, fsdpLink) {
  const onTp = step(c, "fsdp-tp", 64, tpLink), onFsdp = step(c, "fsdp-tp", 64, fsdpLink);
  return onTp.compute + onTp.comm["all-reduce"] + onFsdp.comm["all-gather"] + onFsdp.comm["reduce-scatter"];
}

export const CALCS = {
  // (a) the model
  "m-psi": (c) => millions(psi(c)),
  "m-block-flops": (c) => flop((step(c, "single", 1).compute * FLOPS) / (3 * MODEL.layers)),
  "m-step-flops": (c) => flop(step(c, "single", 1).compute * FLOPS),
  "m-single-time": (c) => formatSeconds(step(c, "single", 1).total),
  "m-single-states": (c) => formatBytes(states(step(c, "single", 1).memoryPerRank[0])),
  "m-single-act": (c) => formatBytes(step(c, "single", 1).memoryPerRank[0].activations),
  // (b) data parallelism on 8 GPUs
  "dp-grad": (c) => formatBytes(step(c, "dp", 8).memoryPerRank[0].grads),
  "dp-sent": (c) => formatBytes(ringBytes(c, "all-reduce", 8, step(c, "dp", 8).memoryPerRank[0].grads)),
  "dp-compute": (c) => formatSeconds(step(c, "dp-bucketed", 8).compute),
  "dp-naive": (c) => formatSeconds(comm(step(c, "dp", 8))),
  "dp-bucketed": (c) => formatSeconds(comm(step(c, "dp-bucketed", 8))),
  "dp-total": (c) => formatSeconds(step(c, "dp-bucketed", 8).total),
  "dp-speedup": (c) => times(step(c, "single", 1).total / step(c, "dp-bucketed", 8).total),
  "dp-ib": (c) => formatSeconds(comm(step(c, "dp-bucketed", 8, INFINIBAND))),
  "dp-ib-share": (c) => { const r = step(c, "dp-bucketed", 8, INFINIBAND); return pct(comm(r) / r.total, 0); },
  "dp-accum-share": (c) => { const r = step(c, "dp-bucketed", 8, INFINIBAND, { batch: 4 * BATCH }); return pct(comm(r) / r.total, 0); },
  // (c) ZeRO and FSDP
  "z-0": (c) => formatBytes(zeroExample(c, "dp")),
  "z-1": (c) => formatBytes(zeroExample(c, "zero1")),
  "z-2": (c) => formatBytes(zeroExample(c, "zero2")),
  "z-3": (c) => formatBytes(zeroExample(c, "zero3")),
  "z-ex-dp": (c) => formatBytes(step(c, "dp", 8).memoryPerRank[0].total),
  "z-ex-z3": (c) => formatBytes(step(c, "zero3", 8).memoryPerRank[0].total),
  "z-comm-z2": (c) => formatSeconds(comm(step(c, "zero2", 8))),
  "z-comm-z3": (c) => formatSeconds(comm(step(c, "zero3", 8))),
  "z-ratio": (c) => times(comm(step(c, "zero3", 8)) / comm(step(c, "zero2", 8))),
  "z-bytes": (c) => times(comm(step(c, "zero3", 8, FREE_ALPHA)) / comm(step(c, "zero2", 8, FREE_ALPHA))),
  "z-count": (c) => String(step(c, "zero3", 8).spans.filter((s) => s.rank === 0 && s.kind !== "compute").length),
  // (d) tensor parallelism on 8 GPUs
  "tp-msg": () => formatBytes(BATCH * MODEL.width * MIXED.elementBytes),
  "tp-one": (c) => formatSeconds(c.collectiveCost("all-reduce", "ring",
    { ranks: 8, bytes: BATCH * MODEL.width * MIXED.elementBytes, ...NVLINK, gamma: 0 })),
  "tp-count": (c) => String(step(c, "tp", 8).spans.filter((s) => s.rank === 0 && s.kind === "all-reduce").length),
  "tp-comm": (c) => formatSeconds(comm(step(c, "tp", 8))),
  "tp-compute": (c) => formatSeconds(step(c, "tp", 8).compute),
  "tp-ib": (c) => formatSeconds(comm(step(c, "tp", 8, INFINIBAND))),
  "tp-mem": (c) => formatBytes(step(c, "tp", 8).memoryPerRank[0].total),
  // (e) pipeline parallelism, P = 8
  "pp-bubble-8-8": (c) => pct(bubbleFraction(c, "pp-gpipe", 8, 8)),
  "pp-bubble-8-32": (c) => pct(bubbleFraction(c, "pp-gpipe", 8, 32)),
  "pp-bubble-1f1b-8-32": (c) => pct(bubbleFraction(c, "pp-1f1b", 8, 32)),
  "pp-bubble-ideal-8-32": (c) => pct(bubbleOverIdeal(c, "pp-gpipe", 8, 32)),
  "pp-send": () => formatBytes((BATCH / 32) * MODEL.width * MIXED.elementBytes),
  "pp-act-gpipe": (c) => formatBytes(step(c, "pp-gpipe", 8, NVLINK, { microBatches: 32 }).memoryPerRank[0].activations),
  "pp-act-1f1b": (c) => formatBytes(step(c, "pp-1f1b", 8, NVLINK, { microBatches: 32 }).memoryPerRank[0].activations),
  "pp-total-gpipe": (c) => formatSeconds(step(c, "pp-gpipe", 8, NVLINK, { microBatches: 32 }).total),
  "pp-total-1f1b": (c) => formatSeconds(step(c, "pp-1f1b", 8, NVLINK, { microBatches: 32 }).total),
  // (f) 64 GPUs, FSDP + TP
  "f-good": (c) => formatSeconds(layout(c, NVLINK, INFINIBAND)),
  "f-bad": (c) => formatSeconds(layout(c, INFINIBAND, NVLINK)),
  "f-mem": (c) => formatBytes(step(c, "fsdp-tp", 64).memoryPerRank[0].total),
};
