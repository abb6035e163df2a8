// elastic_ring.js — code exercise "w6-elastic-ring": a ring all-reduce per step on P Workers, two of which fail at a
// seeded step; the survivors rebuild the ring over themselves and carry on (torchrun / Horovod Elastic's re-rendezvous,
// without the re-launch). Every rank knows from ctx.input which ranks fail and when (the detection is given: a
// heartbeat timeout would tell it); a failed rank returns at that step.
//
// Checked under shuffled delivery orders from the run alone: no message reaches for a rank after it failed (a message to
// a returned rank is never received: the trace shows it undelivered), before the failure every rank sends the 2(P − 1)
// chunks of Week 2's ring to rank r + 1, after it every survivor sends 2(P' − 1) chunks of n/P' numbers to the next
// survivor (P' = P − 2, neighbours by position among the survivors), and every rank's sums are recomputed here.
import { intBetween, pick, pickSorted } from "../../../web/exercise/params.js";
import { centralMessage, fail, hubOf, pass, sentBy, unfinished } from "../../../web/exercise/run_checks.js";
import { BYTES_PER_NUMBER, asNumbers, chunkText, chunkOf, describeWrongSum, nonZeroInt } from "../../../web/exercise/collective_checks.js";
import { codeExercise } from "../../../web/exercise/code_exercise.js";
import { plural } from "../../../web/units.js";

const RULE = "After the failure the ring is the list of survivors in rank order: the rank at position i sends to " +
  "position (i + 1) mod P′ and numbers its chunks by its position, so in step k it sends chunk (i − k) mod P′ of " +
  "n/P′ numbers (P′ = P − 2).";

const RING = `// Week 2's ring all-reduce of buf (in place) over the ranks listed in \`ring\`.
async function ringAllreduce(ctx, buf, ring) {
  const p = ring.length, i = ring.indexOf(ctx.rank), n = buf.length;
  const mod = (x) => ((x % p) + p) % p;
  const start = (c) => c * Math.floor(n / p) + Math.min(c, n % p);    // chunk c = [start(c), start(c + 1))
  const chunk = (c) => buf.subarray(start(c), start(c + 1));
  const next = ring[mod(i + 1)], prev = ring[mod(i - 1)];
  for (let k = 0; k < 2 * (p - 1); k++) {
    ctx.send(next, chunk(mod(i - k)));
    const got = await ctx.recv(prev);
    const mine = chunk(mod(i - k - 1));
    if (k < p - 1) for (let j = 0; j < got.length; j++) mine[j] += got[j];
    else mine.set(got);
  }
  return buf;
}
`;

const MAIN = `// ctx.input = { steps: [[n numbers] per step], failed: [a, b], failAt: f }. Every rank knows them.
async function main(ctx) {
  const { steps, failed, failAt } = ctx.input;
  const everyone = Array.from({ length: ctx.size }, (_, r) => r);
  const survivors = everyone.filter((r) => !failed.includes(r));
  const sums = [];
  for (let t = 0; t < steps.length; t++) {
    if (t === failAt && failed.includes(ctx.rank)) return sums;      // this rank fails here
    const ring = t < failAt ? everyone : survivors;                   // the ring rebuilt over the survivors
    sums.push(Array.from(await ringAllreduce(ctx, Float64Array.from(steps[t]), ring)));
  }
  return sums;
}
`;

const solution = `${MAIN}\n${RING}`;
const STEPS = "  for (let t = 0; t < steps.length; t++) {";   // main's loop over the steps (a line wrong programs insert before)

const starter = `// ctx.input = { steps: [[n numbers] per step], failed: [a, b], failAt: f }. Every rank knows them.
// Each step is a ring all-reduce of that step's vector. At step failAt the two ranks in \`failed\` stop (they
// return); the others must rebuild the ring over the survivors and finish every step among themselves.
// Every rank returns the sums of the steps it took part in (an array of arrays).
async function main(ctx) {
  const { steps, failed, failAt } = ctx.input;
  const everyone = Array.from({ length: ctx.size }, (_, r) => r);
  const sums = [];
  for (let t = 0; t < steps.length; t++) {
    if (t === failAt && failed.includes(ctx.rank)) return sums;      // this rank fails here
    // TODO: from step failAt on, the ring is the survivors only.
    sums.push(Array.from(await ringAllreduce(ctx, Float64Array.from(steps[t]), everyone)));
  }
  return sums;
}

// Week 2's ring all-reduce of buf (in place), written for the ring of all ranks.
// TODO: make it run over the ranks listed in \`ring\` (neighbours and chunks by position in the list).
async function ringAllreduce(ctx, buf, ring) {
  const p = ctx.size, r = ctx.rank, n = buf.length;
  const mod = (x) => ((x % p) + p) % p;
  const start = (c) => c * Math.floor(n / p) + Math.min(c, n % p);    // chunk c = [start(c), start(c + 1))
  const chunk = (c) => buf.subarray(start(c), start(c + 1));
  const next = mod(r + 1), prev = mod(r - 1);
  for (let k = 0; k < 2 * (p - 1); k++) {
    ctx.send(next, chunk(mod(r - k)));
    const got = await ctx.recv(prev);
    const mine = chunk(mod(r - k - 1));
    if (k < p - 1) for (let j = 0; j < got.length; j++) mine[j] += got[j];
    else mine.set(got);
  }
  return buf;
}
`;

