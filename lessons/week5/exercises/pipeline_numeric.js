// pipeline_numeric.js — Week 5's numeric exercises on pipelines (data):
//   w5-interleave  (numeric) the bubble of interleaved 1F1B over the ideal step (core.pipelineTimeline); the usual
//                            mistake is answering with the share of the step instead (its bubbleFraction)
//   w5-optimal-m   (numeric) the best whole number of micro-batches with a per-micro-batch overhead
//                            (core.optimalMicroBatches); the usual mistake is using one device's whole compute time
//                            for a stage's, which overshoots by √P
import { pick } from "../../../web/exercise/params.js";
import { formatSeconds } from "../../../web/units.js";

const interleaved = (core, p) => core.pipelineTimeline({ schedule: "interleaved", devices: p.P, microBatches: p.m,
  chunksPerDevice: p.v });

export const interleaveBubble = {
  id: "w5-interleave",
  kind: "numeric",
  title: "The bubble of interleaving",
  params: (rng) => {
    const P = pick(rng, [4, 8]);
    return { P, m: P * pick(rng, [1, 2, 4]), v: pick(rng, [2, 4]) };
  },
  prompt: (p) => `<p>An interleaved 1F1B pipeline on P = ${p.P} devices, each holding v = ${p.v} chunks of the model,
    runs m = ${p.m} micro-batches per step. Each chunk's forward takes 1/v of a stage's forward, its backward 1/v of a
    stage's backward, and messages are free.</p>
    <p>By how much does the step exceed the ideal one? The ideal is one pipeline device's own work without idling —
    the forwards and backwards of its v chunks for all m micro-batches, m·(t_f + t_bw) in a stage's times — not the time
    one device would take for the whole model. Answer as a fraction of that ideal (<code>0.1</code> or <code>10%</code>).</p>`,
  answer: (p, core) => interleaved(core, p).bubbleOverIdeal,
  // Narayanan et al. 2021: (P − 1)/(v·m) of the ideal time
  oracle: (p) => (p.P - 1) / (p.v * p.m),
  tolerance: { rel: 0.005 },
  unit: "fraction",
  unitSymbol: "",
  wrongAnswer: (p, core) => interleaved(core, p).bubbleFraction,
  hints: [
    "Without interleaving the bubble over the ideal is (P − 1)/m. What does each of the P − 1 ramp slots cost now?",
    "A ramp slot is one chunk's forward and backward: 1/v of a stage's. So the bubble is (P − 1)/(v·m) of the ideal.",
    "The question asks against the ideal step, not as a share of the whole step (that would be (P − 1)/(v·m + P − 1)).",
  ],
  solutionText: `<p>(P − 1)/(v·m) of the ideal (Narayanan et al. 2021): the ramp still has P − 1 slots, but each is one
    chunk, 1/v of a stage. The share of the whole step is smaller, (P − 1)/(v·m + P − 1), because the step includes the
    bubble itself — quote which one you mean. The price is 2m(Pv − 1) point-to-point messages instead of 2m(P − 1).</p>`,
};

export const optimalMicroBatches = {
  id: "w5-optimal-m",
  // How the prompt writes the parameters it does not show as their plain value (tests/exercises/numeric_statements).
  promptShows: { oMs: (v) => formatSeconds(v / 1000) },
  kind: "numeric",
  title: "How many micro-batches?",
  params: (rng) => ({ P: pick(rng, [4, 8, 16]), T1: pick(rng, [2, 4, 6, 8]), oMs: pick(rng, [0.5, 1, 2]) }),
  prompt: (p) => `<p>A model takes ${formatSeconds(p.T1)} for the forward and backward of one mini-batch on one device.
    You cut it into P = ${p.P} equal pipeline stages (1F1B, flushed every step). Every micro-batch costs each stage a fixed
    ${formatSeconds(p.oMs * 1e-3)} of overhead on top of its compute.</p>
    <p>Which whole number of micro-batches m gives the shortest step? (±1 is accepted: the step time is flat there.)</p>`,
  answer: (p, core) => core.optimalMicroBatches({ stages: p.P, compute: p.T1 / p.P, overhead: p.oMs * 1e-3, max: 4096 }).best,
  // the best whole m of (m + P − 1)(T₁/P/m + o), searched by hand
  oracle: (p) => {
    const t = p.T1 / p.P, o = p.oMs * 1e-3, step = (m) => (m + p.P - 1) * (t / m + o);
    let best = 1;
    for (let m = 2; m <= 4096; m++) if (step(m) < step(best)) best = m;
    return best;
  },
  tolerance: { abs: 1 },
  unit: "micro-batches",
  unitSymbol: "",
  wrongAnswer: (p, core) => core.optimalMicroBatches({ stages: p.P, compute: p.T1, overhead: p.oMs * 1e-3, max: 4096 }).best,
  hints: [
    "Write the step as (m + P − 1) slots of τ/m + o, with τ one stage's compute per step, and minimise over m.",
    "m* = √((P − 1)·τ/o).",
    "τ is one stage's compute: the model's time on one device divided by P.",
  ],
  solutionText: `<p>T(m) = (m + P − 1)(τ/m + o) = τ + (P − 1)τ/m + (m + P − 1)o; setting dT/dm = 0 gives m* = √((P − 1)τ/o),
    and since T is convex the best whole m is next to it. The trap is τ: a stage computes 1/P of the model, so τ = T₁/P.
    Using T₁ makes m √P times too large, and every extra micro-batch pays o on every stage.</p>`,
};
