// lars_trust.js — code exercise "w3-lars-trust": the LARS trust ratio of tensors sharded over p ranks (ZeRO/FSDP),
// with the all-reduce of squared norms that makes it exact. You, Gitman & Ginsburg 2017, eq. 6:
//   ρ_k = η_trust·‖w_k‖ / (‖g_k‖ + λ·‖w_k‖)      (1 when ‖w_k‖ = 0 or the denominator is 0)
// A norm does not split over shards; its square does: ‖w_k‖² = Σ_r Σ_{i ∈ shard r} w_i². So each rank sends 2 numbers
// per tensor (its partial Σw² and Σg²), every rank sums them and takes the roots — the core's
// core/parallel/zero_layerwise_update.cpp, which the C++ tests prove equal to unsharded LARS.
//
// The checker recomputes every ratio from the case's whole tensors, reads the trace (only 2T numbers may travel per
// message: shards must stay where they are), and names the mistake a wrong ratio comes from: a shard's own norms,
// summed norms, a missing square root, or a denominator without λ‖w‖.
import { intBetween, pick } from "../../../web/exercise/params.js";
import { formatNumber, plural, upperFirst } from "../../../web/units.js";
import { fail, pass, undelivered, unfinished } from "../../../web/exercise/run_checks.js";
import { codeExercise } from "../../../web/exercise/code_exercise.js";

const BYTES_PER_NUMBER = 8;

const starter = `// Runs on p ranks. Each rank holds its shard of T tensors (ZeRO/FSDP cut them anywhere):
// ctx.input = { eta (η_trust), weightDecay (λ), tensors: [{ w: [numbers], g: [numbers] }, …] }  (rank r's piece of each tensor).
// Every rank must return [ρ_0, …, ρ_(T−1)], the LARS trust ratio of each WHOLE tensor:
//   ρ = eta·‖w‖ / (‖g‖ + weightDecay·‖w‖), and 1 when ‖w‖ = 0 or that denominator is 0.
// Send Float64Arrays; only 2 numbers per tensor need to travel.
async function main(ctx) {
  const { eta, weightDecay, tensors } = ctx.input;
  const T = tensors.length;
  const mine = new Float64Array(2 * T);   // [Σw² of tensor 0, Σg² of tensor 0, Σw² of tensor 1, …] over MY shard
  // TODO: fill mine, add every other rank's sums to it, then form the ratios of the whole tensors.
  return tensors.map(() => 1);
}
`;

const solution = `// Sum of squares per tensor on each rank, all-reduced (here: everyone sends to everyone), then the roots.
async function main(ctx) {
  const { eta, weightDecay, tensors } = ctx.input;
  const T = tensors.length, p = ctx.size, r = ctx.rank;
  const sums = new Float64Array(2 * T);
  tensors.forEach(({ w, g }, k) => {
    for (const x of w) sums[2 * k] += x * x;       // ‖w_k‖² restricted to my shard
    for (const x of g) sums[2 * k + 1] += x * x;   // ‖g_k‖² restricted to my shard
  });
  const mine = Float64Array.from(sums);
  for (let q = 0; q < p; q++) if (q !== r) ctx.send(q, mine);   // not awaited: cannot deadlock
  for (let q = 0; q < p; q++) {
    if (q === r) continue;
    const theirs = await ctx.recv(q);
    for (let i = 0; i < 2 * T; i++) sums[i] += theirs[i];      // squares add; norms do not
  }
  return tensors.map((_, k) => {
    const wNorm = Math.sqrt(sums[2 * k]), gNorm = Math.sqrt(sums[2 * k + 1]);
    const denominator = gNorm + weightDecay * wNorm;
    return wNorm === 0 || denominator === 0 ? 1 : (eta * wNorm) / denominator;
  });
}
`;

const ADD = "for (let i = 0; i < 2 * T; i++) sums[i] += theirs[i];      // squares add; norms do not";
const ROOTS = "const wNorm = Math.sqrt(sums[2 * k]), gNorm = Math.sqrt(sums[2 * k + 1]);";