const wrongs = [
  { name: "the old ring kept after the failure",
    code: solution.replace("const ring = t < failAt ? everyone : survivors;", "const ring = everyone;"),
    expect: /sent .* to rank \d+, which failed at step \d+/ },
  { name: "a dead neighbour skipped, but only one (two adjacent failures)",
    code: solution.replace("const next = ring[mod(i + 1)], prev = ring[mod(i - 1)];", `const all = ctx.size, gone = (x) => !ring.includes(x);
  const step = (d) => { let x = (ctx.rank + d + all) % all; if (gone(x)) x = (x + d + all) % all; return x; };
  const next = step(1), prev = step(-1);`),
    expect: /which failed at step \d+.*next to each other/ },
  { name: "chunks numbered by rank, not by position among the survivors",
    code: solution.replace("ctx.send(next, chunk(mod(i - k)));", "ctx.send(next, chunk(mod(ctx.rank - k)));")
      .replace("const mine = chunk(mod(i - k - 1));", "const mine = chunk(mod(ctx.rank - k - 1));"),
    expect: /(misses|counts|is wrong in|did not fit)[\s\S]*numbers its chunks by its position/ },
  { name: "the survivors' ring still cut into P chunks, 2(P − 1) steps",
    code: solution.replace("const p = ring.length, i = ring.indexOf(ctx.rank)", "const p = ctx.size, i = ring.indexOf(ctx.rank)")
      .replace("const next = ring[mod(i + 1)], prev = ring[mod(i - 1)];",
        "const next = ring[(i + 1) % ring.length], prev = ring[(i - 1 + ring.length) % ring.length];"),
    expect: /(after the failure; a ring of the \d+ survivors sends 2\(P′ − 1\)|did not fit[\s\S]*n\/P′ numbers)/ },
  { name: "after the failure, a central sum on the first survivor",
    code: solution.replace("sums.push(Array.from(await ringAllreduce(ctx, Float64Array.from(steps[t]), ring)));",
      `const buf = Float64Array.from(steps[t]);
    if (t < failAt) { sums.push(Array.from(await ringAllreduce(ctx, buf, ring))); continue; }
    if (ctx.rank !== ring[0]) { ctx.send(ring[0], buf); sums.push(Array.from(await ctx.recv(ring[0]))); continue; }
    for (const r of ring.slice(1)) { const got = await ctx.recv(r); for (let j = 0; j < buf.length; j++) buf[j] += got[j]; }
    for (const r of ring.slice(1)) ctx.send(r, buf);
    sums.push(Array.from(buf));`),
    expect: /central computation/ },
  { name: "the failing ranks wait on a promise nobody resolves before the first step",
    code: solution.replace(STEPS, `  if (failed.includes(ctx.rank)) await new Promise(() => {});   // told of the failure … by nobody\n${STEPS}`),
    expect: /suspended on a promise.*ranks \d+ and \d+ at line 7/ },
  { name: "the failing ranks wait for each other's notice before the first step",
    code: solution.replace(STEPS, `  if (failed.includes(ctx.rank)) await ctx.recv(failed.find((x) => x !== ctx.rank), { tag: "fail" });\n${STEPS}`),
    expect: /Deadlock: rank \d+ waits for rank \d+.*ranks \d+ and \d+ at line 7/ },
];

// A case: P ranks, T steps of n numbers, two failures at step f (1 ≤ f < T). `adjacent`: the failed ranks are
// neighbours; `middle`: at least one failed rank is not among the last two (so rank ≠ position afterwards).
function ringCase(rng, ranks, { adjacent = false } = {}) {
  const steps = intBetween(rng, 3, 5), failAt = intBetween(rng, 1, steps - 1);
  let failed;
  if (adjacent) { const a = intBetween(rng, 0, ranks - 3); failed = [a, a + 1]; }
  else failed = pickSorted(rng, Array.from({ length: ranks - 2 }, (_, r) => r), 2);   // neither is the last rank
  const q = ranks - 2, n = q * intBetween(rng, 1, 3) + intBetween(rng, 1, q - 1 || 1);
  const data = Array.from({ length: ranks }, () => Array.from({ length: steps }, () => Array.from({ length: n }, () => nonZeroInt(rng))));
  return { ranks, n, steps, failAt, failed, data, inputs: data.map((d) => ({ steps: d, failed, failAt })) };
}
const cases = (rng) => [ringCase(rng, intBetween(rng, 5, 6)), ringCase(rng, intBetween(rng, 6, 8), { adjacent: true })];
const edgeCases = (rng) => [ringCase(rng, 16, { adjacent: pick(rng, [false, true]) }), ringCase(rng, 4), ringCase(rng, 7, { adjacent: true })];

