// ring_allreduce.js — code exercise "w2-ring-allreduce": ring all-reduce written by hand, run on p Workers.
// Reduce-scatter (p − 1 steps) then all-gather (p − 1 steps) around the ring; in step k (0 ≤ k < 2(p − 1))
// rank r sends chunk (r − k) mod p to rank r + 1 and receives chunk (r − k − 1) mod p from rank r − 1.
// Cost 2(p − 1)α + 2((p − 1)/p)·nβ (Patarasuk & Yuan 2009; Thakur et al. 2005).
//
// The checker never trusts the program: it reads the trace (every message goes to the right neighbour,
// 2(p − 1) messages per rank, each one chunk of 8-byte numbers) and recomputes the sum from the case's
// own inputs; a wrong sum is explained by whose contributions a chunk misses or counts twice.
import { intBetween, pick } from "../../../web/exercise/params.js";
import { formatBytes, plural, upperFirst } from "../../../web/units.js";
import {
  centralMessage, fail, hubOf, pass, reversedMessage, reversedRing, sentBy, undelivered, unfinished,
} from "../../../web/exercise/run_checks.js";
import {
  BYTES_PER_NUMBER, asNumbers, chunkOf, chunkText, describeWrongSum, nonZeroInt, plainArrayNote, replayNote,
} from "../../../web/exercise/collective_checks.js";
import { codeExercise } from "../../../web/exercise/code_exercise.js";

const RULE = "In step k of the ring (k = 0 … 2p − 3), rank r sends chunk (r − k) mod p and receives chunk " +
  "(r − k − 1) mod p: it <em>adds</em> what arrives in steps 0 … p − 2 (reduce-scatter) and <em>copies</em> it " +
  "in steps p − 1 … 2p − 3 (all-gather).";

// The ring and the chunks — the first n mod p chunks one element longer: what the starter gives and the solution keeps.
const SETUP = `async function main(ctx) {
  const p = ctx.size, r = ctx.rank;
  const buf = Float64Array.from(ctx.input.data);
  const n = buf.length;
  const mod = (x) => ((x % p) + p) % p;                               // JavaScript's % keeps the sign
  const start = (c) => c * Math.floor(n / p) + Math.min(c, n % p);    // chunk c = [start(c), start(c + 1))
  const chunk = (c) => buf.subarray(start(c), start(c + 1));
  const next = mod(r + 1), prev = mod(r - 1);
`;

const starter = `// Runs on p ranks (2 to 16) in a ring. ctx.input = { data: [n numbers] }, this rank's vector
// (n ≥ 1, not always divisible by p; if n < p some chunks are empty). Every rank must return the
// elementwise sum over all ranks.
// Send chunks as Float64Array views (8 bytes per number): the checker counts the bytes.
${SETUP}  // TODO: 2(p − 1) steps. Reduce-scatter first (add what arrives), then all-gather (copy what arrives).
  return buf;
}
`;

const solution = `// Ring all-reduce = reduce-scatter (p − 1 steps) + all-gather (p − 1 steps) around a ring.
${SETUP}  for (let k = 0; k < 2 * (p - 1); k++) {
    ctx.send(next, chunk(mod(r - k)));        // n/p numbers, copied at the send; not awaited (nonblocking)
    const got = await ctx.recv(prev);         // chunk (r − k − 1) mod p, from the left neighbour
    const mine = chunk(mod(r - k - 1));
    if (k < p - 1) {
      for (let i = 0; i < got.length; i++) mine[i] += got[i];   // reduce-scatter: one more rank's share
    } else {
      mine.set(got);                                            // all-gather: the chunk is complete; copy it
    }
  }
  return buf;   // after step p − 2 rank r held the full sum of chunk (r + 1) mod p; now it holds them all
}
`;

const REDUCE_SCATTER = `    if (k < p - 1) {
      for (let i = 0; i < got.length; i++) mine[i] += got[i];   // reduce-scatter: one more rank's share
    } else {
      mine.set(got);                                            // all-gather: the chunk is complete; copy it
    }`;

