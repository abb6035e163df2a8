// topk_allgather.js — code exercise "w6-topk-ef": top-k sparsification with error feedback (Seide et al. 2014;
// Stich et al. 2018), exchanged by an all-gather because top-k does not compose with a reduction (each rank keeps
// different indices, so partial sums grow at every hop). The learner writes topkExchange; the trainer of
// programs/topk_program.js runs it on the Workers.
//
// Checked from the run: the trace (every message one rank's k pairs — 16k bytes — and P − 1 of them per rank per step:
// an all-gather), every rank's residual after every step against the reference recomputed here (a wrong residual is
// explained: none kept, not reset where sent, chosen from g instead of g + e), the final parameters against the
// reference, and the loss against the uncompressed run's (convergence within a stated tolerance).
import { intBetween } from "../../../web/exercise/params.js";
import { fail, pass, sentBy, unfinished } from "../../../web/exercise/run_checks.js";
import { formatNumber } from "../../../web/units.js";
import { topIndices, topkLoss, topkProgram, topkReference } from "../programs/topk_program.js";
import { codeExercise } from "../../../web/exercise/code_exercise.js";

const starter = `// grad: this rank's gradient (Float64Array of n); residual: what this rank did not send before (Float64Array of
// n — update it in place); k: how many coordinates each rank sends. Send this rank's k largest |grad + residual|
// entries to every other rank as ONE Float64Array of 2k numbers (k indices, then their k values), and return the
// SUM over all ranks of what they sent, as a dense Float64Array of n (the trainer divides by P).
async function topkExchange(ctx, grad, residual, k) {
  const sum = new Float64Array(grad.length);
  // TODO
  return sum;
}
`;

const solution = `// Error feedback: compress v = g + e, send the top k of v, keep e = v − C(v) (zero where sent). Top-k pairs do not
// add up along a ring (different ranks keep different indices), so every rank's pairs go to every rank: an all-gather.
async function topkExchange(ctx, grad, residual, k) {
  const n = grad.length, v = grad.map((g, i) => g + residual[i]);
  const top = [...v.keys()].sort((a, b) => Math.abs(v[b]) - Math.abs(v[a]) || a - b).slice(0, k);
  const pairs = new Float64Array(2 * k);
  top.forEach((i, j) => { pairs[j] = i; pairs[k + j] = v[i]; });
  residual.set(v);
  for (const i of top) residual[i] = 0;                    // sent: nothing left over there
  for (let r = 0; r < ctx.size; r++) if (r !== ctx.rank) ctx.send(r, pairs);
  const sum = new Float64Array(n);
  for (let r = 0; r < ctx.size; r++) {
    const got = r === ctx.rank ? pairs : await ctx.recv(r);
    for (let j = 0; j < k; j++) sum[got[j]] += got[k + j];
  }
  return sum;
}
`;

const RING_SUM = `async function topkExchange(ctx, grad, residual, k) {
  const n = grad.length, v = grad.map((g, i) => g + residual[i]);
  const top = [...v.keys()].sort((a, b) => Math.abs(v[b]) - Math.abs(v[a]) || a - b).slice(0, k);
  residual.set(v);
  for (const i of top) residual[i] = 0;
  // Reduce along the chain 0 → 1 → … → P − 1, merging the pairs, then the last rank sends the total to everyone.
  const p = ctx.size, r = ctx.rank, pack = (m) => Float64Array.from([...m.keys(), ...m.values()]);
  let pairs = new Map(top.map((i) => [i, v[i]]));
  if (r > 0) {
    const got = await ctx.recv(r - 1), m = got.length / 2;
    for (let j = 0; j < m; j++) pairs.set(got[j], (pairs.get(got[j]) ?? 0) + got[m + j]);
  }
  if (r < p - 1) { ctx.send(r + 1, pack(pairs)); pairs = null; }
  else for (let q = 0; q < p - 1; q++) ctx.send(q, pack(pairs));
  const total = pairs ?? await ctx.recv(p - 1);
  const sum = new Float64Array(n);
  const flat = total instanceof Map ? pack(total) : total, m = flat.length / 2;
  for (let j = 0; j < m; j++) sum[flat[j]] += flat[m + j];
  return sum;
}
`;