const chunkSizes = (n, p) => new Set([Math.floor(n / p), Math.ceil(n / p)].map((c) => c * BYTES_PER_NUMBER));

function check(run, testCase) {
  const { ranks: P, n, steps: T, failAt: f, failed, data } = testCase;
  const trace = run?.trace ?? [];
  const alive = [...Array(P).keys()].filter((r) => !failed.includes(r)), q = alive.length;
  // 1. Nothing sent to a rank that had already failed: it returned, so such a message is never received. Only a rank
  // that did return counts: one that loops, waits or threw before its failure leaves its messages unreceived too, and
  // that is the cause to name (unfinished, below, with its line).
  const returned = (r) => run?.results?.[r] !== undefined;
  const ghost = trace.find((m) => failed.includes(m.dst) && returned(m.dst) && (m.recvTime === null || m.recvTime === undefined));
  if (ghost) {
    const gap = (ghost.dst - ghost.src + P) % P;   // 2 (or P − 2): one dead neighbour was skipped, the next one not
    const adjacent = (gap === 2 || gap === P - 2) && [1, P - 1].includes((failed[1] - failed[0] + P) % P);
    const i = alive.indexOf(ghost.src);
    return fail(`Rank ${ghost.src} sent a message to rank ${ghost.dst}, which failed at step ${f} and never received it. ` +
      `From step ${f} on the ring is the survivors ${alive.join(", ")}` +
      (i >= 0 ? `: rank ${ghost.src}'s neighbours are rank ${alive[(i - 1 + q) % q]} (left) and rank ${alive[(i + 1) % q]} (right).` : ".") +
      (adjacent ? ` Ranks ${failed[0]} and ${failed[1]} are next to each other: skipping one dead neighbour is not enough — ` +
        "take the neighbours from the list of survivors." : ""));
  }
  const stop = unfinished(run);
  if (stop) {
    if (!/offset is out of bounds/.test(run.error?.message ?? "")) return stop;
    return fail(`${stop.message} The chunk that arrived did not fit the chunk you put it into. ${RULE}`);
  }
  // 2. The messages: Week 2's ring of P before the failure, the ring of the survivors after it.
  const perRank = sentBy(trace, P, { run });
  const before = 2 * (P - 1) * f, after = 2 * (q - 1) * (T - f);
  const late = alive.flatMap((r) => perRank[r].slice(before));
  const hub = hubOf(late, P);
  if (hub !== null && q >= 3) return centralMessage(hub, "a ring all-reduce among the survivors");
  for (let r = 0; r < P; r++) {
    const mine = perRank[r], dead = failed.includes(r), want = dead ? before : before + after;
    const early = mine.slice(0, before).find((m) => m.dst !== (r + 1) % P || !chunkSizes(n, P).has(m.bytes));
    if (early) {
      return fail(`Before the failure rank ${r} sent ${early.bytes} B to rank ${early.dst}; the full ring sends one chunk of ` +
        `n/P numbers to rank ${(r + 1) % P}.`);
    }
    if (!dead && mine.length >= before && mine.length !== want) {
      return fail(`Rank ${r} sent ${mine.length - before} messages in the ${T - f} steps after the failure; a ring of the ${q} ` +
        `survivors sends 2(P′ − 1) = ${2 * (q - 1)} per step, ${after} in all. ${RULE}`);
    }
    if (mine.length !== want) {
      return fail(`Rank ${r} sent ${mine.length} messages; with ${P} ranks for ${f} steps` +
        (dead ? ` (it failed at step ${f})` : ` and ${q} for ${T - f}`) + ` it sends ${want}. ${RULE}`);
    }
    if (dead) continue;
    const next = alive[(alive.indexOf(r) + 1) % q];
    const wrong = mine.slice(before).find((m) => m.dst !== next || !chunkSizes(n, q).has(m.bytes));
    if (wrong) {
      return fail(`After the failure rank ${r} sent ${wrong.bytes} B to rank ${wrong.dst}; among the survivors ` +
        `${alive.join(", ")} its right neighbour is rank ${next}, and each message is one chunk of n/P′ = ${n}/${q} numbers. ${RULE}`);
    }
  }
  // 3. The sums, recomputed here: over all P ranks before the failure, over the survivors after it.
  for (let r = 0; r < P; r++) {
    const got = run.results?.[r];
    const mustHave = failed.includes(r) ? f : T;
    if (!Array.isArray(got) || got.length !== mustHave) {
      return fail(`Rank ${r} returned ${Array.isArray(got) ? `${got.length} sums` : "no array"}; it took part in ${mustHave} ` +
        "steps and returns the sum of each (an array of arrays).");
    }
    for (let t = 0; t < mustHave; t++) {
      const ring = t < f ? [...Array(P).keys()] : alive, p = ring.length;
      const want = Array.from({ length: n }, (_, e) => ring.reduce((a, s) => a + data[s][t][e], 0));
      const vec = asNumbers(got[t]);
      if (!vec || vec.length !== n) return fail(`Rank ${r}'s sum of step ${t} is not ${n} numbers.`);
      const bad = want.flatMap((w, e) => (vec[e] === w ? [] : [e]));
      if (!bad.length) continue;
      const c = chunkOf(n, p, bad[0]), idx = bad.filter((e) => chunkOf(n, p, e) === c);
      // Every rank's contribution, the failed ones' as zeros after the failure (so they never explain a sum).
      const contrib = data.map((d, s) => idx.map((e) => (ring.includes(s) ? d[t][e] : 0)));
      const { text } = describeWrongSum({ rank: r, where: `step ${t}'s ${chunkText(n, p, c)}`, indices: idx,
        got: idx.map((e) => vec[e]), want: idx.map((e) => want[e]), contrib });
      return fail(`${text} ${t < f ? "(before the failure)" : `(after the failure at step ${f})`}. ${RULE}`);
    }
  }
  return pass(`The ring of ${P} lost ranks ${failed.join(" and ")} at step ${f}; ${plural(q, "survivor", { article: "the" })} rebuilt it and finished ` +
    `${plural(T - f, "more step", "more steps")}, each rank sending 2(P′ − 1) = ${2 * (q - 1)} chunks per step to its new ` +
    "right neighbour, and every sum is right.");
}

