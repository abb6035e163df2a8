// megatron_block.js — code exercise "w5-megatron": from a bare split of both matrices by their output features (two
// all-gathers per block: the hidden activations and the output) to Megatron's pair — W_in by rows, the activation
// local, W_out by the matching columns, one all-reduce of the output per block forward. Checked on the run: every
// rank's output equals the single-device blocks' to 1e-12, and the trace shows per block exactly one all-reduce's
// bytes, 2(t − 1)/t · rows·D·8 from every rank, and no all-gather.
import { intBetween, pick } from "../../../web/exercise/params.js";
import { fail, pass, unfinished } from "../../../web/exercise/run_checks.js";
import { formatBytes, formatNumber, plural } from "../../../web/units.js";
import { maxRelativeDifference } from "../../../web/exercise/compare_training.js";
import { messagesOf } from "../../../web/exercise/tagged_messages.js";
import { megatronInputs, megatronProgram, singleDeviceForward } from "../programs/megatron_program.js";
import { codeExercise } from "../../../web/exercise/code_exercise.js";

const starter = `// One MLP block, y = x + act(x·W_inᵀ)·W_outᵀ, on rank tp.rank of t = tp.size ranks.
// x (rows × D): the same on every rank. w.wIn (F × D), w.wOut (D × F): the WHOLE
// matrices, row-major, on every rank — which slice a rank uses is up to you.
//   k.rowsOf(m, cols, begin, end)      rows [begin, end) of m (cols columns), a copy
//   k.columnsOf(m, cols, begin, end)   its columns [begin, end), a copy
//   k.blockInForward(x, wIn)           { pre, act }: (rows × Fl) for wIn (Fl × D)
//   k.blockOutForward(a, wOut, width = D)   a·wOutᵀ (rows × width), wOut (width × Fl)
//   await tp.allGather(part, t * part.length)   every rank's part, in rank order
//   k.sideBySide(gathered, t)          t parts (rows × c) side by side: (rows × t·c)
//   await tp.allReduce(buf)            sums buf over the group, in place
// This version cuts BOTH matrices by their output features: two all-gathers a block.
// TODO: Megatron's pair — no all-gather, one all-reduce of the block's output.
async function blockForward(x, w, tp, k) {
  const { D, F } = w, t = tp.size, r = tp.rank;
  const f = F / t, d = D / t;
  // W_in by rows: this rank's F/t hidden units, whole. (rows × F/t)
  const { act } = k.blockInForward(x, k.rowsOf(w.wIn, D, r * f, (r + 1) * f));
  const A = k.sideBySide(await tp.allGather(act, t * act.length), t);     // (rows × F)
  // W_out by rows too: this rank's D/t output features need all of A. (rows × D/t)
  const part = k.blockOutForward(A, k.rowsOf(w.wOut, F, r * d, (r + 1) * d), d);
  const y = k.sideBySide(await tp.allGather(part, t * part.length), t);   // (rows × D)
  for (let i = 0; i < y.length; i++) y[i] += x[i];
  return y;
}
`;

const solution = `// Megatron (Shoeybi et al. 2019): W_in by rows — the paper's column-parallel A, since
// the course stores W_in = Aᵀ — then W_out by the matching columns (row-parallel B).
async function blockForward(x, w, tp, k) {
  const { D, F } = w, t = tp.size, r = tp.rank, f = F / t;
  // f, forward: the identity — x is already whole on every rank. act is elementwise,
  // so this rank's F/t hidden units stay whole: (rows × F/t)
  const { act } = k.blockInForward(x, k.rowsOf(w.wIn, D, r * f, (r + 1) * f));
  // The SAME hidden units' columns of W_out: this rank's term of Σ_r A_r·W_out,rᵀ.
  const y = k.blockOutForward(act, k.columnsOf(w.wOut, F, r * f, (r + 1) * f));
  await tp.allReduce(y);                              // g, forward: the sum (rows × D)
  for (let i = 0; i < y.length; i++) y[i] += x[i];    // the residual once, after it
  return y;
}
`;

const MEGATRON_OUT = "  const y = k.blockOutForward(act, k.columnsOf(w.wOut, F, r * f, (r + 1) * f));\n";
const G = "  await tp.allReduce(y);                              // g, forward: the sum (rows × D)\n";

