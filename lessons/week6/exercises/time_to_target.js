// time_to_target.js — Week 6's capstone exercise: read the best P off a time-to-target sweep.
//   w6-best-p   the wall-clock to the loss target at the fastest P of a sweep, s       (numeric)  § capstone
// The steps to the target at a fixed per-worker batch are given (they fall with P and level off: the global batch
// P·b grows past what the gradient noise can use, McCandlish et al. 2018); a step costs the expected slowest of P
// workers' compute (Week 4's slow-node stragglers) plus a ring all-reduce (Week 2). The answer multiplies the two
// at every P and takes the smallest; the usual mistake is to take the largest P ("more GPUs is always faster").
import { pick } from "../../../web/exercise/params.js";
import { formatCount } from "../../../web/units.js";

export const SWEEP = [1, 2, 4, 8, 16, 32];
const US = 1e-6, MB = 1e6, GBS = 1e9;

// The core's step at P: E[slowest of P] (expectedRoundCompute) + the ring all-reduce (collectiveCost).
function stepSeconds(p, P, core) {
  const speed = { distribution: "slow-node", base: p.computeMs / 1000, slowProbability: p.slowP, slowdown: p.slowdown };
  const comm = P === 1 ? 0 : core.collectiveCost("all-reduce", "ring",
    { ranks: P, bytes: p.gradMB * MB, alpha: p.alphaUs * US, beta: 1 / (p.bwGBs * GBS), gamma: 0 });
  return core.expectedRoundCompute(speed, P, P) + comm;
}
// The same from the published forms: E[max] = t·(1 + (κ − 1)·(1 − (1 − p)^P)); ring 2(P − 1)·(α + n/(P·bw)).
function oracleStep(p, P) {
  const compute = (p.computeMs / 1000) * (1 + (p.slowdown - 1) * (1 - (1 - p.slowP) ** P));
  return compute + 2 * (P - 1) * (p.alphaUs * US + (p.gradMB * MB) / P / (p.bwGBs * GBS));
}
const walls = (p, step) => SWEEP.map((P, i) => p.steps[i] * step(P));

// Steps to the target S_min·(1 + B_noise/(P·b)), rounded: drawn until the fastest P is neither the smallest nor the
// largest and P = 32 is at least 5% slower than it (so the taught mistake cannot pass the tolerance).
function draw(rng) {
  for (;;) {
    const sMin = pick(rng, [200, 300, 400, 600]), noise = pick(rng, [4, 8, 12, 16, 24]);
    const p = { steps: SWEEP.map((P) => Math.round(sMin * (1 + noise / P))), computeMs: pick(rng, [200, 400, 700]),
      slowP: pick(rng, [0.02, 0.05, 0.1]), slowdown: pick(rng, [2, 3, 4]), gradMB: pick(rng, [200, 800, 2000]),
      bwGBs: pick(rng, [12.5, 25, 50]), alphaUs: pick(rng, [5, 10, 20]) };
    const w = walls(p, (P) => oracleStep(p, P)), best = Math.min(...w), at = w.indexOf(best);
    if (at > 0 && at < SWEEP.length - 1 && w.at(-1) > 1.05 * best) return p;
  }
}

export const bestP = {
  id: "w6-best-p",
  kind: "numeric",
  title: "The fastest P to the target",
  params: draw,
  promptShows: {
    steps: (s) => SWEEP.map((P, i) => `P = ${P}: ${formatCount(s[i])}`).join(", "),
  },
  prompt: (p) => `<p>A synchronous data-parallel job trains to a loss target with a fixed batch per worker, so the global
    batch grows with P. The steps it needed, measured: ${SWEEP.map((P, i) => `P = ${P}: ${formatCount(p.steps[i])}`).join(", ")}.</p>
    <p>Each step, every worker computes for ${p.computeMs} ms, except that each worker independently is ${p.slowdown}× slower on
    that step with probability ${p.slowP}; the step waits for the slowest worker (use the expected slowest of the P workers,
    <a href="#expected-slowest">derived in the capstone section</a>).
    Then the ${p.gradMB} MB of gradients are summed by a ring all-reduce, 2(P − 1) messages of n/P bytes each way round, on links of
    α = ${p.alphaUs} µs and ${p.bwGBs} GB/s (P = 1 sends nothing). No failures, no checkpoints.</p>
    <p>Which P reaches the target soonest? Give its wall-clock time to the target, in seconds.</p>`,
  answer: (p, core) => Math.min(...walls(p, (P) => stepSeconds(p, P, core))),
  oracle: (p) => Math.min(...walls(p, (P) => oracleStep(p, P))),
  tolerance: { rel: 0.01 },
  unit: "seconds",
  unitSymbol: "s",
  // "more GPUs is always faster": the largest P of the sweep
  wrongAnswer: (p, core) => walls(p, (P) => stepSeconds(p, P, core)).at(-1),
  slips: [
    { name: "the largest P", value: (p) => walls(p, (P) => oracleStep(p, P)).at(-1),
      explain: "That is P = 32's time. Past some P the steps hardly fall while each step keeps getting dearer: compute every P's product." },
  ],
  hints: [
    "Wall-clock to the target = steps_to_target(P) × seconds per step at P. Compute it for every P and take the smallest.",
    "The slowest of P workers is slow unless none is, and none is with probability (1 − p)^P: E[max] = " +
      "t_compute·(1 + (κ − 1)·(1 − (1 − p)^P)) for a slowdown κ and a probability p.",
    "The ring sends 2(P − 1) messages of n/P bytes: 2(P − 1)·(α + n/(P·bandwidth)). Steps fall ever more slowly with P; the step's cost keeps rising.",
  ],
  solutionText: `<p>At a fixed batch per worker, P workers train on a global batch P times larger. Up to the gradient noise
    scale a larger batch needs proportionally fewer steps; past it, hardly fewer (McCandlish et al. 2018): here the steps
    level off at S_min. Meanwhile every step waits for the slowest of P workers and pays a ring all-reduce, both growing
    with P. Their product, the wall-clock to the target, falls and then rises again: the best P is where the steps stop
    paying for the dearer step. The capstone's sweep finds it the same way, with the steps measured by training.</p>`,
};
