// pipeline_segments.js — the best number of segments for a pipelined chain broadcast: T(k) =
// (k + p − 2)(α + βn/k) is least at k* = √((p − 2)nβ/α) (Johnsson & Ho 1989; Thakur, Rabenseifner & Gropp 2005).
// The core's bestSegments gives the whole k with the least T(k); its schedule, simulated, is the page's widget.
import { pick } from "../../../web/exercise/params.js";
import { formatRate } from "../../../web/units.js";

const US = 1e-6;   // s per µs
const GBS = 1e9;   // B/s per GB/s
const request = (p) => ({ ranks: p.ranks, bytes: p.sizeMB * 1e6, alpha: p.alphaUs * US, beta: 1 / (p.bwGBs * GBS) });

export const bestSegments = {
  id: "w2-best-segments",
  kind: "numeric",
  title: "How many segments?",
  params: (rng) => ({
    ranks: pick(rng, [16, 32, 64, 128]), sizeMB: pick(rng, [16, 64, 256, 1000]),
    alphaUs: pick(rng, [2, 5, 10, 20]), bwGBs: pick(rng, [12.5, 25, 50]),
  }),
  prompt: (p) => `<p>Rank 0 broadcasts n = ${p.sizeMB} MB (1 MB = 10<sup>6</sup> B) down a chain of p = ${p.ranks}
    ranks, 0 → 1 → … → ${p.ranks - 1}, cut into K equal segments; every rank forwards a segment as soon as it has
    it. Each rank can send one message and receive one at the same time, and a message of m bytes takes α + β·m,
    with α = ${p.alphaUs} µs and ${formatRate(p.bwGBs * GBS)} (β = 1/bandwidth). These numbers are drawn for you.</p>
    <p>Which whole number of segments K makes the broadcast finish soonest? (Within ±1 segment or 2%, whichever is looser, is accepted: near the best K the time hardly changes.)</p>`,
  answer: (p, core) => core.bestSegments("pipelined-chain", request(p)).segments,
  // Without the core: the whole k with the least (k + p − 2)(α + βn/k), the better of ⌊k*⌋ and ⌈k*⌉.
  oracle: (p) => {
    const { ranks, bytes, alpha, beta } = request(p);
    const T = (k) => (k + ranks - 2) * (alpha + (beta * bytes) / k);
    const star = Math.sqrt(((ranks - 2) * bytes * beta) / alpha);
    const lo = Math.max(1, Math.floor(star)), hi = Math.max(1, Math.ceil(star));
    return T(hi) < T(lo) ? hi : lo;
  },
  tolerance: { abs: 1, rel: 0.02 },
  unit: "segments",
  unitSymbol: "",
  // The start-up forgotten: minimising k·α + nβ/k-like terms without the p − 2 steps of filling the chain.
  wrongAnswer: (p) => Math.round(Math.sqrt((p.sizeMB * 1e6) / (p.bwGBs * GBS) / (p.alphaUs * US))),
  hints: [
    "Write the time as T(K) = (K + p − 2)(α + βn/K) and multiply it out: which terms grow with K, which shrink?",
    "T(K) = Kα + (p − 2)α + nβ + (p − 2)nβ/K. Only Kα and (p − 2)nβ/K depend on K; set the derivative to zero.",
    "K* = √((p − 2)nβ/α); the best whole K is ⌊K*⌋ or ⌈K*⌉, whichever gives the smaller T.",
  ],
  solutionText: `<p>T(K) = Kα + (p − 2)α + nβ + (p − 2)nβ/K. More segments add one α each (the pipeline drains one
    step per segment) but shrink the start-up steps, each now carrying only n/K bytes. The two K-dependent terms balance
    at K* = √((p − 2)nβ/α), where T = (√((p − 2)α) + √(nβ))². The optimum grows with √n: long messages want many small
    segments. Forgetting the p − 2 start-up steps gives √(nβ/α), far too few segments for a long chain. Real libraries
    fix the segment size instead (NCCL pipelines in chunks of a few hundred kB), which is near K* over a wide range of n.
    The pipelined <em>tree</em> costs (2K + A − 2)(α + βn/K): a shorter start-up but twice the bandwidth term.</p>`,
};