const wrongs = [
  { name: "the all-gather of the hidden activations kept",
    code: solution.replace(MEGATRON_OUT, "  const A = k.sideBySide(await tp.allGather(act, t * act.length), t);\n" +
      "  const y = k.blockOutForward(A, w.wOut);\n").replace(G, ""),
    expect: /all-gathered [\d.,]+ \w?B of activations[\s\S]*columns/ },
  { name: "both matrices split by rows (the same way)",
    code: solution.replace("k.columnsOf(w.wOut, F, r * f, (r + 1) * f)", "k.rowsOf(w.wOut, F, r * f, (r + 1) * f)"),
    expect: /cut the same way[\s\S]*W_out by its columns/ },
  { name: "the partial outputs used without the all-reduce",
    code: solution.replace(G, ""),
    expect: /no rank sent anything[\s\S]*partial sum/ },
  { name: "f all-reduced in forward too (two all-reduces per block)",
    code: solution.replace("  const { act } = k.blockInForward(x,",
      "  const xs = Float64Array.from(x);\n  await tp.allReduce(xs);\n  for (let i = 0; i < xs.length; i++) xs[i] /= t;\n" +
      "  const { act } = k.blockInForward(xs,"),
    expect: /in 2 all-reduces[\s\S]*f is the identity/ },
  { name: "the output all-reduced twice",
    code: solution.replace(G, G + G),
    expect: /ran 2 all-reduces in block 0; Megatron's forward has one/ },
  { name: "W_out's columns cut at the D/t offsets",
    code: solution.replace("k.columnsOf(w.wOut, F, r * f, (r + 1) * f)", "k.columnsOf(w.wOut, F, r * (D / t), r * (D / t) + f)"),
    expect: /one all-reduce per block[\s\S]*same hidden units/ },
];

// A case: t ranks, D and F multiples of t with F ≠ D, 2 blocks.
function megatronCase(rng, t, D, F, rows) {
  const model = { layers: 2, width: D, hidden: F, activation: pick(rng, ["gelu", "relu", "tanh"]), residual: true };
  const config = { model, rows, seed: intBetween(rng, 1, 1000), ranks: t };
  return { ranks: t, config, inputs: megatronInputs(config) };
}

function cases(rng) {
  return [
    megatronCase(rng, pick(rng, [2, 4]), 8, pick(rng, [16, 24]), intBetween(rng, 2, 6)),
    megatronCase(rng, 2, 6, 12, intBetween(rng, 3, 5)),
  ];
}

// Hidden: t = 8 (two hidden units per rank) and t = 3.
const edgeCases = (rng) => [megatronCase(rng, 8, 8, 16, 2), megatronCase(rng, 3, 6, 18, 4)];

// Bytes each rank sent per block, by kind, from the trace.
function trafficOf(run, ranks, blocks) {
  return Array.from({ length: blocks }, (_, b) => Array.from({ length: ranks }, (_, r) => {
    const of = (kind) => messagesOf(run.trace, `${kind}:tp`, b).filter((m) => m.src === r);
    const reduce = of("all-reduce"), gather = of("all-gather");
    return { reduceBytes: reduce.reduce((n, m) => n + m.bytes, 0), reduceCalls: new Set(reduce.map((m) => m.tag)).size,
             gatherBytes: gather.reduce((n, m) => n + m.bytes, 0), any: reduce.length + gather.length };
  }));
}

const relative = (a, b) => maxRelativeDifference([a], [b]);

function check(run, testCase, core) {
  const bad = unfinished(run);
  if (bad) {
    const shapes = run.status === "error" && /blockOutForward|numbers|multiple/.test(run.error?.message ?? "");
    return shapes ? fail(bad.message + " The shapes do not fit when the two matrices are cut the same way: W_in by rows " +
      "leaves each rank F/t whole hidden units, so split W_out by its columns — the same F/t hidden units.") : bad;
  }
  const { config, ranks: t } = testCase, { model, rows } = config, D = model.width;
  const want = singleDeviceForward(core, config);
  const traffic = trafficOf(run, t, model.layers);
  const oneReduce = (2 * (t - 1) / t) * rows * D * 8;
  let worst = 0, who = 0;
  for (let r = 0; r < t; r++) {
    const y = run.results[r]?.y;
    const gap = y?.length === want.length ? relative(y, want) : Infinity;
    if (!(gap <= worst)) { worst = gap; who = r; }
  }
  if (!(worst < 1e-12)) {
    const head = `Rank ${who}'s output differs from one device's by ${Number.isFinite(worst) ? formatNumber(worst, 2) : "everything"} (relative). `;
    const sent = traffic[0].reduce((n, x) => n + x.any, 0);
    const calls = Math.max(...traffic[0].map((x) => x.reduceCalls));
    if (sent === 0) {
      return fail(head + "In block 0 no rank sent anything: each rank's y is only its own F/t hidden units' share of the " +
        "output, a partial sum. Megatron's g all-reduces it, then the residual is added.");
    }
    if (calls >= 2) {
      return fail(head + `Your ranks ran ${calls} all-reduces in block 0; Megatron's forward has one, g, after W_out. ` +
        "f is the identity in forward (x is already whole everywhere): its all-reduce belongs to the backward pass.");
    }
    if (calls === 1 && traffic[0].every((x) => x.gatherBytes === 0)) {
      return fail(head + "The trace shows one all-reduce per block, as in Megatron's block, so the terms it summed are " +
        "wrong: the W_out columns a rank uses must be the same hidden units as its W_in rows, [r·F/t, (r + 1)·F/t) — " +
        "and the residual is added once, after the sum.");
    }
    return fail(head + "Split W_in by rows and W_out by the matching columns; all-reduce the partial output once.");
  }
  for (let b = 0; b < model.layers; b++) {
    for (let r = 0; r < t; r++) {
      const x = traffic[b][r];
      if (x.gatherBytes > 0) {
        return fail(`The outputs equal one device's, but in block ${b} rank ${r} all-gathered ${formatBytes(x.gatherBytes)} of ` +
          `activations. Split W_out by columns — the same F/t hidden units as W_in's rows — and the activation never ` +
          `leaves its rank: one all-reduce of the (${rows} × ${D}) output (${formatBytes(oneReduce)} from each rank) is all ` +
          "a block needs.");
      }
      if (x.reduceBytes !== oneReduce) {
        return fail(`The outputs equal one device's, but in block ${b} rank ${r} sent ${formatBytes(x.reduceBytes)} in ` +
          `${plural(x.reduceCalls, "all-reduce")}; one all-reduce of the (${rows} × ${D}) output sends 2(t − 1)/t · ` +
          `rows·D·8 = ${formatBytes(oneReduce)}. Megatron's forward has exactly one, g: f is the identity in forward.`);
      }
    }
  }
  return pass(`Every rank's output equals the single-device blocks' to ${formatNumber(worst, 2)} (relative), and each ` +
    `block sent one all-reduce of the output — ${formatBytes(oneReduce)} from every rank — and nothing else.`);
}

export const megatronBlock = codeExercise({
  id: "w5-megatron",
  title: "A Megatron block: one all-reduce instead of all-gathers",
  prompt: `<p>The starter runs a stack of two MLP blocks across t tensor-parallel ranks by cutting <em>both</em> weight
    matrices by their output features: each rank computes F/t hidden units, all-gathers the hidden activations so it
    can compute D/t output features, and all-gathers those. Rewrite <code>blockForward</code> as Megatron's pair: W<sub>in</sub>
    by rows (Megatron's column-parallel A, stored transposed), the activation local, W<sub>out</sub> by the matching
    columns, and one all-reduce of the partial output (<em>g</em>) before the residual.</p>
    <p>The checker compares every rank's output with one device's to 10<sup>−12</sup> and reads the trace: per block, one
    all-reduce of (rows × D) from every rank, and no all-gather. Cases have t = 2 to 8, including t = 3.</p>`,
  ranks: 4,
  timeoutMs: 10000,
  program: megatronProgram,
  hints: [
    "x·W_inᵀ's columns are independent: rank r's rows [r·F/t, (r + 1)·F/t) of W_in give the whole hidden units " +
      "r·F/t … (r + 1)·F/t − 1 — and act of them needs nothing from anyone.",
    "A·W_outᵀ = Σ_r A_r·W_out,rᵀ, where A_r are those hidden units and W_out,r the same columns of W_out " +
      "(<code>k.columnsOf(w.wOut, F, …)</code>): each rank holds one term.",
    "One <code>await tp.allReduce(y)</code> makes the sum; add x after it, or every rank's copy of x is counted t times.",
  ],
  solutionText: `<p>Cutting W<sub>in</sub> by its output features leaves each rank whole hidden units, and an elementwise
    activation keeps them whole — exactly the input a cut of W<sub>out</sub> by its <em>input</em> features (its columns)
    needs. The second product then yields a partial sum of the whole output on every rank, and one all-reduce of
    rows × D values (g) replaces two all-gathers, of which the first moved the rows × F activations, F = 4D in a
    transformer. In the backward pass the roles swap: g's backward is the identity and f's backward all-reduces the
    input gradient (the lab's exercise places both). Megatron-LM's column-parallel A is this W<sub>in</sub> cut by rows:
    the paper writes XA with A = W<sub>in</sub><sup>T</sup> (Shoeybi et al. 2019).</p>`,
  starterExpect: /The outputs equal one device's, but in block 0 rank 0 all-gathered \d+ B of activations/,   // the starter all-gathers
}, { starter, solution, wrongs, cases, edgeCases, check });