// The mistakes a learner makes here; CI proves each fails with a message that names it.
const wrongs = [
  // The classic slip: adding in the all-gather half too. Same messages, same bytes — only the sums show it:
  // every chunk ends up counting some ranks' contributions twice.
  { name: "adding in the all-gather half too",
    code: solution.replace(REDUCE_SCATTER, "    for (let i = 0; i < got.length; i++) mine[i] += got[i];     // adds in both halves"),
    expect: /counts the contributions? of .* twice/ },
  { name: "off by one chunk: the received chunk added into the one just sent",
    code: solution.replace("const mine = chunk(mod(r - k - 1));", "const mine = chunk(mod(r - k));"),
    expect: /(misses|counts|is wrong in|did not fit)[\s\S]*In step k of the ring/ },
  { name: "only the reduce-scatter half (p − 1 steps)",
    code: solution.replace("for (let k = 0; k < 2 * (p - 1); k++) {", "for (let k = 0; k < p - 1; k++) {"),
    expect: /sent \d+ messages?; ring all-reduce sends 2\(p − 1\) = \d+ per rank/ },
  { name: "the ring reversed: send to the left neighbour",
    code: solution.replace("const next = mod(r + 1), prev = mod(r - 1);", "const next = mod(r - 1), prev = mod(r + 1);"),
    expect: /the ring runs backwards/ },
  { name: "a central computation: gather to rank 0, sum, broadcast",
    code: `async function main(ctx) {
  const p = ctx.size, buf = Float64Array.from(ctx.input.data);
  if (ctx.rank !== 0) { ctx.send(0, buf); return await ctx.recv(0); }
  for (let r = 1; r < p; r++) {
    const got = await ctx.recv(r);
    for (let i = 0; i < buf.length; i++) buf[i] += got[i];
  }
  for (let r = 1; r < p; r++) ctx.send(r, buf);
  return buf;
}
`,
    expect: /central computation/ },
  { name: "awaiting each send before receiving (relies on buffered sends)",
    code: solution.replace("    ctx.send(next, chunk(mod(r - k)));", "    await ctx.send(next, chunk(mod(r - k)));"),
    expect: /Deadlock with synchronous sends: rank 0 waits in send for rank 1/ },
  { name: "chunks of ⌈n/p⌉ numbers (the last one short)",
    code: solution.replace("const start = (c) => c * Math.floor(n / p) + Math.min(c, n % p);",
      "const start = (c) => Math.min(n, c * Math.ceil(n / p));"),
    expect: /each message is one chunk of/ },
];

function cases(rng) {
  const one = (ranks, n) => {
    const data = Array.from({ length: ranks }, () => Array.from({ length: n }, () => nonZeroInt(rng)));
    return { ranks, n, inputs: data.map((d) => ({ data: d })) };
  };
  const p1 = intBetween(rng, 2, 4), p2 = intBetween(rng, 5, 8);
  // n not divisible by p in the second case, so uneven chunks are always exercised.
  return [one(p1, p1 * intBetween(rng, 2, 6) + intBetween(rng, 0, p1 - 1)),
          one(p2, p2 * intBetween(rng, 2, 5) + intBetween(rng, 1, p2 - 1))];
}

// Hidden: 16 ranks, a prime number of ranks, fewer numbers than ranks (empty chunks), one number per rank.
function edgeCases(rng) {
  const one = (ranks, n) => {
    const data = Array.from({ length: ranks }, () => Array.from({ length: n }, () => nonZeroInt(rng)));
    return { ranks, n, inputs: data.map((d) => ({ data: d })) };
  };
  const prime = pick(rng, [11, 13]);
  return [one(16, 16 * intBetween(rng, 2, 4) + intBetween(rng, 1, 15)), one(prime, prime + intBetween(rng, 1, prime - 1)),
          one(16, intBetween(rng, 3, 15)), one(pick(rng, [2, 9]), 1 + intBetween(rng, 0, 1))];
}

// What the messages implement: the pass message compares their replayed time with this formula (collective_checks.js).
const replays = { collective: "all-reduce", algorithm: "ring", numbers: ({ n }) => n };

