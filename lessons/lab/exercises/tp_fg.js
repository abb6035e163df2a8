// tp_fg.js — code exercise "lab-tp-fg": place Megatron's f and g. The learner gets a tensor-parallel block's
// forward and backward with every matrix product in place and no communication, and adds the two all-reduces
// (g's in forward, f's in backward) and the residual at the right point. Checked by training equality and by
// the trace: exactly two all-reduces of a (rows, D) activation per block per micro-batch.
import { intBetween, pick } from "../../../web/exercise/params.js";
import { fail, labCase, labExercise, trainingVerdict } from "./lab_checks.js";
import { messagesOf } from "../../../web/exercise/tagged_messages.js";

const starter = `// One MLP block on a tensor-parallel rank: w.wIn holds F/tp ROWS of W_in, w.wOut the matching F/tp COLUMNS
// of W_out, so this rank computes F/tp hidden units fully and only a PARTIAL block output.
//   k.blockInForward(x, wIn) → {pre, act}      k.blockOutForward(act, wOut) → Y_t (rows × D)
//   k.blockOutBackward(dy, act, wOut) → {dWOut, dA}   k.blockInBackward(dA, pre, x, wIn) → {dWIn, dX}
//   k.activate(pre) → act      k.residual (true: block(x) = x + branch(x))
//   await tp.allReduce(buffer) sums a Float64Array over the tensor-parallel group, in place.
// TODO: add Megatron's f and g (one all-reduce each) and put the residual where it belongs.
async function tpBlockForward(x, w, tp, k) {
  const { pre, act } = k.blockInForward(x, w.wIn);
  const y = k.blockOutForward(act, w.wOut);
  if (k.residual) for (let i = 0; i < y.length; i++) y[i] += x[i];
  return { y, saved: { x, pre } };
}

async function tpBlockBackward(dy, saved, w, tp, k) {
  const act = k.activate(saved.pre);
  const { dWOut, dA } = k.blockOutBackward(dy, act, w.wOut);
  const { dWIn, dX } = k.blockInBackward(dA, saved.pre, saved.x, w.wIn);
  if (k.residual) for (let i = 0; i < dX.length; i++) dX[i] += dy[i];
  return { dx: dX, dWIn, dWOut };
}
`;

const solution = `// Megatron: f = identity forward / all-reduce backward (before the column-parallel W_in),
//           g = all-reduce forward / identity backward (after the row-parallel W_out).
async function tpBlockForward(x, w, tp, k) {
  const { pre, act } = k.blockInForward(x, w.wIn);        // f forward: x is already on every rank
  const y = k.blockOutForward(act, w.wOut);                // partial: this rank's F/tp hidden units only
  await tp.allReduce(y);                                   // g forward: Y = Σ_t Y_t
  if (k.residual) for (let i = 0; i < y.length; i++) y[i] += x[i];   // once, after the sum
  return { y, saved: { x, pre } };
}

async function tpBlockBackward(dy, saved, w, tp, k) {
  const act = k.activate(saved.pre);
  const { dWOut, dA } = k.blockOutBackward(dy, act, w.wOut);          // g backward: dY is whole everywhere
  const { dWIn, dX } = k.blockInBackward(dA, saved.pre, saved.x, w.wIn);
  await tp.allReduce(dX);                                  // f backward: dX = Σ_t dH_t·W_in,t
  if (k.residual) for (let i = 0; i < dX.length; i++) dX[i] += dy[i];  // once, after the sum
  return { dx: dX, dWIn, dWOut };
}
`;

const G_FORWARD = "  await tp.allReduce(y);                                   // g forward: Y = Σ_t Y_t\n";
const F_BACKWARD = "  await tp.allReduce(dX);                                  // f backward: dX = Σ_t dH_t·W_in,t\n";

