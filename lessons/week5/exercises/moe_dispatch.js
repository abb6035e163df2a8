// moe_dispatch.js — code exercise "w5-moe-dispatch": the two all-to-alls of expert parallelism. The router is given;
// the learner buckets each rank's tokens by the rank of their expert into fixed-size buffers (C slots per expert,
// overflow dropped as the core drops it) and, after the experts ran, brings the outputs back, places them at their
// tokens and weights them by the gate. Checked on the run: the loss of the gathered outputs equals
// core.expertParallel's (the single-device layer's to 1e-15) to 1e-12, every token's output the reference's, the
// dropped assignments the core's, and the trace: every rank sends (R − 1)·(E/R)·C·D·8 bytes in each all-to-all.
import { intBetween, pick } from "../../../web/exercise/params.js";
import { fail, pass, unfinished } from "../../../web/exercise/run_checks.js";
import { formatBytes, formatNumber, plural } from "../../../web/units.js";
import { moeInputs, moeProgram, moeReference } from "../programs/moe_program.js";
import { codeExercise } from "../../../web/exercise/code_exercise.js";

const starter = `// Expert parallelism, rank ep.rank of R = ep.size. This rank holds T = layer.tokens
// tokens x (T × D, row-major) and experts [rank·E/R, (rank+1)·E/R): layer.perRank.
// The router is given: choice j of token t goes to expert route.expert[t·k + j] with
// gate route.gate[t·k + j] (k = layer.topK).
// An all-to-all buffer (one per pair of ranks) holds layer.perRank blocks of
// C = layer.capacity slots of D values: slot s of the receiver's l-th expert is
// row l·C + s. Empty slots stay zero.
//   ep.send(q, data) — start it, do not await;  await ep.recv(q) — one per pair.
// dispatch → { slots, received }
//   slots[t·k + j]: the slot that choice took in its expert's block, −1 if dropped:
//     an expert takes C tokens from this rank, first choices of all tokens before
//     any second choice, each in token order; the rest are dropped.
//   received[q]: the buffer from rank q (your own for q = ep.rank).
// The experts then run on what arrived.
async function dispatch(x, route, layer, ep) {
  const { tokens, width: D, topK: k, capacity: C, perRank } = layer;
  const slots = new Int32Array(tokens * k).fill(-1);
  const received = [];
  // TODO
  return { slots, received };
}

// combine → this rank's output y (T × D): y_t = x_t + Σ gate · expert output over
// t's kept choices. outputs[q]: the outputs for rank q's buffer, in its layout.
async function combine(x, route, slots, outputs, layer, ep) {
  const y = Float64Array.from(x);
  // TODO
  return y;
}
`;

const solution = `async function dispatch(x, route, layer, ep) {
  const { tokens, width: D, topK: k, capacity: C, perRank } = layer;
  const slots = new Int32Array(tokens * k).fill(-1);
  const filled = new Array(layer.experts).fill(0);     // slots taken, per expert
  const buffers = Array.from({ length: ep.size }, () => new Float64Array(perRank * C * D));
  for (let j = 0; j < k; j++) {           // first choices before second ones (GShard)
    for (let t = 0; t < tokens; t++) {
      const e = route.expert[t * k + j];
      if (filled[e] === C) continue;      // the expert is full: dropped
      const s = filled[e]++, q = Math.floor(e / perRank), row = (e % perRank) * C + s;
      slots[t * k + j] = s;
      buffers[q].set(x.subarray(t * D, (t + 1) * D), row * D);
    }
  }
  // Fixed size, (E/R)·C·D values to every other rank; my own block stays here.
  for (let q = 0; q < ep.size; q++) if (q !== ep.rank) ep.send(q, buffers[q]);
  const received = [];
  for (let q = 0; q < ep.size; q++) received.push(q === ep.rank ? buffers[q] : await ep.recv(q));
  return { slots, received };
}

async function combine(x, route, slots, outputs, layer, ep) {
  const { tokens, width: D, topK: k, capacity: C, perRank } = layer;
  // The same all-to-all backwards: outputs go to the ranks their tokens came from.
  for (let q = 0; q < ep.size; q++) if (q !== ep.rank) ep.send(q, outputs[q]);
  const back = [];
  for (let q = 0; q < ep.size; q++) back.push(q === ep.rank ? outputs[q] : await ep.recv(q));
  const y = Float64Array.from(x);         // the residual
  for (let t = 0; t < tokens; t++) {
    for (let j = 0; j < k; j++) {
      const s = slots[t * k + j];
      if (s < 0) continue;                // dropped: no expert output
      const e = route.expert[t * k + j], g = route.gate[t * k + j];
      const from = back[Math.floor(e / perRank)], row = (e % perRank) * C + s;
      for (let i = 0; i < D; i++) y[t * D + i] += g * from[row * D + i];
    }
  }
  return y;
}
`;

