// interleaved_schedule.js — code exercise "w5-interleaved-schedule": Megatron's interleaved 1F1B as an operation
// list per device. Device d holds v chunks (d, d + P, …); the learner returns its {op, mb, chunk} in order. The
// pipeline runs on the Workers; checked: training equals one device, every device held no more chunk activations
// than interleaved 1F1B does (the core's count), and the lists replayed with unit times finish at
// (v·m + P − 1)·(t_f + t_bw) — the core's makespan, a bubble (P − 1)/(v·m) of the ideal (Narayanan et al. 2021).
import { intBetween, pick } from "../../../web/exercise/params.js";
import { coreSchedule, fail, overPeak, pipeCase, pipeExercise, trainingVerdict, unitMakespan } from "./pipe_checks.js";

const starter = `// The operations of device \`device\` (0 … devices − 1) for one step of \`microBatches\` micro-batches (a multiple
// of devices), in order. The model is cut into devices · chunksPerDevice chunks; chunk c lives on device c mod P,
// so this device holds chunks device, device + P, … . {op: "F", mb, chunk} runs micro-batch mb forward through a
// chunk (after the chunk before it), {op: "B", mb, chunk} backward (after the chunk after it).
// Interleaved 1F1B is 1F1B over the device's v·m "virtual micro-batches": groups of P micro-batches go through
// one chunk, then the next chunk, …
function interleavedOps(device, devices, microBatches, chunksPerDevice) {
  const ops = [];
  // TODO
  return ops;
}
`;

// The reference solution, as the text a learner writes (a graded term's site leaves it out);
// tests/exercises/week5_pipeline_program.test.mjs proves its lists the core's (core/pipeline/interleaved_one_f_one_b.cpp) for v ≥ 2.
// Interleaved 1F1B (Megatron-LM, Narayanan et al., SC 2021): 1F1B over the device's v·m "virtual micro-batches".
// The k-th forward is micro-batch ⌊k / Pv⌋·P + k mod P through local chunk ⌊k / P⌋ mod v (groups of P micro-batches,
// chunk by chunk); the k-th backward the same micro-batch through local chunk v − 1 − ⌊k / P⌋ mod v. Warm-up:
// 2(P − d − 1) + (v − 1)·P forwards, enough for micro-batch 0 to reach the last chunk and come back.
const solution = `function interleavedOps(device, devices, microBatches, chunksPerDevice) {
  const P = devices, v = chunksPerDevice, total = v * microBatches, ops = [];
  const mbOf = (k) => Math.floor(k / (P * v)) * P + (k % P);
  const forward = (k) => ops.push({ op: "F", mb: mbOf(k), chunk: (Math.floor(k / P) % v) * P + device });
  const backward = (k) => ops.push({ op: "B", mb: mbOf(k), chunk: (v - 1 - (Math.floor(k / P) % v)) * P + device });
  const warmup = Math.min(2 * (P - device - 1) + (v - 1) * P, total);
  for (let k = 0; k < warmup; k++) forward(k);
  for (let k = 0; k < total - warmup; k++) { forward(warmup + k); backward(k); }
  for (let k = total - warmup; k < total; k++) backward(k);
  return ops;
}
`;

// A variant of the solution with one line changed ("" in a graded term's site, where the solution is withheld).
const variant = (from, to) => {
  if (solution && !solution.includes(from)) throw new Error(`interleaved_schedule: the solution has no ${from}`);
  return solution.replace(from, to);
};

const wrongs = [
  { name: "1F1B's warm-up (P − d − 1) with chunks",
    code: variant("Math.min(2 * (P - device - 1) + (v - 1) * P, total)", "Math.min(P - device - 1, total)"),
    expect: /before running F\(0, chunk \d+\): too few warm-up forwards/ },
  { name: "GPipe's order with chunks (every forward, then every backward)",
    code: variant("Math.min(2 * (P - device - 1) + (v - 1) * P, total)", "total"),
    expect: /device \d+ held \d+ chunk activations at once.*interleaved 1F1B holds \d+.*GPipe/ },
  { name: "one round of P warm-up forwards too many",
    code: variant("Math.min(2 * (P - device - 1) + (v - 1) * P, total)", "Math.min(2 * (P - device - 1) + v * P, total)"),
    expect: /device \d+ held \d+ chunk activations at once.*interleaved 1F1B holds \d+/ },
  { name: "the backwards through the chunks in forward order",
    code: variant("(v - 1 - (Math.floor(k / P) % v)) * P + device", "(Math.floor(k / P) % v) * P + device"),
    expect: /cannot run: the schedules deadlock/ },
  { name: "one micro-batch through all its chunks before the next (depth-first)",
    code: variant("const mbOf = (k) => Math.floor(k / (P * v)) * P + (k % P);", "const mbOf = (k) => Math.floor(k / v);")
      .replace("(Math.floor(k / P) % v) * P + device }", "(k % v) * P + device }")
      .replace("(v - 1 - (Math.floor(k / P) % v)) * P + device", "(v - 1 - (k % v)) * P + device"),
    // with m > P the lists deadlock; with m = P they run, slower
    expect: /cannot run: the schedules deadlock: device \d+ waits at F|finishes at t = \d+; interleaved 1F1B finishes at \(v·m \+ P − 1\)·\(t_f \+ t_bw\) = \d+/ },
];

