// compression_setup.js — the gradient-compression runs Week 6 shows, in one place so the prose (calcs.js), the
// widgets and the exercises agree. Every function takes the core first and returns plain values (typed arrays
// copied), so a widget can run it in a Worker (web/lesson/core_tasks.js runs any export by name).
// The core's calls: core/bindings/dsml.d.ts, "Week 6" (compression.h, compressed_training.h): trainCompressed,
// compressionWire, compressGradient, qsgdVarianceBound.
import { LINKS } from "../../web/hardware.js";

// The teacher task of compressed_training.h's measured table: a 2-block MLP (D = 8, F = 32: 4 tensors of 256 values,
// 1024 in all), P = 4 workers × 4 rows, plain SGD at η = 0.05, 300 steps, seed 3, held-out loss on 32 rows.
export const TRAIN = Object.freeze({ model: Object.freeze({ layers: 2, width: 8, hidden: 32 }), workers: 4, batch: 4,
  steps: 300, lr: 0.05, seed: 3, evalBatch: 32 });

// The compressors the widgets offer, with the settings the prose discusses.
export const COMPRESSORS = Object.freeze({
  "top-k-1": { label: "top-k, 1%", options: { compressor: "top-k", ratio: 0.01 } },
  "top-k-10": { label: "top-k, 10%", options: { compressor: "top-k", ratio: 0.1 } },
  "random-k-1": { label: "random-k, 1%", options: { compressor: "random-k", ratio: 0.01 } },
  "int8": { label: "8-bit (int8)", options: { compressor: "int8" } },
  "qsgd-16": { label: "QSGD, 16 levels", options: { compressor: "qsgd", levels: 16 } },
  "qsgd-4": { label: "QSGD, 4 levels", options: { compressor: "qsgd", levels: 4 } },
  "sign": { label: "SignSGD, majority vote", options: { compressor: "sign" } },
  "powersgd-1": { label: "PowerSGD, rank 1", options: { compressor: "powersgd", rank: 1 } },
  "powersgd-2": { label: "PowerSGD, rank 2", options: { compressor: "powersgd", rank: 2 } },
});

const finite = (x) => Number.isFinite(x) && x < 1e6;

// One training run: the held-out loss and cumulative bytes per step, and where it diverged (null if it did not).
export function train(core, options, errorFeedback = false, overrides = {}) {
  const r = core.trainCompressed({ ...TRAIN, ...options, errorFeedback, ...overrides });
  const losses = Array.from(r.losses), bytes = Array.from(r.cumulativeBytes);
  const bad = losses.findIndex((l) => !finite(l));
  return { losses, bytes, final: losses.at(-1), diverged: bad < 0 ? null : bad, bytesPerStep: r.bytesPerStep,
    uncompressedBytesPerStep: r.uncompressedBytesPerStep, payloadBytes: r.payloadBytes,
    collectives: r.collectives.map((c) => ({ ...c })) };
}

// Full gradient, the compressor without and with error feedback.
export function curves(core, key) {
  const { options } = COMPRESSORS[key];
  return { none: train(core, { compressor: "none" }), plain: train(core, options, false), ef: train(core, options, true) };
}

// Loss after TRAIN.steps against bytes per step (the Pareto widget asks for one point at a time, so it can draw as
// they come): a compressor ± error feedback, and top-k with error feedback over a sweep of k/n (k = round(ratio·256)
// per tensor: 1, 3, 8, 26, 77, 256). The knee: the cheapest top-k + EF whose final loss is within KNEE_SLACK of the
// full gradient's.
export const SWEEP = [0.004, 0.01, 0.03, 0.1, 0.3, 1];
export const KNEE_SLACK = 0.05;
export function paretoPoint(core, key, errorFeedback) {
  const { label, options } = COMPRESSORS[key];
  const r = train(core, options, errorFeedback);
  return { key, label, ef: errorFeedback, bytesPerStep: r.bytesPerStep, final: r.final, diverged: r.diverged };
}
export function sweepPoint(core, ratio) {
  const r = train(core, { compressor: "top-k", ratio }, true);
  return { ratio, bytesPerStep: r.bytesPerStep, final: r.final };
}
export function fullPoint(core) {
  const r = train(core, { compressor: "none" });
  return { bytesPerStep: r.bytesPerStep, final: r.final };
}
export const kneeOf = (sweep, full, slack = KNEE_SLACK) => sweep.find((s) => s.final <= (1 + slack) * full.final) ?? sweep.at(-1);
export function knee(core) {
  const full = fullPoint(core), sweep = SWEEP.map((ratio) => sweepPoint(core, ratio));
  return { full, sweep, knee: kneeOf(sweep, full) };
}

// Pricing on a network: a model of 4 blocks of (1024, 4096) — 33.6 M fp32 parameters, 134 MB of gradient — with each
// compressor on P workers; bytes one worker sends per step (ring algorithms) and the closed-form time.
export const BIG_MODEL = Object.freeze({ layers: 4, width: 1024, hidden: 4096 });
// Between nodes: the course's InfiniBand (web/hardware.js), or a slow 10 Gb/s Ethernet.
export const NETWORKS = Object.freeze({
  infiniband: { label: "InfiniBand HDR, 25 GB/s", network: { alpha: LINKS.infiniband.alpha, beta: LINKS.infiniband.beta } },
  ethernet: { label: "10 Gb/s Ethernet, α 50 µs", network: { alpha: 50e-6, beta: 1 / 1.25e9 } },
});
export const WIRE_WORKERS = [2, 4, 8, 16, 32, 64, 128, 256];
export const WIRE_COMPRESSORS = ["top-k-1", "random-k-1", "int8", "sign", "powersgd-2"];   // + the full gradient: six colours

export function wire(core, { network = "infiniband", workers = WIRE_WORKERS, keys = WIRE_COMPRESSORS } = {}) {
  const net = NETWORKS[network].network;
  const price = (options, P) => {
    const w = core.compressionWire({ ...options, model: BIG_MODEL, workers: P, network: net });
    return { workers: P, bytes: w.bytesPerStep, seconds: w.commSeconds, composes: w.composesWithAllReduce,
      collectives: w.collectives.map((c) => c.collective) };
  };
  return {
    none: workers.map((P) => price({ compressor: "none" }, P)),
    series: keys.map((key) => ({ key, label: COMPRESSORS[key].label, rows: workers.map((P) => price(COMPRESSORS[key].options, P)) })),
  };
}
