// live_program.js — Week 6's live training program as the source text every Worker runs (the course's model
// kernels web/programs/replica_model.js, the flat-parameter helpers web/programs/param_keys.js, the course's ring
// web/programs/ring.js, ring_gather.js, live_train.js — each also a module the page
// and the tests import), its inputs, and what the page does with a run: the committed checkpoints, the final θ,
// and the references it must equal (the core's trainSingle, trainElastic, trainCompressed, compressionWire).
import { dpKernels, forwardLoss, localGradients, mlpForward, backwardGradients } from "../../../web/programs/replica_model.js";
import { flattenParams, splitParams } from "../../../web/programs/param_keys.js";
import * as ring from "../../../web/programs/ring.js";
import { ringGatherMessages } from "./ring_gather.js";
import { compressedMean, main } from "./live_train.js";

const PARTS = [dpKernels, forwardLoss, localGradients, mlpForward, backwardGradients, flattenParams, splitParams,
  ...Object.values(ring), ringGatherMessages, compressedMean, main];

export const liveProgram = () => PARTS.map((f) => f.toString()).join("\n\n") + "\n";

// The failure and elastic runs: a 2-block MLP (D = 8, F = 32), global batch 24 (divisible by 8, 6, 4 and 3), SGD.
export const LIVE = Object.freeze({ model: Object.freeze({ layers: 2, width: 8, hidden: 32 }), batch: 24, lr: 0.05,
  seed: 0, steps: 60, checkpointEvery: 10, stepDelayMs: 40 });
// The compression runs: compression_setup.js's TRAIN (4 workers × 4 rows, η 0.05, seed 3), fewer steps.
export const LIVE_COMPRESSION = Object.freeze({ model: Object.freeze({ layers: 2, width: 8, hidden: 32 }), workers: 4,
  batch: 16, lr: 0.05, seed: 3, steps: 100, evalBatch: 32, ratio: 0.01 });

const everyone = (P) => Array.from({ length: P }, (_, r) => r);

// One run's input (the same for every rank). fields: LIVE's, plus start, worlds, compression, wire.
export function liveInput(P, fields = {}) {
  return { ...LIVE, start: null, worlds: [{ step: 0, members: everyone(P) }], compression: null, wire: "fp64",
    evalBatch: 32, heldOut: false, ...fields };
}

// A checkpoint store held by the page: shards arrive in ctx.progress values; step s is committed when its shards
// cover θ. → { take(value), committed: { step, params } }.
export function checkpointStore(start) {
  const pending = new Map();   // step → { shards, got: [{ begin, end, values }] }
  const store = {
    committed: start,          // { step, params: Float64Array }
    take(value) {
      if (value?.kind !== "checkpoint" || value.step <= store.committed.step) return false;
      const entry = pending.get(value.step) ?? pending.set(value.step, { shards: value.shards, got: [] }).get(value.step);
      entry.got.push(value);
      if (entry.got.length < entry.shards) return false;
      const params = new Float64Array(entry.got.reduce((m, s) => Math.max(m, s.end), 0));
      for (const s of entry.got) params.set(s.values, s.begin);
      store.committed = { step: value.step, params };
      for (const step of pending.keys()) if (step <= value.step) pending.delete(step);
      return true;
    },
  };
  return store;
}

export const initialParams = (core, c = LIVE) => flattenParams(core.mlpInit({ ...c.model, seed: c.seed + 1 }));

// One device on the same batches from the same start: the final θ every live run must reach (to rounding).
export function singleDevice(core, c = LIVE) {
  const r = core.trainSingle({ model: c.model, optimizer: { kind: "sgd", lr: c.lr }, batch: c.batch, steps: c.steps, seed: c.seed });
  return { params: flattenParams(r.params), losses: Array.from(r.losses) };
}

// The core's elastic trainer on the same schedule (replicated state: plain data parallelism, as on the Workers).
export function elasticReference(core, P, dropAt, survivors, c = LIVE) {
  const r = core.trainElastic({ model: c.model, optimizer: { kind: "sgd", lr: c.lr }, batch: c.batch, steps: c.steps,
    seed: c.seed, workers: P, changes: [{ step: dropAt, workers: survivors }], replicated: true });
  return { losses: Array.from(r.losses), workers: Array.from(r.workers), maxRelativeDifference: r.maxRelativeDifference };
}

// A compression run's input: the full gradient by a ring all-reduce of fp32 (compressor "none"), or top-k.
export function compressionInput(compressor, errorFeedback, c = LIVE_COMPRESSION) {
  return liveInput(c.workers, { ...c, checkpointEvery: 0, stepDelayMs: 0, wire: "fp32", heldOut: true,
    compression: compressor === "none" ? null : { ratio: c.ratio, errorFeedback } });
}

// The core's compressed trainer and wire model on LIVE_COMPRESSION's settings.
export function compressedReference(core, compressor, errorFeedback, c = LIVE_COMPRESSION) {
  const options = compressor === "none" ? { compressor } : { compressor, ratio: c.ratio };
  const r = core.trainCompressed({ ...options, model: c.model, workers: c.workers, batch: c.batch / c.workers,
    steps: c.steps, lr: c.lr, seed: c.seed, evalBatch: c.evalBatch, errorFeedback });
  const w = core.compressionWire({ ...options, model: c.model, workers: c.workers });
  return { losses: Array.from(r.losses).slice(1), bytesPerStep: w.bytesPerStep };
}

// The ranks still training at the end hold the same θ; the first of them is the run's.
export const finalParams = (run) => run.results.find((r) => r && r.left === null).params;

export function maxAbsDifference(a, b) {
  let worst = 0;
  for (let i = 0; i < b.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

// Bytes one worker sent per step, from the run's trace: rank's, or the mean over the ranks (what compressionWire's
// 2(P−1)/P·n closed form prices when P does not divide n and the ring's chunks differ by one value).
export function traceBytesPerStep(run, steps, rank = null) {
  const sent = run.trace.filter((m) => rank === null || m.src === rank).reduce((s, m) => s + m.bytes, 0);
  return sent / steps / (rank === null ? run.results.length : 1);
}