const wrongs = [
  { name: "no error feedback: the residual never kept",
    code: solution.replace("const n = grad.length, v = grad.map((g, i) => g + residual[i]);", "const n = grad.length, v = grad.slice();")
      .replace("  residual.set(v);\n  for (const i of top) residual[i] = 0;                    // sent: nothing left over there\n", ""),
    expect: /no error feedback/ },
  { name: "the residual not reset where a coordinate was sent",
    code: solution.replace("  for (const i of top) residual[i] = 0;                    // sent: nothing left over there\n", ""),
    expect: /not reset .* sent/ },
  { name: "the top k of the gradient, not of gradient + residual",
    code: solution.replace("Math.abs(v[b]) - Math.abs(v[a])", "Math.abs(grad[b]) - Math.abs(grad[a])"),
    expect: /top k of g, not of v = g \+ e/ },
  // Only rank 0 right: the other ranks' pairs make every rank's parameters wrong; their residuals name the mistake.
  { name: "the top k of the gradient on every rank but rank 0",
    code: solution.replace("Math.abs(v[b]) - Math.abs(v[a])",
      "(ctx.rank === 0 ? Math.abs(v[b]) - Math.abs(v[a]) : Math.abs(grad[b]) - Math.abs(grad[a]))"),
    expect: /Rank [1-9]\d*'s residual[\s\S]*top k of g, not of v = g \+ e/ },
  { name: "summed along a chain of ranks (top-k does not compose with a reduction)",
    code: RING_SUM,
    expect: /pairs?[\s\S]*does not compose with a reduction/ },
  { name: "returned the mean, not the sum",
    code: solution.replace("  return sum;\n}", "  return sum.map((x) => x / ctx.size);\n}"),
    expect: /divides by P itself/ },
];

// A case: P ranks, n features, each rank sends k, 30–40 SGD steps.
function topkCase(rng, ranks) {
  const features = intBetween(rng, 12, 20);
  const cfg = { features, k: intBetween(rng, 2, 4), rows: 24, batch: 6, lr: 0.2, steps: intBetween(rng, 30, 40), seed: intBetween(rng, 1, 10000) };
  return { ranks, cfg, inputs: Array.from({ length: ranks }, () => cfg) };
}
const cases = (rng) => [topkCase(rng, intBetween(rng, 2, 3)), topkCase(rng, 4)];
const edgeCases = (rng) => [topkCase(rng, 6)];

// Residuals and parameters are the reference's up to the order the ranks' values were added in.
export const CLOSE = 1e-9;
const close = (a, b) => Math.abs(a - b) <= CLOSE * Math.max(1, Math.abs(b));
// Convergence: the final loss may exceed the uncompressed run's by this fraction (over 900 drawn cases top-k + EF
// ended at most 11% above it, and often below: neither run has converged after 30–40 steps).
export const SLACK = 0.25;

// Why rank r's residual after step t differs, from the reference's g and e before it (equal to the run's until then).
function residualMistake(got, { g, e }, k, r, t) {
  const v = g.map((x, j) => x + e[j]), sent = topIndices(v, k);
  const where = `Rank ${r}'s residual after step ${t}`;
  if (got.every((x) => x === 0) && v.some((x, j) => x !== 0 && !sent.includes(j))) {
    return `${where} is all zeros: no error feedback. The coordinates not sent must be kept — e ← v − C(v) — and added ` +
      "to the next step's gradient, or what top-k drops is lost for good.";
  }
  if (sent.every((j) => close(got[j], v[j])) && sent.some((j) => v[j] !== 0)) {
    return `${where} still holds the values it sent (coordinate ${sent[0]}: ${formatNumber(got[sent[0]], 4)}): the residual ` +
      "was not reset where a coordinate was sent, so those values are sent again and again. Set e_i = 0 for every i you sent.";
  }
  const byG = topIndices(g, k);
  if (byG.join() !== sent.join() && got.every((x, j) => close(x, byG.includes(j) ? 0 : v[j]))) {
    return `${where} is zero at coordinates ${byG.join(", ")}, the largest |g|; the largest |g + e| are ${sent.join(", ")}. ` +
      "You chose the top k of g, not of v = g + e: error feedback adds the residual first, so coordinates that were " +
      "dropped often enough get their turn.";
  }
  const j = got.findIndex((x, i) => !close(x, sent.includes(i) ? 0 : v[i]));
  return `${where} differs at coordinate ${j}: ${formatNumber(got[j], 4)} instead of ${formatNumber(sent.includes(j) ? 0 : v[j], 4)}. ` +
    "With v = g + e and C(v) its top k, the residual is v − C(v).";
}

function check(run, testCase) {
  const { cfg, ranks: P } = testCase;
  const pairBytes = 16 * cfg.k;
  // 1. The trace: one rank's k pairs per message, P − 1 messages per rank per step.
  const big = (run?.trace ?? []).find((m) => m.bytes !== pairBytes);
  if (big) {
    const pairs = big.bytes / 16;
    return fail(`Rank ${big.src} sent rank ${big.dst} a message of ${big.bytes} B` +
      (Number.isInteger(pairs) ? ` (${pairs} pairs)` : "") + `; each message is one rank's k = ${cfg.k} pairs, 2k numbers = ` +
      `${pairBytes} B. ` + (big.bytes > pairBytes && Number.isInteger(pairs)
        ? "Pairs merged on the way grow with every hop — the union of different ranks' top-k sets — so top-k does not " +
          "compose with a reduction: send every rank's own pairs to every rank (an all-gather) and sum at the end."
        : "Send one Float64Array of k indices followed by their k values."));
  }
  const stop = unfinished(run);
  if (stop) return stop;
  const perRank = sentBy(run.trace, P, { run });
  const bad = perRank.findIndex((list) => list.length !== cfg.steps * (P - 1));
  if (bad >= 0) {
    return fail(`Rank ${bad} sent ${perRank[bad].length} messages in ${cfg.steps} steps; an all-gather of ${P} ranks sends ` +
      `P − 1 = ${P - 1} per step (its pairs to every other rank, or forwarded around a ring), ${cfg.steps * (P - 1)} in all.`);
  }
  // 2. Step by step, against the reference (which the run equals until its first mistake): every rank's residual,
  // then the parameters the step produced.
  const ref = topkReference(cfg, P);
  // Every rank's residual of a step before any rank's parameters: a step's parameters sum every rank's pairs, so one
  // rank's wrong choice of pairs shows in all ranks' parameters, and its residual names the mistake.
  for (let t = 0; t < cfg.steps; t++) {
    for (let r = 0; r < P; r++) {
      const got = run.results?.[r]?.residuals?.[t], params = run.results?.[r]?.history?.[t];
      if (!Array.isArray(got) || got.length !== cfg.features || !Array.isArray(params)) {
        return fail(`Rank ${r} did not return what the trainer returns. Write only <code>topkExchange</code>.`);
      }
      if (!got.every((x, j) => close(x, ref.residuals[r][t][j]))) return fail(residualMistake(got, ref.before[r][t], cfg.k, r, t));
    }
    for (let r = 0; r < P; r++) {
      const params = run.results[r].history[t];
      if (!params.every((x, j) => close(x, ref.history[t][j]))) {
        const j = params.findIndex((x, i) => !close(x, ref.history[t][i]));
        return fail(`Every rank's residual after step ${t} is right, but the parameters that step produced on rank ${r} are not ` +
          `(θ_${j}: ${formatNumber(params[j], 4)}, expected ${formatNumber(ref.history[t][j], 4)}): return the SUM over all ` +
          "ranks of the pairs they sent, added into a dense vector by index — the trainer divides by P itself. (With " +
          "<code>recvAny</code>, a fast rank's pairs of the next step can arrive first: receive from each rank by name.)");
      }
    }
  }
  // 3. Convergence against the uncompressed run.
  const loss = topkLoss(cfg, P, run.results[0].params), dense = topkLoss(cfg, P, topkReference(cfg, P, { compressed: false }).params);
  const start = topkLoss(cfg, P, new Array(cfg.features).fill(0));
  if (!(loss <= (1 + SLACK) * dense)) {
    return fail(`The run ended at a loss of ${formatNumber(loss, 3)}, more than ${formatNumber(1 + SLACK, 2)}× the uncompressed run's ` +
      `${formatNumber(dense, 3)}.`);
  }
  const bytes = cfg.steps * (P - 1) * pairBytes, full = cfg.steps * 2 * (P - 1) / P * cfg.features * 8;
  return pass(`Every residual is v − C(v), every message one rank's ${cfg.k} pairs (${pairBytes} B), and the loss fell from ` +
    `${formatNumber(start, 3)} to ${formatNumber(loss, 3)} (uncompressed: ${formatNumber(dense, 3)}). Each rank sent ` +
    `${bytes} B in ${cfg.steps} steps; a ring all-reduce of the full gradient would send ${formatNumber(full, 4)} B.`);
}

export const topkAllgather = codeExercise({
  id: "w6-topk-ef",
  title: "Top-k with error feedback, by all-gather",
  prompt: `<p>P ranks train a model with SGD; each step every rank calls <code>topkExchange(ctx, grad, residual, k)</code>.
    Write it: add the residual to the gradient (v = g + e), keep the k largest |v<sub>i</sub>| with their indices, send
    them to every other rank as one <code>Float64Array</code> of 2k numbers (the k indices, then the k values), keep
    e ← v − C(v) in <code>residual</code>, and return the dense sum of every rank's pairs.</p>
    <p>The checker reads the trace (one rank's k pairs per message, P − 1 messages per rank per step), recomputes every
    rank's residual after every step and the final parameters, and compares the loss with training on the full
    gradient.</p>`,
  ranks: 3,
  timeoutMs: 15000,
  program: topkProgram,
  exempt: { thirdAttempt: "every run trains a model; week6_code.test.mjs judges attempts 3 and 4" },
  summarizeResult: (value) => (value?.residuals ? `${value.residuals.length} steps; |e| = ${Math.hypot(...value.residuals.at(-1)).toFixed(4)}` : undefined),
  hints: [
    "<code>const v = grad.map((g, i) =&gt; g + residual[i])</code>, then sort the indices by <code>Math.abs(v[i])</code>, " +
      "largest first, and keep k.",
    "The residual becomes v everywhere, then 0 at the k coordinates you sent: <code>residual.set(v)</code>, then " +
      "<code>residual[i] = 0</code> for each sent i.",
    "Do not add pairs on the way: two ranks' top-k sets differ, so a partial sum has up to 2k entries, then 3k… Send your " +
      "own pairs to every other rank, receive theirs, and add them all into one dense vector by index.",
  ],
  solutionText: `<p>Error feedback makes top-k a delayed, not a lossy, update: every coordinate of every gradient is
    eventually sent, once its accumulated residual is large enough to make the top k. Without it the small coordinates
    are dropped for good, and the model converges to something else or not at all (Stich et al. 2018; Karimireddy et al.
    2019). The exchange cannot be a ring all-reduce: partial sums of sparse vectors with different supports grow, so
    every rank's k pairs travel to every rank — (P − 1)·8k bytes per rank with fp32 values and int32 indices (16k here,
    in float64), against the ring's 2(P − 1)/P·4n. Top-k wins only while P &lt; n/k: Deep Gradient Compression reports
    its ratios for a parameter server or all-gather, and at scale that is the catch.</p>`,
  starterExpect: /^Rank 0 sent 0 messages in 40 steps; .*P − 1 = 2 per step.*80 in all/,   // nothing sent; 2 · 40
}, { starter, solution, wrongs, cases, edgeCases, check });