const wrongs = [
  { name: "forgetting the all-reduce: each rank uses its own shard's norms",
    code: solution.replace(ADD, "void theirs;   // received, but never added in"),
    expect: /only its own shard/ },
  { name: "all-reducing the norms instead of their squares",
    code: solution
      .replace("for (const x of w) sums[2 * k] += x * x;       // ‖w_k‖² restricted to my shard",
        "sums[2 * k] = Math.hypot(...w);                // my shard's norm ‖w_k‖")
      .replace("for (const x of g) sums[2 * k + 1] += x * x;   // ‖g_k‖² restricted to my shard",
        "sums[2 * k + 1] = Math.hypot(...g);            // my shard's norm ‖g_k‖")
      .replace(ROOTS, "const wNorm = sums[2 * k], gNorm = sums[2 * k + 1];   // the norms, summed"),
    expect: /summed the shards' norms/ },
  { name: "a denominator without the weight-decay term",
    code: solution.replace("const denominator = gNorm + weightDecay * wNorm;", "const denominator = gNorm;"),
    expect: /λ·‖w‖/ },
  { name: "forgetting the square roots",
    code: solution.replace(ROOTS, "const wNorm = sums[2 * k], gNorm = sums[2 * k + 1];   // squares, not norms"),
    expect: /square root/ },
  { name: "gathering the shards on rank 0",
    code: `async function main(ctx) {
  const { eta, weightDecay, tensors } = ctx.input;
  const flat = (key) => Float64Array.from(tensors.flatMap((t) => t[key]));
  if (ctx.rank !== 0) { ctx.send(0, flat("w")); ctx.send(0, flat("g")); return await ctx.recv(0); }
  const sizes = [];
  for (let q = 1; q < ctx.size; q++) sizes.push(await ctx.recv(q), await ctx.recv(q));
  const ratios = tensors.map(() => 1);   // (never gets further: the checker stops at the traffic)
  for (let q = 1; q < ctx.size; q++) ctx.send(q, ratios);
  return ratios;
}
`,
    expect: /shards must stay where they are/ },
  { name: "awaiting each send before receiving (relies on buffered sends)",
    code: solution.replace("if (q !== r) ctx.send(q, mine);   // not awaited: cannot deadlock",
      "if (q !== r) await ctx.send(q, mine);"),
    expect: /Deadlock with synchronous sends/ },
];

// ---- cases -----------------------------------------------------------------------------------------------------
const value = (rng, scale) => Math.round((rng() * 2 - 1) * scale * 1000) / 1000 || scale / 1000;

// T tensors cut into p contiguous shards of 3 to 8 values each (ZeRO cuts through tensors wherever a rank's share
// ends); λ > 0 always, so a denominator without λ·‖w‖ is always wrong.
function makeCase(rng, ranks, { zeroTensor = false } = {}) {
  const T = intBetween(rng, 1, 3);
  const eta = pick(rng, [0.001, 0.01, 0.02, 0.1]), weightDecay = pick(rng, [1e-4, 5e-4, 0.01, 0.1]);
  const inputs = Array.from({ length: ranks }, () => ({ eta, weightDecay, tensors: [] }));
  const whole = [];
  for (let k = 0; k < T; k++) {
    const wScale = pick(rng, [0.05, 0.5, 3]), gScale = pick(rng, [0.001, 0.1, 2]);
    const tensor = { w: [], g: [] };
    for (let r = 0; r < ranks; r++) {
      const n = intBetween(rng, 3, 8);
      const w = Array.from({ length: n }, () => (zeroTensor && k === 0 ? 0 : value(rng, wScale)));
      const g = Array.from({ length: n }, () => value(rng, gScale));
      inputs[r].tensors.push({ w, g });
      tensor.w.push(...w);
      tensor.g.push(...g);
    }
    whole.push(tensor);
  }
  return { ranks, inputs, whole, eta, weightDecay };
}

const cases = (rng) => [makeCase(rng, intBetween(rng, 2, 4)), makeCase(rng, intBetween(rng, 5, 8))];
// Hidden: 16 ranks, a prime number of ranks, a zero-initialised tensor (ratio 1).
const edgeCases = (rng) => [makeCase(rng, 16), makeCase(rng, pick(rng, [11, 13])), makeCase(rng, 3, { zeroTensor: true })];

// ---- checking --------------------------------------------------------------------------------------------------
const sumSq = (xs) => xs.reduce((a, x) => a + x * x, 0);
const lars = (wNorm, gNorm, eta, beta) => (wNorm === 0 || gNorm + beta * wNorm === 0 ? 1 : (eta * wNorm) / (gNorm + beta * wNorm));
const close = (a, b) => typeof a === "number" && Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

// The ratio of tensor k by the right formula, and by each mistake (as rank r would compute it).
function candidates(testCase, k, r) {
  const { inputs, whole, eta, weightDecay: beta } = testCase;
  const shards = inputs.map((x) => x.tensors[k]);
  const W = sumSq(whole[k].w), G = sumSq(whole[k].g);
  const sumNorms = (key) => shards.reduce((a, s) => a + Math.sqrt(sumSq(s[key])), 0);
  return {
    right: lars(Math.sqrt(W), Math.sqrt(G), eta, beta),
    local: lars(Math.sqrt(sumSq(shards[r].w)), Math.sqrt(sumSq(shards[r].g)), eta, beta),
    norms: lars(sumNorms("w"), sumNorms("g"), eta, beta),
    noRoot: lars(W, G, eta, beta),
    noDecay: lars(Math.sqrt(W), Math.sqrt(G), eta, 0),
  };
}

const FORMULA = "ρ = η_trust·‖w‖/(‖g‖ + λ·‖w‖) of the whole tensor, with ‖w‖² = Σ over ranks of each shard's Σw² (and the same for g)";

function explain(c, got, r, k, testCase) {
  const head = `Rank ${r} returned ρ_${k} = ${formatNumber(got, { digits: 6 })}; the whole tensor's ratio is ${formatNumber(c.right, { digits: 6 })}.`;
  if (close(got, c.local) && testCase.inputs.length > 1)
    return `${head} That is the ratio of rank ${r}'s shard alone: each rank used only its own shard's norms, so the ranks ` +
      `scale the same tensor by different ratios and the replicas drift apart. All-reduce the partial sums of squares first. ${FORMULA}.`;
  if (close(got, c.norms))
    return `${head} You summed the shards' norms: √a + √b ≠ √(a + b) — norms do not add, their squares do. Send Σw² and ` +
      `Σg² of your shard, add those, then take the square roots.`;
  if (close(got, c.noRoot))
    return `${head} You used the sums of squares as if they were norms: take the square root of the all-reduced ` +
      `Σw² and Σg² before forming the ratio.`;
  if (close(got, c.noDecay))
    return `${head} Your denominator is ‖g‖ alone; LARS's is ‖g‖ + λ·‖w‖ (λ = weight decay = ` +
      `${testCase.weightDecay}), because the step it scales is g + λ·w.`;
  return `${head} ${FORMULA}; ρ = 1 when ‖w‖ = 0 or the denominator is 0.`;
}

function check(run, testCase) {
  const stop = unfinished(run);
  if (stop) return stop;
  const { ranks: p, inputs } = testCase;
  const T = inputs[0].tensors.length, allowed = 2 * T * BYTES_PER_NUMBER;
  const trace = run.trace ?? [];
  const big = trace.find((m) => m.bytes > allowed);
  if (big) {
    return fail(`Rank ${big.src} sent ${big.bytes / BYTES_PER_NUMBER} numbers to rank ${big.dst}, but the ratio needs ` +
      `only 2 per tensor from each rank (its shard's Σw² and Σg²: ${2 * T} numbers, ${allowed} B as a Float64Array). ` +
      `The shards must stay where they are: moving them is a central computation that ships the whole model, ` +
      `which is what ZeRO shards to avoid.`);
  }
  const lost = undelivered(trace);
  if (lost) return fail(`Rank ${lost.dst} never received a message rank ${lost.src} sent: every send needs a matching <code>recv</code>.`);
  for (let r = 0; r < p; r++) {
    const got = Array.from(run.results?.[r] ?? []);
    if (got.length !== T) return fail(`Rank ${r} returned ${plural(got.length, "number")}; return one ratio per tensor, ${T} in all.`);
    for (let k = 0; k < T; k++) {
      const c = candidates(testCase, k, r);
      if (!close(got[k], c.right)) return fail(explain(c, got[k], r, k, testCase));
    }
  }
  const sent = trace.length ? Math.max(...Array.from({ length: p }, (_, r) => trace.filter((m) => m.src === r).reduce((a, m) => a + m.bytes, 0))) : 0;
  const shard = Math.max(...inputs.map((x) => x.tensors.reduce((a, t) => a + 2 * t.w.length, 0))) * BYTES_PER_NUMBER;
  return pass(`${upperFirst(plural(p, "rank", { article: "all" }))} hold ${plural(T, "whole-tensor ratio", { article: "the" })}. The busiest rank sent ${sent} B; moving the largest ` +
    `shard of w and g would have cost ${shard} B — and after the norm all-reduce every rank applies exactly the ratio ` +
    `unsharded LARS would.`);
}

export const larsTrust = codeExercise({
  id: "w3-lars-trust",
  title: "The LARS trust ratio on sharded tensors",
  prompt: `<p>Under ZeRO or FSDP each of p ranks holds only a <em>shard</em> of every tensor — cut anywhere, even through
    the middle. LARS needs each whole tensor's norms: ρ = η_trust·‖w‖/(‖g‖ + λ·‖w‖) (You, Gitman &amp; Ginsburg 2017),
    ρ = 1 when ‖w‖ = 0 or the denominator is 0.</p>
    <p>Write <code>main(ctx)</code>: from <code>ctx.input = { eta, weightDecay, tensors: [{ w, g }, …] }</code> (<code>eta</code> is the trust coefficient η_trust, <code>weightDecay</code> is λ; this rank's
    shard of T tensors), every rank returns the T whole-tensor ratios. Only 2 numbers per tensor may travel in a
    message. Ranks talk with <code>await ctx.send(to, data)</code> and <code>await ctx.recv(from)</code>
    (<code>ctx.rank</code>, <code>ctx.size</code>; every call in the <code>ctx</code> reference linked above these exercises).</p>
    <p>The checker recomputes the ratios from the whole tensors under several delivery orders, with synchronous
    sends — a send that resolves only when its receiver has taken the message, so a program in which every rank awaits
    its send before it receives deadlocks — and on cases you do not see (16 ranks, a zero tensor).</p>`,
  ranks: (rng) => intBetween(rng, 2, 8),
  exempt: { thirdAttempt: "week3_core.test.mjs judges every wrong program on attempts 1–3 as well" },
  hints: [
    "A norm of a concatenation is not the sum of the parts' norms — but its square is the sum of the parts' squares.",
    "On each rank compute, per tensor, Σw² and Σg² over your shard: 2T numbers. All-reduce them (every rank sends its " +
      "2T numbers to every other rank, without awaiting the sends, then receives and adds p − 1 of them).",
    "Then ‖w‖ = √(Σw²), ‖g‖ = √(Σg²), and ρ = η_trust·‖w‖/(‖g‖ + λ‖w‖), or 1 when ‖w‖ = 0 or the denominator is 0.",
  ],
  solutionText: `<p>‖w‖² = Σ<sub>r</sub> Σ<sub>i ∈ shard r</sub> w<sub>i</sub>²: squares add across shards, norms do not.
    One all-reduce of 2 numbers per tensor — negligible next to the gradients' reduce-scatter — gives every rank the
    whole-tensor norms, so all ranks apply the same ratio and sharded LARS equals unsharded LARS exactly (the core's
    <code>update_shards_layerwise</code> does this under ZeRO-1/2/3, and its tests compare it with the single device).
    LAMB is the same with ‖u‖ of its Adam direction in place of ‖g‖. Using each shard's own norm would give every rank
    a different ratio for the same tensor; summing norms overestimates them (√a + √b ≥ √(a + b)).</p>`,
  starterExpect: /^Rank 0 returned ρ_0 = 1; the whole tensor's ratio is/,   // the starter returns 1
}, { starter, solution, wrongs, cases, edgeCases, check });
