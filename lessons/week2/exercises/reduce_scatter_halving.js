// reduce_scatter_halving.js — code exercise "w2-reduce-scatter-rh": reduce-scatter by recursive halving,
// p = 2, 4 or 8. Each step a rank sends the half of its current range that its partner keeps and adds
// the half it keeps: messages of n/2, n/4, …, n/p, i.e. log₂p·α + ((p − 1)/p)·n(β + γ) (Thakur et al. 2005;
// the first half of Rabenseifner's all-reduce, and ZeRO's gradient reduce-scatter).
//
// The checker reads the trace (log₂p messages per rank, the i-th to r XOR 2^j and carrying n/2^(i+1)
// numbers) and recomputes each rank's block sum from the case's inputs.
import { intBetween, pick } from "../../../web/exercise/params.js";
import { formatBytes, plural, upperFirst } from "../../../web/units.js";
import { centralMessage, fail, hubOf, pass, sentBy, undelivered, unfinished } from "../../../web/exercise/run_checks.js";
import { BYTES_PER_NUMBER, asNumbers, describeWrongSum, nonZeroInt, plainArrayNote, replayNote } from "../../../web/exercise/collective_checks.js";
import { codeExercise } from "../../../web/exercise/code_exercise.js";

const starter = `// Runs on p = 2, 4, 8 or 16 ranks. ctx.input = { data: [n numbers] } with n = p·b: p blocks of b numbers.
// Rank r must return block r of the elementwise sum over all ranks (b numbers).
// Use recursive halving: log2(p) steps with partners r XOR p/2, r XOR p/4, …, r XOR 1; each step send
// the half of your current range that the partner keeps, and add the half you keep.
// Send Float64Array views (8 bytes per number).
async function main(ctx) {
  const p = ctx.size, r = ctx.rank;
  const buf = Float64Array.from(ctx.input.data);
  const b = buf.length / p;
  let lo = 0, hi = p;              // the blocks [lo, hi) this rank is still reducing
  // TODO
  return buf.slice(r * b, (r + 1) * b);
}
`;

const solution = `// Recursive-halving reduce-scatter: the range being reduced halves each step until it is block r.
async function main(ctx) {
  const p = ctx.size, r = ctx.rank;
  const buf = Float64Array.from(ctx.input.data);
  const b = buf.length / p;
  let lo = 0, hi = p;                            // blocks [lo, hi) still being reduced here; contains r
  for (let d = p / 2; d >= 1; d /= 2) {          // distance p/2, p/4, …, 1
    const partner = r ^ d;
    const mid = lo + d;
    const upper = (r & d) !== 0;                 // is block r in the upper half of [lo, hi)?
    const [keepLo, keepHi] = upper ? [mid, hi] : [lo, mid];
    const [sendLo, sendHi] = upper ? [lo, mid] : [mid, hi];
    ctx.send(partner, buf.subarray(sendLo * b, sendHi * b));   // the partner's half: d blocks (not awaited)
    const got = await ctx.recv(partner);                       // the partner's copy of my half
    for (let i = 0; i < got.length; i++) buf[keepLo * b + i] += got[i];
    lo = keepLo; hi = keepHi;
  }
  return buf.slice(r * b, (r + 1) * b);
}
`;

const wrongs = [
  // All-reduce by recursive doubling, then keep block r: the right numbers, but every message carries the
  // whole vector — log₂p·n instead of ((p − 1)/p)·n per rank. Only the trace shows it.
  { name: "recursive-doubling all-reduce, then keep block r",
    code: `async function main(ctx) {
  const p = ctx.size, r = ctx.rank;
  const buf = Float64Array.from(ctx.input.data);
  const b = buf.length / p;
  for (let d = 1; d < p; d *= 2) {
    ctx.send(r ^ d, buf);
    const got = await ctx.recv(r ^ d);
    for (let i = 0; i < got.length; i++) buf[i] += got[i];
  }
  return buf.slice(r * b, (r + 1) * b);
}
`,
    expect: /recursive-doubling all-reduce/ },
  { name: "keeps the half that holds the partner's block",
    code: solution.replace("const upper = (r & d) !== 0; ", "const upper = (r & d) === 0; "),
    expect: /misses the contributions? of/ },
  { name: "copies the partner's half instead of adding it",
    code: solution.replace("buf[keepLo * b + i] += got[i];", "buf[keepLo * b + i] = got[i];"),
    expect: /misses the contributions? of/ },
  { name: "the steps in the wrong order (distance 1 first)",
    code: solution.replace("for (let d = p / 2; d >= 1; d /= 2) {", "for (let d = 1; d < p; d *= 2) {"),
    expect: /partners are r XOR p\/2, r XOR p\/4/ },
  { name: "a central computation: reduce to rank 0, then scatter",
    code: `async function main(ctx) {
  const p = ctx.size, r = ctx.rank, buf = Float64Array.from(ctx.input.data), b = buf.length / p;
  if (r !== 0) { ctx.send(0, buf); return await ctx.recv(0); }
  for (let s = 1; s < p; s++) {
    const got = await ctx.recv(s);
    for (let i = 0; i < buf.length; i++) buf[i] += got[i];
  }
  for (let s = 1; s < p; s++) ctx.send(s, buf.slice(s * b, (s + 1) * b));
  return buf.slice(0, b);
}
`,
    expect: /central computation|recursive-doubling all-reduce/ },   // with 2 ranks it is one whole vector each way
  { name: "awaiting each send before receiving (relies on buffered sends)",
    code: solution.replace("    ctx.send(partner, buf.subarray(sendLo * b, sendHi * b));", "    await ctx.send(partner, buf.subarray(sendLo * b, sendHi * b));"),
    expect: /Deadlock with synchronous sends: rank 0 waits in send for rank/ },
];