function check(run, testCase, core) {
  const { ranks: p, n, inputs } = testCase;
  const trace = run?.trace ?? [];
  // A ring that runs backwards shows in the first messages, even if the run then failed.
  if (reversedRing(trace, p)) return reversedMessage(p);
  const stop = unfinished(run);
  if (stop) {
    if (!/offset is out of bounds/.test(run.error?.message ?? "")) return stop;
    return fail(`${stop.message} The chunk that arrived did not fit the chunk you put it into (here the chunks are not ` +
      `all the same length). ${RULE}`);
  }
  const data = inputs.map((x) => x.data);
  const q = Math.floor(n / p);
  const chunkBytes = new Set([q * BYTES_PER_NUMBER, (n % p ? q + 1 : q) * BYTES_PER_NUMBER]);

  // 1. Only ring neighbours, 2(p − 1) messages per rank, each one chunk.
  // Gather to one rank and send back: every message touches that rank (with 2 ranks: one whole vector each way).
  // With 2 ranks that trace is also a swap of whole vectors; the message names both, and what a ring sends instead.
  const pair = p === 2 && trace.length === 2 && trace.every((m) => m.bytes === n * BYTES_PER_NUMBER) && n > 1;
  if (pair) {
    return fail(`Each of the 2 ranks sent its whole vector (${n} numbers) in one message: that is a central computation ` +
      "(gather to one rank, sum, send back) or a swap of whole vectors, not a ring all-reduce. Even with p = 2 the ring " +
      `cuts the vector into p chunks and every message carries one chunk (here ${Math.ceil(n / 2)} or ${Math.floor(n / 2)} ` +
      `numbers): 2(p − 1) = 2 messages per rank. ${RULE}`);
  }
  const hub = hubOf(trace, p);
  if (hub !== null) return centralMessage(hub, "a ring all-reduce");
  const offRing = trace.find((m) => m.dst !== (m.src + 1) % p);
  if (offRing) {
    return fail(`Rank ${offRing.src} sent to rank ${offRing.dst}; in a ring, rank r sends only to (r + 1) mod p, ` +
      `so rank ${offRing.src} must send to rank ${(offRing.src + 1) % p} and receive from rank ${(offRing.src - 1 + p) % p}.`);
  }
  const perRank = sentBy(trace, p);
  for (let r = 0; r < p; r++) {
    if (perRank[r].length !== 2 * (p - 1)) {
      return fail(`Rank ${r} sent ${plural(perRank[r].length, "message")}; ring all-reduce sends 2(p − 1) = ${2 * (p - 1)} per rank: ` +
        `p − 1 = ${p - 1} in the reduce-scatter half and ${p - 1} in the all-gather half.`);
    }
    const bad = perRank[r].findIndex((m) => !chunkBytes.has(m.bytes));
    if (bad >= 0) {
      const m = perRank[r][bad], count = m.bytes / BYTES_PER_NUMBER;
      const what = m.bytes === n * BYTES_PER_NUMBER ? "the whole vector" : Number.isInteger(count) ? `${count} numbers` : "";
      return fail(`Rank ${r}'s message ${bad + 1} carried ${what ? `${what} (${m.bytes} B)` : `${m.bytes} B`}; each message is one chunk of ` +
        `${[...chunkBytes].map((b) => b / BYTES_PER_NUMBER).join(" or ")} numbers (n = ${n}, p = ${p}), ` +
        `${[...chunkBytes].join(" or ")} B as a Float64Array.` + (m.bytes % BYTES_PER_NUMBER ? ` ${plainArrayNote}` : ""));
    }
  }
  const lost = undelivered(trace);
  if (lost) return fail(`Rank ${lost.dst} never received a message rank ${lost.src} sent: every send needs a matching <code>recv</code>.`);

  // 2. Every rank's vector equals the elementwise sum, recomputed here from the case's inputs.
  const want = Array.from({ length: n }, (_, i) => data.reduce((acc, d) => acc + d[i], 0));
  for (let r = 0; r < p; r++) {
    const got = asNumbers(run.results?.[r]);
    if (!got || got.length !== n) {
      return fail(`Rank ${r} returned ${got ? `${got.length} numbers` : "no array"}; every rank must return the summed vector ` +
        `of n = ${n} numbers (an Array or a Float64Array).`);
    }
    const wrongIdx = want.flatMap((w, i) => (got[i] === w ? [] : [i]));
    if (!wrongIdx.length) continue;
    const c = chunkOf(n, p, wrongIdx[0]);
    const indices = wrongIdx.filter((i) => chunkOf(n, p, i) === c);
    const chunks = [...new Set(wrongIdx.map((i) => chunkOf(n, p, i)))];
    const { text, why } = describeWrongSum({ rank: r, where: chunkText(n, p, c), indices,
      got: indices.map((i) => got[i]), want: indices.map((i) => want[i]), contrib: data.map((d) => indices.map((i) => d[i])) });
    const likely = !why ? "" : why.sign > 0
      ? " Counting a contribution twice usually means adding in the all-gather half, where the arriving chunk is already complete, or adding one chunk in two steps."
      : " A missing contribution usually means a chunk was copied where it should be added, or added into the wrong chunk.";
    return fail(`${text}${chunks.length > 1 ? ` Rank ${r} has wrong values in chunks ${chunks.join(", ")}.` : ""}${likely} ${RULE}`);
  }

  const sent = perRank.map((list) => list.reduce((acc, m) => acc + m.bytes, 0));
  const ideal = 2 * (p - 1) / p * n * BYTES_PER_NUMBER;
  return pass(`${upperFirst(plural(p, "rank", { article: "all" }))} hold the sum. Each rank sent ${2 * (p - 1)} messages and ${formatBytes(Math.min(...sent), 4)}` +
    `${Math.max(...sent) !== Math.min(...sent) ? `–${formatBytes(Math.max(...sent), 4)}` : ""}, against 2(p − 1)/p·n·8 B = ${formatBytes(ideal, 4)}.` +
    replayNote(run, testCase, replays, core));
}

