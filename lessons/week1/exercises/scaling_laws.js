// scaling_laws.js — Week 1's Amdahl exercises: from an observed speed-up back to the serial fraction
// (Karp & Flatt's "experimentally determined serial fraction", 1990), and from that to the ceiling 1/s.
// Answers come from core.amdahlSerialFraction and core.amdahlLimit.
import { pick } from "../../../web/exercise/params.js";

// Observed speed-ups are a fraction f of N, rounded to one decimal so the prompt shows the exact value used.
const drawRun = (rng) => {
  const processors = pick(rng, [8, 16, 32, 64, 128]);
  const efficiency = pick(rng, [0.5, 0.6, 0.75, 0.8, 0.9]);
  return { processors, speedup: Math.round(processors * efficiency * 10) / 10 };
};

const runText = (p) => `A training job with a fixed amount of work (fixed global batch, fixed number of steps) runs
  <strong>${p.speedup}×</strong> faster on N = ${p.processors} GPUs than on one.`;

export const amdahlFraction = {
  id: "w1-amdahl",
  kind: "numeric",
  title: "Amdahl backwards: the serial fraction",
  params: drawRun,
  prompt: (p) => `<p>${runText(p)} Under Amdahl's law, S(N) = 1 / (s + (1 − s)/N), what serial fraction s explains
    this speed-up?</p><p>Answer as a fraction with three significant figures (<code>0.0667</code>); <code>6.67%</code>
    is accepted too.</p>`,
  answer: (p, core) => core.amdahlSerialFraction(p.speedup, p.processors),
  // Amdahl's S = 1/(s + (1 − s)/N) solved for s
  oracle: (p) => (p.processors / p.speedup - 1) / (p.processors - 1),
  tolerance: { rel: 0.01 },
  unit: "fraction",
  unitSymbol: "",
  wrongAnswer: (p) => 1 - p.speedup / p.processors,   // "1 − efficiency"
  hints: [
    "Set S(N) equal to the observed speed-up and solve for s: 1/S = s + (1 − s)/N.",
    "Multiply out: 1/S − 1/N = s·(1 − 1/N).",
    "s = (1/S − 1/N) / (1 − 1/N) = (N/S − 1) / (N − 1). For 8× on 16 GPUs: (2 − 1)/15 = 0.0667.",
  ],
  solutionText: `<p>From 1/S = s + (1 − s)/N: s = (N/S − 1)/(N − 1). Karp and Flatt (1990) proposed exactly this number as
    a diagnostic: compute it for several N; if it <em>grows</em> with N, the "serial" part is really an overhead that grows
    with N — in distributed training, usually communication. Note that 1 − S/N (the lost efficiency) is much larger than s:
    a small serial fraction already costs a lot of efficiency on many GPUs.</p>`,
};

export const amdahlCeiling = {
  id: "w1-amdahl-limit",
  kind: "numeric",
  title: "Amdahl's ceiling",
  params: drawRun,
  prompt: (p) => `<p>${runText(p)} Assume Amdahl's law holds with the serial fraction this implies. What is the largest
    speed-up any number of GPUs could give this job?</p>`,
  answer: (p, core) => core.amdahlLimit(core.amdahlSerialFraction(p.speedup, p.processors)),
  // 1/s with s from Amdahl's law
  oracle: (p) => (p.processors - 1) / (p.processors / p.speedup - 1),
  tolerance: { rel: 0.01 },
  unit: "× (speed-up)",
  unitSymbol: "×",
  wrongAnswer: (p) => p.speedup,   // "it is already at its best"
  hints: [
    "First find the serial fraction s (the previous exercise).",
    "As N → ∞ the parallel part (1 − s)/N vanishes. What is left of the time?",
    "S(∞) = 1/s = (N − 1)/(N/S − 1). For 8× on 16 GPUs: 15×.",
  ],
  solutionText: `<p>S(∞) = 1/s: however many GPUs run the parallel part, the serial part still takes the fraction s of the
    original time. With s = (N/S − 1)/(N − 1), the ceiling is (N − 1)/(N/S − 1). A job at 8× on 16 GPUs can never exceed
    15×; doubling to 32 GPUs gives only 1/(1/15 + (14/15)/32) ≈ 10.4×. Gustafson's answer is to grow the problem with N
    (weak scaling), which in training means growing the global batch — Week 3 weighs what that costs.</p>`,
};
