// compression_numeric.js — Week 6's numeric exercise on the wire: bytes one worker sends per step with top-k, which
// cannot be all-reduced and goes by all-gather (compression.h; answered by core.compressionWire).
//   w6-topk-bytes   (P − 1)·Σ_tensors 8·k       (mistake: pricing it as a ring all-reduce, 2·(P − 1)/P·Σ 8·k)
import { pick } from "../../../web/exercise/params.js";
import { formatBytes, formatCount, formatPercent } from "../../../web/units.js";

const model = (p) => ({ layers: p.layers, width: p.width, hidden: 4 * p.width });

export const topkBytes = {
  id: "w6-topk-bytes",
  // How the prompt writes the parameters it does not show as their plain value (tests/exercises/numeric_statements).
  promptShows: { ratio: (v) => `${v * 100}%` },
  kind: "numeric",
  title: "Bytes per step of top-k",
  params: (rng) => ({ layers: pick(rng, [1, 2, 4]), width: pick(rng, [250, 500, 1000]), ratio: pick(rng, [0.01, 0.001]),
    workers: pick(rng, [8, 16, 32, 64]) }),
  prompt: (p) => `<p>A model has ${2 * p.layers} weight matrices, each of ${p.width} × ${4 * p.width} =
    ${formatCount(4 * p.width * p.width)} fp32 values. Each of P = ${p.workers} data-parallel workers compresses every
    matrix's gradient with top-k, keeping k = ${formatPercent(p.ratio)} of its values, each sent as a 4-byte value and a
    4-byte index. The messages are combined with the ring algorithm of the collective top-k needs. How many bytes does
    one worker send per step?</p>`,
  answer: (p, core) => core.compressionWire({ compressor: "top-k", ratio: p.ratio, model: model(p), workers: p.workers }).bytesPerStep,
  // an all-gather of every worker's k values and k indices (8 B a pair): (P − 1)·Σ 8k
  oracle: (p) => (p.workers - 1) * 2 * p.layers * p.ratio * 4 * p.width * p.width * 8,
  tolerance: { rel: 0.01 },
  unit: "bytes",
  unitSymbol: "B",
  // As if top-k could be all-reduced: 2·(P − 1)/P of the message.
  wrongAnswer: (p) => 2 * (p.workers - 1) / p.workers * 2 * p.layers * Math.round(p.ratio * 4 * p.width * p.width) * 8,
  hints: [
    "One worker's message: 8 bytes per kept value, k = ratio·n per matrix, summed over the matrices.",
    "Two workers' top-k messages have different indices: their sum is not a top-k message. Which collective is left?",
    "A ring all-gather of P messages: each worker sends P − 1 of them (its own and then the ones it forwards).",
  ],
  solutionText: `<p>Top-k is not linear, so it cannot ride a ring all-reduce: it is all-gathered. Each worker sends
    (P − 1)·message with message = Σ 8k. Priced as an all-reduce it would be 2·(P − 1)/P·message — P/2 times less, which
    is the mistake that makes top-k look better at scale than it is. At P ≥ n/k the all-gather sends more than the dense
    all-reduce of 2·(P − 1)/P·4n bytes.</p>`,
};
