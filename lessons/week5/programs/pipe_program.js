// pipe_program.js — Week 5's pipeline as the program every Worker runs, assembled from the source text of real
// module functions (web/programs/pipe_lists and pipe_replay, pipe_device — each also a module the page and the tests import),
// and what the page does with a run: the full model put back together from the devices' chunks (to compare with
// core.trainSingle), and the bubble measured from the RunResult's spans. The devices run the core's schedule; an
// exercise puts the learner's generator (interleavedOps, zeroBubbleOps) first, and the devices run its lists instead.
import * as lists from "../../../web/programs/pipe_lists.js";
import * as replay from "../../../web/programs/pipe_replay.js";
import * as device from "./pipe_device.js";
import { EXAMPLE_PIPE, TRAIN } from "../pipeline_setup.js";

const PARTS = { ...lists, ...replay, ...device };

// The generators a learner may write (one per exercise; web/programs/pipe_lists.js, learnerGenerator).
export const REPLACEABLE = ["interleavedOps", "zeroBubbleOps"];

export function pipeProgram({ learnerCode = "", replaces = [] } = {}) {
  for (const name of replaces) {
    if (!REPLACEABLE.includes(name)) throw new Error(`pipeProgram: ${name} is not a replaceable function`);
  }
  // The learner's code first, so the line numbers of its errors are the editor's.
  return [learnerCode, ...Object.values(PARTS).map(String)].filter(Boolean).join("\n\n") + "\n";
}

// A run's configuration: the Week 5 example (pipeline_setup.js: P = 4, m = 8, v = 2 for interleaved; the MLP with
// L = P·v blocks, Adam) for 3 steps unless fields say otherwise. delayMs (per op of the last step) only for a
// measured run.
export const PIPE_DEFAULTS = Object.freeze({
  schedule: "1f1b", ...EXAMPLE_PIPE,
  model: { ...TRAIN.model, layers: EXAMPLE_PIPE.devices * EXAMPLE_PIPE.chunksPerDevice, residual: true },
  optimizer: TRAIN.optimizer, batch: TRAIN.batch, steps: 3, seed: TRAIN.seed, delayMs: null,
});

export const pipeConfig = (fields = {}) => ({ ...PIPE_DEFAULTS, ...fields });
export const pipeInputs = (config) => Array.from({ length: config.devices }, () => config);

// The full model (mlpInit's order) from the devices' shards. Throws if a tensor is missing or doubled.
export function assembleParams(results, config) {
  const params = new Array(2 * config.model.layers).fill(null);
  for (const r of results) {
    for (const { index, data } of r.shards) {
      if (params[index]) throw new Error(`tensor ${index} came back from two devices`);
      params[index] = data;
    }
  }
  const missing = params.findIndex((p) => !p);
  if (missing >= 0) throw new Error(`no device returned tensor ${missing}`);
  return params;
}

// The step each device ran last, measured from the RunResult: the window from the step's opening barrier to the
// end of the last op on any device (the op ends the devices recorded); per device the time its spans say it
// computed inside the window (compute and send spans — the sleeps are compute), the rest idle.
//   → { makespan (s), busy: [s], opBusy: [s, from the op stamps], idle: [s], idleFraction: [per device], bubbleFraction: Σ idle / (P·makespan),
//       overIdeal: makespan / max busy − 1, timeline: the core's PipelineSpans [{ device, kind, microBatch, chunk, start,
//       end }] (s from the window) }
export function measuredBubble(run) {
  const devices = [...run.results].sort((a, b) => a.device - b.device);
  const t0 = Math.min(...devices.map((r) => r.window.start)) / 1000;
  const makespan = Math.max(...devices.flatMap((r) => r.opTimes.map((t) => t.end))) / 1000 - t0;
  const busy = devices.map((r) => run.spans.filter((s) => s.rank === r.device && s.kind !== "wait")
    .reduce((sum, s) => sum + Math.max(0, Math.min(s.end, t0 + makespan) - Math.max(s.start, t0)), 0));
  const idle = busy.map((b) => Math.max(0, makespan - b));
  // The ops' own durations per device, as the devices stamped them: the drawn timeline, checked against the spans.
  const opBusy = devices.map((r) => r.opTimes.reduce((sum, t) => sum + (t.end - t.start) / 1000, 0));
  const timeline = devices.flatMap((r) => r.opTimes.map((t) => ({ device: r.device, kind: t.kind, microBatch: t.microBatch,
    chunk: t.chunk, start: t.start / 1000 - t0, end: t.end / 1000 - t0 })));
  return { makespan, busy, opBusy, idle, idleFraction: idle.map((x) => x / makespan),
    bubbleFraction: idle.reduce((a, b) => a + b, 0) / (devices.length * makespan),
    overIdeal: makespan / Math.max(...busy) - 1, timeline };
}