const wrongs = [
  { name: "no capacity: every assignment kept",
    code: solution.replace("      if (filled[e] === C) continue;      // the expert is full: dropped\n", ""),
    expect: /capacity/ },
  { name: "outputs combined in arrival order, not token order",
    code: solution.replace(/  const y = Float64Array\.from\(x\);[^]*?\n  return y;\n}\n$/, `  const y = Float64Array.from(x);
  let t = 0;
  for (const from of back) {
    for (let row = 0; row < from.length / D && t < tokens; row++) {
      if (from.subarray(row * D, (row + 1) * D).every((v) => v === 0)) continue;   // an empty slot
      for (let i = 0; i < D; i++) y[t * D + i] += route.gate[t * k] * from[row * D + i];
      t++;
    }
  }
  return y;
}
`),
    expect: /another token's|token order/ },
  { name: "expert outputs not weighted by the gate",
    code: solution.replace("y[t * D + i] += g * from[row * D + i]", "y[t * D + i] += from[row * D + i]"),
    expect: /gate/ },
  { name: "every token sent to every rank",
    code: solution.replace(/async function dispatch[^]*?\n}\n/, `async function dispatch(x, route, layer, ep) {
  const { tokens, width: D, topK: k, capacity: C, perRank } = layer;
  const slots = new Int32Array(tokens * k).fill(-1);
  const filled = new Array(layer.experts).fill(0);
  for (let j = 0; j < k; j++) {
    for (let t = 0; t < tokens; t++) {
      const e = route.expert[t * k + j];
      if (filled[e] < C) slots[t * k + j] = filled[e]++;
    }
  }
  // Everyone gets all my tokens and picks the ones for its experts.
  for (let q = 0; q < ep.size; q++) if (q !== ep.rank) { ep.send(q, x); ep.send(q, slots); ep.send(q, route.expert); }
  const received = [];
  for (let q = 0; q < ep.size; q++) {
    const xs = q === ep.rank ? x : await ep.recv(q);
    const ss = q === ep.rank ? slots : await ep.recv(q);
    const es = q === ep.rank ? route.expert : await ep.recv(q);
    const buf = new Float64Array(perRank * C * D);
    for (let a = 0; a < ss.length; a++) {
      const e = es[a];
      if (ss[a] < 0 || Math.floor(e / perRank) !== ep.rank) continue;
      buf.set(xs.subarray(Math.floor(a / k) * D, Math.floor(a / k + 1) * D), ((e % perRank) * C + ss[a]) * D);
    }
    received.push(buf);
  }
  return { slots, received };
}
`),
    expect: /sent [\d.,]+ \w?B in dispatch[\s\S]*only the rows/ },
  { name: "capacity filled token by token (second choices before later first choices)",
    code: solution.replace(`  for (let j = 0; j < k; j++) {           // first choices before second ones (GShard)
    for (let t = 0; t < tokens; t++) {`, `  for (let t = 0; t < tokens; t++) {
    for (let j = 0; j < k; j++) {`),
    expect: /first choices of all tokens before/ },
];

// A case: E experts over R ranks, T tokens per rank; capacity factor 1 (or 1.25) so that the router overflows
// some expert. → the configuration every rank reads.
function moeCase(rng, { R, E, k, T }) {
  const moe = { width: intBetween(rng, 4, 6), hidden: 8, experts: E, topK: k, capacityFactor: pick(rng, [1, 1, 1.25]),
                activation: pick(rng, ["gelu", "relu", "tanh"]) };
  const config = { moe, tokens: T, ranks: R, seed: intBetween(rng, 1, 1000) };
  return { ranks: R, config, inputs: moeInputs(config) };
}