export const elasticRing = codeExercise({
  id: "w6-elastic-ring",
  title: "Rebuild the ring after losing two workers",
  prompt: `<p>Every step, the P ranks ring all-reduce that step's vector (Week 2). At step <code>failAt</code> the two ranks
    in <code>failed</code> stop for good — they return. The survivors must carry on: rebuild the ring over themselves
    (left and right neighbours by their <em>position</em> in the list of survivors, chunks numbered by that position) and
    finish every remaining step with a ring all-reduce of P − 2 ranks.</p>
    <p>Every rank returns the sums of the steps it took part in. The checker runs your code under shuffled delivery orders
    with the failure at a seeded step, reads the trace (nothing sent to a failed rank; 2(P′ − 1) chunks per survivor per
    step to its new neighbour) and recomputes every sum.</p>`,
  ranks: 6,
  timeoutMs: 20000,   // a run's watchdog on the Workers: up to 16 ranks on a slow device
  mustCover: { ranks: [4, 16], odd: true },   // the hidden cases reach these p (judging.test.mjs)
  exempt: { thirdAttempt: "week6_code.test.mjs judges every wrong program on attempts 3 and 4" },
  summarizeResult: (value) => (Array.isArray(value) ? `the sums of ${value.length} steps` : undefined),
  hints: [
    "<code>const survivors = everyone.filter((r) =&gt; !failed.includes(r))</code>; before step <code>failAt</code> the ring is " +
      "<code>everyone</code>, from it on <code>survivors</code>.",
    "In <code>ringAllreduce</code>, let <code>p = ring.length</code> and <code>i = ring.indexOf(ctx.rank)</code>; the " +
      "neighbours are <code>ring[(i + 1) % p]</code> and <code>ring[(i - 1 + p) % p]</code>.",
    "Number the chunks by the position <code>i</code>, not by <code>ctx.rank</code>: in step k send chunk (i − k) mod p. " +
      "With survivors 0, 2, 4, 5 rank 4 is at position 2.",
  ],
  solutionText: `<p>A ring all-reduce only needs each member to know its position in a cyclic order; after a failure, the
    survivors in rank order are such an order, and Week 2's algorithm runs on it unchanged with P′ = P − 2. Everything that
    depended on P must be recomputed: the neighbours, the chunk count n/P′ and the 2(P′ − 1) steps. This is what
    torchrun's rendezvous and Horovod Elastic do after a worker is lost: agree on the new membership, assign new ranks and
    rebuild the communicator (in NCCL a new communicator over the survivors). Skipping the dead neighbour by hand breaks
    as soon as two adjacent ranks fail; numbering chunks by the old rank leaves some chunks reduced twice and others
    never.</p>`,
  starterExpect: /^Rank 0 sent a message to rank 1, which failed at step 2 and never received it/,   // the starter keeps the old ring
}, { starter, solution, wrongs, cases, edgeCases, check });