const wrongs = [
  // f's backward forgotten: each rank passes back only its own partial input gradient.
  { name: "f's backward all-reduce forgotten",
    code: solution.replace(F_BACKWARD, ""),
    expect: /The loss of step 0 matches, so the forward pass is right[\s\S]*ran 1 all-reduce per block/ },
  { name: "g's forward all-reduce forgotten",
    code: solution.replace(G_FORWARD, ""),
    expect: /the forward pass already differs[\s\S]*ran 1 all-reduce per block/ },
  { name: "the residual added before the all-reduce (counted tp times)",
    code: solution.replace(G_FORWARD + "  if (k.residual) for (let i = 0; i < y.length; i++) y[i] += x[i];   // once, after the sum\n",
      "  if (k.residual) for (let i = 0; i < y.length; i++) y[i] += x[i];\n" + G_FORWARD),
    expect: /the forward pass already differs[\s\S]*before the residual/ },
  { name: "dY all-reduced in backward too (it is already whole)",
    code: solution.replace("  const act = k.activate(saved.pre);\n", "  const act = k.activate(saved.pre);\n  await tp.allReduce(dy);\n"),
    expect: /ran 3 all-reduces per block and micro-batch; Megatron's block needs exactly two/ },
  { name: "the forward's return forgotten",
    code: solution.replace("  return { y, saved: { x, pre } };\n", ""),
    expect: /tpBlockForward must return \{ y, saved \} \(it returned nothing: is its return missing\?\)/ },
];

function cases(rng) {
  return [
    labCase({ grid: { dp: 1, tp: pick(rng, [2, 4]), pp: 1 }, seed: intBetween(rng, 1, 1000) }),
    labCase({ grid: { dp: 2, tp: 2, pp: 1 }, batch: 16, seed: intBetween(rng, 1, 1000),
      model: { layers: 3, width: 6, hidden: 12, activation: "relu", residual: pick(rng, [true, false]) } }),
  ];
}

// Hidden: 4 tensor-parallel ranks inside 2 pipeline stages, and tp = 8 (one hidden unit pair per rank).
function edgeCases(rng) {
  return [
    labCase({ grid: { dp: 1, tp: 4, pp: 2 }, microBatches: 2, batch: 16, seed: intBetween(rng, 1, 1000) }),
    labCase({ grid: { dp: 1, tp: 8, pp: 1 }, batch: 8, steps: 1, seed: intBetween(rng, 1, 1000),
      model: { layers: 2, width: 4, hidden: 16, activation: "gelu", residual: true } }),
  ];
}

function check(run, testCase, core) {
  const verdict = trainingVerdict(run, testCase, core);
  const { config, ranks } = testCase;
  const rows = config.batch / (config.grid.dp * config.microBatches);
  const p = config.grid.tp, blocks = config.model.layers / config.grid.pp;
  const perBlock = blocks * config.microBatches * 2 * (p - 1);      // messages of one all-reduce per block and micro-batch
  const sentBy = (rank) => messagesOf(run.trace, "all-reduce:tp", config.steps - 1).filter((m) => m.src === rank);
  if (!verdict.pass) {
    if (run?.status === "error") return verdict;   // it threw: its message (a missing return, a shape) says why
    const calls = run.status === "ok" ? sentBy(0).length / perBlock : 2;
    const count = calls === 2 ? "" : ` Your ranks ran ${calls} all-reduce${calls === 1 ? "" : "s"} per block and ` +
      "micro-batch; Megatron's block needs exactly two: g after W_out in forward, f on the input gradient in backward.";
    return { ...verdict, message: verdict.message.trimEnd() + count + " In forward, the partial outputs Y_t must be summed " +
      "before the residual; in backward, the partial input gradients dX_t likewise." };
  }
  const expected = 2 * perBlock;                                    // 2 all-reduces per block, 2(p − 1) messages each
  const bytes = 2 * blocks * config.microBatches * (2 * (p - 1) / p) * rows * config.model.width * 8;
  for (let rank = 0; rank < ranks; rank++) {
    const sent = sentBy(rank);
    const total = sent.reduce((n, m) => n + m.bytes, 0);
    if (sent.length !== expected || Math.abs(total - bytes) > 8 * p) {
      return fail(`Training matches, but rank ${rank} sent ${sent.length} all-reduce messages (${total} B) in a step; ` +
        `two all-reduces of a (${rows} × ${config.model.width}) activation per block take ${expected} messages ` +
        `(${Math.round(bytes)} B) — all-reduce only what f and g need.`);
    }
  }
  return verdict;
}

export const tpFg = labExercise({
  id: "lab-tp-fg",
  title: "Tensor parallelism: place f and g",
  prompt: `<p>In a Megatron block W<sub>in</sub> is split by rows and W<sub>out</sub> by columns across the tp ranks, so
    each rank computes its F/tp hidden units completely — no communication inside the block — and a partial output.
    The starter's forward and backward do every product and no communication: add the two all-reduces, Megatron's
    <em>g</em> (forward) and <em>f</em> (backward), and make sure the residual is added exactly once.</p>
    <p>The trainer runs on 2 or 4 tensor-parallel ranks and on a 2 × 2 data × tensor grid; the checker compares the
    trained parameters with one device and counts the all-reduces in the trace: two per block per micro-batch.</p>`,
  replaces: ["tpBlockForward", "tpBlockBackward"],
  hints: [
    "Y = A·W_outᵀ = Σ_t A_t·W_out,tᵀ: each rank's <code>y</code> is one term of that sum. Which call makes it whole?",
    "In backward, dX = dH·W_in = Σ_t dH_t·W_in,t — again one term per rank. dY needs nothing: it is whole on every rank.",
    "Add the residual after the all-reduce: x (and dY) are identical on every rank, so adding them before the sum " +
      "would count them tp times.",
  ],
  solutionText: `<p>The column-parallel first layer needs its input x on every rank (f is the identity forward) and
    produces hidden units that never leave the rank: GeLU is elementwise, so no communication is needed in the
    middle. The row-parallel second layer produces partial sums, which g all-reduces. Backward is the mirror image:
    g's backward is the identity and f's backward all-reduces the input gradient. Two all-reduces of a (B, D)
    activation per block per step, forward and backward — traffic that grows with the batch, not the parameters,
    which is why tensor parallelism stays inside a node on NVLink (Shoeybi et al. 2019; Narayanan et al. 2021).</p>`,
  starterExpect: /Your ranks ran 0 all-reduces per block and micro-batch/,   // the starter's f and g communicate nothing
}, { starter, solution, wrongs, cases, edgeCases, check });