export const ringAllreduce = codeExercise({
  id: "w2-ring-allreduce",
  title: "Ring all-reduce",
  prompt: `<p>Write <code>main(ctx)</code> for p ranks (2 to 16) arranged in a ring. Each rank holds a vector
    <code>ctx.input.data</code> of n numbers (not always divisible by p; when n &lt; p some chunks are empty). Every rank must return the
    elementwise sum over all ranks, computed by ring all-reduce: split the vector into p chunks (the first
    n mod p one element longer — the starter's <code>chunk(c)</code>), run p − 1 reduce-scatter steps and then
    p − 1 all-gather steps, sending only to rank (r + 1) mod p.</p>
    <p>Send chunks as <code>Float64Array</code> views (8 bytes per number). The checker reads the trace — 2(p − 1)
    messages per rank, each one chunk — and recomputes the sum itself, under several delivery orders, once with
    synchronous sends, and on sizes you do not see; it then replays your messages in the simulator and compares
    them with the formula and the lower bound.</p>`,
  ranks: (rng) => intBetween(rng, 2, 8),
  mustCover: { ranks: [2, 16], odd: true, emptyChunks: true },   // the hidden cases reach these p (judging.test.mjs)
  visibleRanks: [2, 3, 4, 5, 6, 7, 8],   // every p the visible cases draw (exercise_rules.test.mjs)
  hints: [
    "Loop <code>for (let k = 0; k &lt; 2 * (p - 1); k++)</code>. In each step send one chunk to <code>next</code> " +
      "without awaiting it, then <code>await ctx.recv(prev)</code> one chunk. A send that is not awaited never blocks, so " +
      "sending first cannot deadlock — awaiting it can, when a send completes only once it is received.",
    "In step k rank r sends chunk <code>mod(r - k)</code> and receives chunk <code>mod(r - k - 1)</code> — the chunk its " +
      "left neighbour sent, which is the one rank r sends on in step k + 1.",
    "For k &lt; p − 1 add the received numbers into your chunk; from k = p − 1 on the chunk that arrives is already " +
      "complete: copy it with <code>chunk(c).set(got)</code>. Adding there counts contributions twice.",
    "<code>buf.subarray(a, b)</code> is a view: writing into it writes into <code>buf</code>, and sending it sends " +
      "exactly b − a numbers (the cluster copies them at the send).",
  ],
  solutionText: `<p>After reduce-scatter step k, rank r's chunk (r − k − 1) mod p holds the sum over the k + 2 ranks
    r − k − 1, …, r. So after step p − 2 rank r holds the complete sum of chunk (r + 1) mod p, and in the all-gather half
    each complete chunk travels p − 1 more hops, copied rather than added. Every step moves one chunk of n/p numbers
    over every link at once: 2(p − 1) steps of α + (n/p)·β, i.e. 2(p − 1)α + 2((p − 1)/p)·nβ, which meets the bandwidth
    lower bound for all-reduce. The α term grows with p — the reason small messages prefer recursive doubling.</p>`,
  starterExpect: /Rank 0 sent 0 messages; ring all-reduce sends 2\(p − 1\) = 4 per rank/,   // nothing sent; p = 3: 2 · 2
}, { starter, solution, wrongs, cases, edgeCases, check, replays });