function cases(rng) {
  return [
    pipeCase(rng, { schedule: "interleaved", devices: 4, microBatches: 8, chunksPerDevice: 2 }),
    pipeCase(rng, { schedule: "interleaved", devices: 2, microBatches: pick(rng, [2, 4, 6]), chunksPerDevice: 3 }),
    pipeCase(rng, { schedule: "interleaved", devices: 3, microBatches: 3 * intBetween(rng, 1, 2), chunksPerDevice: 2,
      blocksPerChunk: 2 }),
  ];
}

// Hidden: m = P (one group) with v = 4, and 8 devices.
function edgeCases(rng) {
  return [
    pipeCase(rng, { schedule: "interleaved", devices: 2, microBatches: 2, chunksPerDevice: 4 }),
    pipeCase(rng, { schedule: "interleaved", devices: 8, microBatches: 8, chunksPerDevice: 2 }),
  ];
}

function check(run, testCase, core) {
  const verdict = trainingVerdict(run, testCase, core);
  if (!verdict.pass) return verdict;
  const { config } = testCase, P = config.devices, m = config.microBatches, v = config.chunksPerDevice;
  const want = coreSchedule(core, config);
  const over = overPeak(run, (d) => want.peaks[d]);
  if (over) {
    return fail(`Training matches, but device ${over.device} held ${over.held} chunk activations at once ` +
      `(P = ${P}, m = ${m}, v = ${v}); interleaved 1F1B holds ${over.bound} there: min(2(P − d − 1) + (v − 1)·P + 1, v·m). ` +
      (over.held === v * m ? "That is every micro-batch through every chunk: GPipe's memory. " : "") +
      "Start backwards as soon as micro-batch 0 is back: after 2(P − d − 1) + (v − 1)·P warm-up forwards, alternate F and B.");
  }
  const makespan = unitMakespan(run);
  if (makespan > want.makespan) {
    return fail(`Training matches and no device held too much, but with unit times (t_f = 1 per chunk, a backward 2) ` +
      `your lists finish at t = ${makespan}; interleaved 1F1B finishes at (v·m + P − 1)·(t_f + t_bw) = ${want.makespan} ` +
      `(P = ${P}, m = ${m}, v = ${v}). Send micro-batches through a chunk in groups of P before moving to the next ` +
      "chunk, so every device has work while the first group travels.");
  }
  return { ...verdict, message: `${verdict.message} No device held more chunk activations than interleaved 1F1B, and ` +
    `the lists take (v·m + P − 1)·(t_f + t_bw) = ${want.makespan} time units: a bubble of (P − 1)/(v·m) of the ideal.` };
}

export const interleavedSchedule = pipeExercise("interleavedOps", {
  id: "w5-interleaved-schedule",
  title: "An interleaved 1F1B schedule on the Workers",
  prompt: `<p>Interleaving gives each of the P devices v chunks of the model — device d holds chunks d, d + P, …,
    d + (v − 1)P — so a micro-batch goes round the devices v times and the fill and drain shrink v-fold. Write
    <code>interleavedOps(device, devices, microBatches, chunksPerDevice)</code>, returning the device's operations
    <code>{op: "F" | "B", mb, chunk}</code> in order (m is a multiple of P). It is 1F1B over the v·m pairs (micro-batch,
    chunk) a device runs: a warm-up of min(2(P − d − 1) + (v − 1)·P, v·m) forwards on device d (counting from 0) before
    its first backward, then one forward and one backward in turn, then the remaining backwards.</p>
    <p>Every device is a Worker holding only its chunks; it sends activations to the next chunk's device and gradients
    to the previous one. The checker compares the trained parameters with one device, reads how many chunk activations
    each device kept at its peak, and replays your lists with unit times per chunk — a chunk's forward t_f = 1 and its
    whole backward t_bw = 2 (a chunk is 1/v of a stage) — they must finish in (v·m + P − 1)·(t_f + t_bw) of those units,
    the core's interleaved schedule.</p>`,
  hints: [
    "Count the device's work as v·m virtual micro-batches k = 0 … v·m − 1. Forward k is micro-batch " +
      "⌊k / (P·v)⌋·P + k mod P through local chunk ⌊k / P⌋ mod v: P micro-batches through chunk d, the same P through " +
      "chunk d + P, …, then the next P micro-batches.",
    "Backward k is the same micro-batch through local chunk v − 1 − ⌊k / P⌋ mod v: the gradients come back through the " +
      "last chunk first.",
    "Warm-up: min(2(P − d − 1) + (v − 1)·P, v·m) forwards, then one forward and one backward, then the remaining " +
      "backwards — 1F1B over the virtual micro-batches.",
  ],
  solutionText: `<p>Interleaved 1F1B is 1F1B on virtual micro-batches. Micro-batches enter in groups of P, each group
    going through one chunk of every device before the next chunk, so a device always has a forward to run while the
    group travels. Device d needs 2(P − d − 1) + (v − 1)·P warm-up forwards before micro-batch 0 returns through its
    last chunk. The fill and drain cost (P − 1)(t_f + t_bw) in chunk times, 1/v of a stage each, so the bubble is
    (P − 1)/(v·m) of the ideal, paid for with 2·m·(P·v − 1) messages instead of 2·m·(P − 1) and more activations
    (Narayanan et al., SC 2021).</p>`,
  starterExpect: /runs 0 forwards and 0 backwards, expected 16 of each \(m = 8 micro-batches × 2 chunks\)/,   // an empty schedule
}, { starter, solution, wrongs, cases, edgeCases, check });