function cases(rng) {
  const one = (ranks, b) => {
    const data = Array.from({ length: ranks }, () => Array.from({ length: ranks * b }, () => nonZeroInt(rng)));
    return { ranks, b, inputs: data.map((d) => ({ data: d })) };
  };
  return [one(pick(rng, [2, 4]), intBetween(rng, 1, 6)), one(pick(rng, [4, 8]), intBetween(rng, 1, 8))];
}

// Hidden: 16 ranks (4 steps, the last of one block), and one number per block.
function edgeCases(rng) {
  const one = (ranks, b) => {
    const data = Array.from({ length: ranks }, () => Array.from({ length: ranks * b }, () => nonZeroInt(rng)));
    return { ranks, b, inputs: data.map((d) => ({ data: d })) };
  };
  return [one(16, intBetween(rng, 1, 3)), one(16, 1), one(2, 1)];
}

// What the messages implement: the pass message compares their replayed time with this formula (collective_checks.js).
const replays = { collective: "reduce-scatter", algorithm: "recursive-halving", numbers: ({ ranks, b }) => ranks * b };

function check(run, testCase, core) {
  const { ranks: p, b, inputs } = testCase;
  const data = inputs.map((x) => x.data);
  const n = p * b, steps = Math.log2(p);
  const trace = run?.trace ?? [];

  // 1. Not a central computation; partners r XOR p/2, r XOR p/4, …, r XOR 1 in that order (the range halves,
  // so the distance must too) — checked on whatever part of the trace exists: a wrong partner often deadlocks.
  const hub = run?.status === "ok" ? hubOf(trace, p) : null;
  if (hub !== null) return centralMessage(hub, "recursive halving");
  if (run?.status === "ok" && trace.length && trace.every((m) => m.bytes === n * BYTES_PER_NUMBER)) {
    return fail(`Every message carried the whole vector (n = ${n} numbers): that is recursive-doubling all-reduce — right ` +
      `answer, log₂p·n numbers sent per rank instead of ((p − 1)/p)·n. In recursive halving each step sends only the ` +
      "half of the range your partner keeps: n/2, then n/4, …, then n/p.");
  }
  const perRank = sentBy(trace, p, { run, tie: (a, b) => b.bytes - a.bytes });   // a rank sends less each step
  for (let r = 0; r < p; r++) {
    for (const [i, m] of perRank[r].slice(0, steps).entries()) {
      if ((m.src ^ m.dst) !== p >> (i + 1)) {
        return fail(`Rank ${r}'s message ${i + 1} went to rank ${m.dst}. In recursive halving rank r's partners are ` +
          `r XOR p/2, r XOR p/4, …, r XOR 1, in that order — the range being reduced halves every step, and so does ` +
          `the distance: for rank ${r} that is rank${steps > 1 ? "s" : ""} ` +
          `${[...Array(steps).keys()].map((j) => r ^ (p >> (j + 1))).join(", ")}.`);
      }
    }
  }
  const stop = unfinished(run);
  if (stop) return stop;

  // 2. log₂p messages per rank, sizes n/2, n/4, …, n/p.
  for (let r = 0; r < p; r++) {
    const msgs = perRank[r];
    if (msgs.length !== steps) {
      return fail(`Rank ${r} sent ${plural(msgs.length, "message")}; recursive halving on p = ${p} ranks takes log₂p = ` +
        `${plural(steps, "step")}, one message per rank per step.`);
    }
    for (let i = 0; i < steps; i++) {
      const m = msgs[i];
      const numbers = n >> (i + 1), want = numbers * BYTES_PER_NUMBER;
      if (m.bytes !== want) {
        const got = m.bytes / BYTES_PER_NUMBER;
        return fail(`Rank ${r}'s message ${i + 1} (to rank ${m.dst}) carried ${m.bytes} B` +
          `${Number.isInteger(got) ? ` = ${got} numbers` : ""}; in step ${i + 1} a rank sends half of the range it still reduces: ` +
          `n/2^${i + 1} = ${numbers} numbers (${want} B). ` +
          (m.bytes % BYTES_PER_NUMBER ? plainArrayNote
            : m.bytes === n * BYTES_PER_NUMBER ? "Sending the whole vector every step is recursive-doubling all-reduce: " +
              "right answer, log₂p·n bytes per rank instead of ((p − 1)/p)·n." : "Send only the half your partner keeps."));
      }
    }
  }
  const lost = undelivered(trace);
  if (lost) return fail(`Rank ${lost.dst} never received the message rank ${lost.src} sent: each exchange is a send and a <code>recv</code> on both sides.`);

  // 3. Rank r's block of the sum, recomputed from the inputs.
  for (let r = 0; r < p; r++) {
    const got = asNumbers(run.results?.[r]);
    if (!got || got.length !== b) {
      return fail(`Rank ${r} returned ${got ? `${got.length} numbers` : "no array"}; expected only its own block of the sum: ` +
        `b = ${b} numbers (block r = elements r·b … (r + 1)·b − 1).`);
    }
    const idx = [...Array(b).keys()].map((j) => r * b + j);
    const want = idx.map((i) => data.reduce((acc, d) => acc + d[i], 0));
    const bad = idx.flatMap((_, j) => (got[j] === want[j] ? [] : [j]));
    if (!bad.length) continue;
    const { text } = describeWrongSum({ rank: r, where: `block ${r} (elements ${r * b}–${r * b + b - 1} of the input)`,
      indices: bad.map((j) => idx[j]), got: bad.map((j) => got[j]), want: bad.map((j) => want[j]),
      contrib: data.map((d) => bad.map((j) => d[idx[j]]))});
    return fail(`${text} In each step keep the half of [lo, hi) that contains block r, send the other half to r XOR d, ` +
      "and add what comes back into the half you keep.");
  }
  return pass(`${upperFirst(plural(p, "rank", { article: "all" }))} hold their block of the sum after ${plural(steps, "step")}, each sending ` +
    `${formatBytes((p - 1) * b * BYTES_PER_NUMBER, 4)} = ((p − 1)/p)·n of n = ${formatBytes(n * BYTES_PER_NUMBER, 4)}.` +
    replayNote(run, testCase, replays, core));
}