const cases = (rng) => [
  moeCase(rng, { R: pick(rng, [2, 4]), E: 4, k: 2, T: intBetween(rng, 6, 10) }),
  moeCase(rng, { R: 2, E: pick(rng, [2, 4]), k: 1, T: intBetween(rng, 6, 10) }),
];
// Hidden: 8 experts on 4 ranks (two each), and one expert per rank on 8.
const edgeCases = (rng) => [moeCase(rng, { R: 4, E: 8, k: 2, T: 12 }), moeCase(rng, { R: 8, E: 8, k: 1, T: 6 })];

const gap = (a, b) => {
  let worst = 0;
  for (let i = 0; i < b.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]) / (1 + Math.abs(b[i])));
  return worst;
};

function check(run, testCase, core) {
  const bad = unfinished(run);
  if (bad) {
    return /out of bounds|offset/i.test(run.error?.message ?? "") ? fail(bad.message + " A slot past C: an expert takes " +
      "at most C = layer.capacity tokens from each rank (its capacity); the assignments beyond it are dropped (slot −1).") : bad;
  }
  const { config } = testCase, { moe, tokens: T, ranks: R } = config, D = moe.width, k = moe.topK;
  const ref = moeReference(core, config);
  const ep = core.expertParallel({ moe, ranks: R, batch: R * T, seed: config.seed });
  const C = ref.capacity, dropped = run.results.reduce((n, r) => n + r.slots.filter((s) => s < 0).length, 0);
  if (dropped !== ep.dropped) {
    return fail(`Your dispatch dropped ${plural(dropped, "assignment")}; the core's layer with capacity C = ${C} per expert ` +
      `and rank drops ${ep.dropped} (the router wants ${ep.wanted.join(", ")} slots of experts 0 … ${moe.experts - 1}). ` +
      "An expert takes at most C tokens from each rank: the assignments beyond it are dropped (slot −1).");
  }
  for (let r = 0; r < R; r++) {
    const a = run.results[r].slots.findIndex((s, i) => s !== ref.ranks[r].slots[i]);
    if (a >= 0) {
      const t = Math.floor(a / k), j = a % k, show = (s) => (s < 0 ? "dropped" : `slot ${s}`);
      return fail(`On rank ${r}, choice ${j + 1} of token ${t} (expert ${ref.ranks[r].route.expert[a]}) is ` +
        `${show(run.results[r].slots[a])}; the core's layer puts it in ${show(ref.ranks[r].slots[a])}. Fill first choices ` +
        "of all tokens before any second choice, each in token order (GShard): a token's second choice only takes a slot " +
        "no first choice wanted.");
    }
  }
  const y = new Float64Array(R * T * D);
  run.results.forEach((res, r) => y.set(res.y, r * T * D));
  const shape = { layers: 1, width: D, hidden: moe.hidden, activation: moe.activation, residual: false };
  const loss = core.mseLoss(y, core.teacherBatch({ model: shape, seed: config.seed, batch: R * T }).targets).loss;
  for (let r = 0; r < R; r++) {
    const mine = run.results[r].y, want = ref.ranks[r].y;
    if (gap(mine, want) < 1e-12) continue;
    const t = Array.from({ length: T }, (_, i) => i).find((i) => gap(mine.subarray(i * D, (i + 1) * D), want.subarray(i * D, (i + 1) * D)) >= 1e-12);
    if (gap(mine, ref.ranks[r].yUngated) < 1e-12) {
      return fail(`Rank ${r}'s outputs are x + the expert outputs, unweighted (token ${t} first): each expert output is ` +
        "multiplied by its gate, route.gate[t·k + j] — the router's probability (renormalised over the two choices for top-2).");
    }
    return fail(`Token ${t} of rank ${r} got another token's output (or none): its output differs from the single-device ` +
      `layer's by ${formatNumber(gap(mine.subarray(t * D, (t + 1) * D), want.subarray(t * D, (t + 1) * D)), 2)}. The rows come ` +
      "back in the buffer's slot layout, not in token order: choice j of token t went to slot slots[t·k + j] of its expert's " +
      "block on rank ⌊e/(E/R)⌋ — read it from there.");
  }
  if (!(Math.abs(loss - ep.loss) <= 1e-12 * ep.loss)) {
    return fail(`Every token matches the course's reference, but the loss ${formatNumber(loss, 6)} is not core.expertParallel's ${formatNumber(ep.loss, 6)}.`);
  }
  for (const phase of ["dispatch", "combine"]) {
    for (let r = 0; r < R; r++) {
      const bytes = run.trace.filter((m) => m.tag === phase && m.src === r && m.dst !== r).reduce((n, m) => n + m.bytes, 0);
      if (bytes !== ref.bytesPerRank) {
        return fail(`The outputs are right, but rank ${r} sent ${formatBytes(bytes)} in ${phase}; the all-to-all sends ` +
          `(R − 1)·(E/R)·C·D·8 = ${R - 1}·${moe.experts / R}·${C}·${D}·8 = ${formatBytes(ref.bytesPerRank)}: to each other rank ` +
          "only the rows routed to its experts, C slots per expert — never every token to every rank.");
      }
    }
  }
  return pass(`The outputs equal the single-device layer's (loss ${formatNumber(loss, 6)}, core.expertParallel's to ` +
    `${formatNumber(Math.abs(loss - ep.loss) / ep.loss, 2)}), ${plural(dropped, "assignment")} dropped as the core drops them, ` +
    `and each rank sent ${formatBytes(ref.bytesPerRank)} in each all-to-all — (R − 1)·(E/R)·C·D·8 with C = ${C}.`);
}

export const moeDispatch = codeExercise({
  id: "w5-moe-dispatch",
  title: "MoE: all-to-all dispatch and combine",
  prompt: `<p>A mixture-of-experts layer runs on R expert-parallel ranks: each holds T tokens and E/R experts (each one
    of the course's MLP blocks). The router has chosen, for every token, its top-k experts and their gates. Write
    <code>dispatch</code> — bucket this rank's tokens by the rank that holds their expert, into fixed-size buffers of C
    slots per expert, dropping what does not fit as the core does — and <code>combine</code> — send the experts' outputs
    back, place each at its token and weight it by its gate. The harness runs the experts in between.</p>
    <p>The checker compares every token's output with the single-device layer's, the dropped assignments with
    <code>core.expertParallel</code>'s, and the bytes every rank sends in each all-to-all, from the trace, with
    (R − 1)·(E/R)·C·D·8.</p>`,
  ranks: 4,
  timeoutMs: 10000,
  program: moeProgram,
  pageRunsReference: "the experts-workers widget runs the MoE layer on 4 Workers with it",
  hints: [
    "Count the slots each expert has filled from this rank; an assignment that finds C taken is dropped. Go over all " +
      "first choices (j = 0) in token order, then all second choices.",
    "Expert e lives on rank ⌊e/(E/R)⌋ as its local expert e mod (E/R): its slot s is row (e mod (E/R))·C + s of the " +
      "buffer for that rank. Send every other rank its buffer without awaiting, then receive one from each.",
    "In combine the same buffers come back, transformed row by row: the output of choice j of token t is at that same row " +
      "of the buffer from its expert's rank. Add gate × that row to x's row t.",
  ],
  solutionText: `<p>The all-to-all needs a size both sides know before any data moves, so GShard fixes it: C slots per
    expert and sending rank, zero rows where a slot is empty, and the assignments that do not fit are dropped (their
    token keeps its residual). Dispatch and combine are the same all-to-all run twice, in opposite directions, and the
    slot a choice took is all combine needs to find its output again. Each rank sends (R − 1)·(E/R)·C·D values per
    all-to-all whatever the router decided, which is why the capacity factor is a trade: a larger c drops fewer tokens
    and moves more zeros (Lepikhin et al. 2020; Fedus et al. 2021).</p>`,
  starterExpect: /received\[0\] holds no buffer; every all-to-all buffer is \(E\/R\)·C·D = 2·5·5 = 50/,   // the starter sends nothing
}, { starter, solution, wrongs, cases, edgeCases, check });