export const reduceScatterHalving = codeExercise({
  id: "w2-reduce-scatter-rh",
  title: "Reduce-scatter by recursive halving",
  prompt: `<p>Write <code>main(ctx)</code> for p = 2, 4, 8 or 16 ranks. Every rank holds a vector
    <code>ctx.input.data</code> of n = p·b numbers, seen as p blocks of b. Rank r must return block r of the
    elementwise sum over all ranks (b numbers). Use <em>recursive halving</em>: with partners r XOR p/2, r XOR p/4,
    …, r XOR 1, each step send the half of your current range that the partner keeps and add the half you keep.</p>
    <p>Send <code>Float64Array</code> views. The checker reads the trace — log₂p messages per rank of n/2, n/4, …,
    n/p numbers, ((p − 1)/p)·n in all — and recomputes each block's sum, under several delivery orders, once with
    synchronous sends, and on sizes you do not see.</p>`,
  ranks: (rng) => pick(rng, [2, 4, 8]),
  mustCover: { ranks: [2, 16] },   // the hidden cases reach these p (judging.test.mjs)
  visibleRanks: [2, 4, 8],   // every p the visible cases draw (exercise_rules.test.mjs)
  hints: [
    "Keep a range of blocks [lo, hi) that you still reduce; it starts as [0, p) and always contains block r. " +
      "Loop <code>for (let d = p / 2; d >= 1; d /= 2)</code> with partner <code>r ^ d</code>.",
    "The range [lo, hi) has 2d blocks; split it at mid = lo + d. Block r is in the upper half exactly when " +
      "<code>(r &amp; d) !== 0</code> — and then the partner's block is in the lower half, and vice versa.",
    "Send <code>buf.subarray(sendLo * b, sendHi * b)</code> (the half you give away), receive the partner's copy of the " +
      "half you keep and add it element by element at <code>keepLo * b</code>. Then shrink [lo, hi) to the kept half.",
  ],
  solutionText: `<p>In the step with distance d the ranks r and r XOR d reduce the same range of 2d blocks and split it:
    each keeps the half containing its own block and sends the other half, so after the step each holds a range half as
    long, summed over twice as many ranks. After log₂p steps rank r's range is block r, summed over all p ranks. Messages
    carry n/2 + n/4 + … + n/p = ((p − 1)/p)·n numbers: the reduce-scatter bandwidth lower bound, in log₂p rounds. Followed
    by recursive-doubling all-gather (the previous exercise, run backwards in distance) it is Rabenseifner's all-reduce:
    2 log₂p·α + 2((p − 1)/p)·nβ. ZeRO and FSDP reduce-scatter gradients exactly so that each rank keeps only its shard's sum.</p>`,
  starterExpect: /Rank 0 sent 0 messages; recursive halving on p = 2 ranks takes log₂p = 1 step/,   // nothing sent
}, { starter, solution, wrongs, cases, edgeCases, check, replays });
