// bsp_superstep.js — code exercise "w1-bsp-step": one BSP superstep (Valiant 1990) on a ring of p ranks:
// compute locally, then exchange the small result with both neighbours. This is the shape of a halo
// exchange in a stencil code and, in miniature, of every training step: local work, then communication.
//
// The checker trusts the trace: 2p messages, each rank sends exactly one to each neighbour, each message
// is the one-number partial sum (≤ 64 B, not the raw data); then every rank's result is compared.
import { esc, intBetween, pick, term } from "../../../web/exercise/params.js";
import { centralMessage, fail, hubOf, pass, sameNumber, sentBy, undelivered, unfinished } from "../../../web/exercise/run_checks.js";
import { codeExercise } from "../../../web/exercise/code_exercise.js";
import { plural } from "../../../web/units.js";

const MAX_BYTES = 64;   // a number is 8 B; a small JSON value a few dozen; the raw block is far larger

const starter = `// Runs on p ranks (3 to 16) in a ring. ctx.input = { values: [integers] }, this rank's block of data.
// One BSP superstep: (1) compute the sum of your own values; (2) send that one number to your left
// and right neighbours and receive theirs; (3) return left's sum + your sum + right's sum.
async function main(ctx) {
  const left = (ctx.rank - 1 + ctx.size) % ctx.size;
  const right = (ctx.rank + 1) % ctx.size;
  // TODO
}
`;

const solution = `// One BSP superstep: local compute, then exchange one number with each neighbour.
async function main(ctx) {
  const left = (ctx.rank - 1 + ctx.size) % ctx.size;
  const right = (ctx.rank + 1) % ctx.size;
  const mine = ctx.input.values.reduce((a, b) => a + b, 0);   // compute: O(block) work, no messages
  ctx.send(left, mine);                                       // communicate: 8 bytes each way; not awaited,
  ctx.send(right, mine);                                      // so these are nonblocking sends and receiving
  const fromLeft = await ctx.recv(left);                      // after them cannot deadlock, even when a send
  const fromRight = await ctx.recv(right);                    // completes only once it is received
  return fromLeft + mine + fromRight;
}
`;

const wrongs = [
  // Correct numbers, wrong communication: ships the whole block and sums on arrival. The superstep's
  // point — compute where the data is, communicate the small result — is lost, and the checker says so.
  { name: "the whole block sent instead of its sum",
    code: `async function main(ctx) {
  const left = (ctx.rank - 1 + ctx.size) % ctx.size;
  const right = (ctx.rank + 1) % ctx.size;
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  ctx.send(left, ctx.input.values);
  ctx.send(right, ctx.input.values);
  const fromLeft = await ctx.recv(left);
  const fromRight = await ctx.recv(right);
  return sum(fromLeft) + sum(ctx.input.values) + sum(fromRight);
}
`,
    expect: /Send only your partial sum/ },
  { name: "awaiting each send before receiving (relies on buffered sends)",
    code: solution.replace("  ctx.send(left, mine); ", "  await ctx.send(left, mine);").replace("  ctx.send(right, mine); ", "  await ctx.send(right, mine);"),
    expect: /Deadlock with synchronous sends: rank \d+ waits in send for rank \d+/ },
  { name: "the right neighbour's sum left out",
    code: solution.replace("return fromLeft + mine + fromRight;", "return fromLeft + mine;"),
    expect: /misses (one of )?rank \d+'s sum \(its (left neighbour\) and rank \d+'s sum \(its )?right neighbour\)/ },
  { name: "left without wrapping around (JavaScript's % keeps the sign)",
    code: solution.replace("const left = (ctx.rank - 1 + ctx.size) % ctx.size;", "const left = (ctx.rank - 1) % ctx.size;"),
    expect: /there is no rank -1.*keeps the sign/ },
  { name: "a central step: every sum to rank 0, which sends each rank its answer",
    code: `async function main(ctx) {
  const p = ctx.size, mine = ctx.input.values.reduce((a, b) => a + b, 0);
  if (ctx.rank !== 0) { ctx.send(0, mine); return await ctx.recv(0); }
  const sums = [mine];
  for (let r = 1; r < p; r++) sums.push(await ctx.recv(r));
  const around = (r) => sums[(r - 1 + p) % p] + sums[r] + sums[(r + 1) % p];
  for (let r = 1; r < p; r++) ctx.send(r, around(r));
  return around(0);
}
`,
    expect: /central computation/ },
];

function cases(rng) {
  const one = (ranks) => {
    const blocks = Array.from({ length: ranks }, () =>
      Array.from({ length: intBetween(rng, 50, 120) }, () => intBetween(rng, -9, 9)));
    return { ranks, inputs: blocks.map((values) => ({ values })), blocks };
  };
  return [one(intBetween(rng, 3, 5)), one(intBetween(rng, 6, 8))];
}

// Hidden: the smallest ring with two distinct neighbours, and the largest, with one-number blocks too.
function edgeCases(rng) {
  return [[3, 1], [pick(rng, [11, 13]), 40], [16, 1]].map(([ranks, length]) => {
    const blocks = Array.from({ length: ranks }, () => Array.from({ length }, () => intBetween(rng, -9, 9)));
    return { ranks, inputs: blocks.map((values) => ({ values })), blocks };
  });
}

function check(run, testCase) {
  const stop = unfinished(run);
  if (stop) return stop;
  const { ranks: p, blocks } = testCase;
  const trace = run.trace ?? [];
  const left = (r) => (r - 1 + p) % p, right = (r) => (r + 1) % p;

  // 1. Who sent what to whom.
  const hub = hubOf(trace, p);
  if (hub !== null) return centralMessage(hub, "a ring of neighbours");
  for (const m of trace) {
    if (m.dst !== left(m.src) && m.dst !== right(m.src)) {
      return fail(`Rank ${m.src} sent to rank ${m.dst}, which is not its neighbour: rank ${m.src}'s neighbours are ` +
        `rank ${left(m.src)} (left) and rank ${right(m.src)} (right).`);
    }
    if (m.bytes > MAX_BYTES) {
      return fail(`Rank ${m.src} sent ${m.bytes} B to rank ${m.dst}. Send only your partial sum — one number, 8 B — not your ` +
        "block: a superstep computes where the data lives and communicates the small result.");
    }
  }
  const perRank = sentBy(trace, p);
  for (let r = 0; r < p; r++) {
    const toLeft = perRank[r].filter((m) => m.dst === left(r)).length;
    const toRight = perRank[r].filter((m) => m.dst === right(r)).length;
    if (toLeft !== 1 || toRight !== 1) {
      return fail(`Rank ${r} sent ${plural(toLeft, "message")} to its left neighbour (rank ${left(r)}) and ${toRight} to its right ` +
        `neighbour (rank ${right(r)}); expected exactly one to each (${2 * p} messages in all, ${trace.length} were sent).`);
    }
  }
  const lost = undelivered(trace);
  if (lost) return fail(`Rank ${lost.dst} never received the message from rank ${lost.src}: receive from both neighbours.`);

  // 2. Every rank's result: left's sum + own sum + right's sum.
  const sums = blocks.map((values) => values.reduce((a, b) => a + b, 0));
  for (let r = 0; r < p; r++) {
    const expected = sums[left(r)] + sums[r] + sums[right(r)];
    const got = run.results?.[r];
    if (!sameNumber(got, expected)) {
      const terms = [[sums[left(r)], `rank ${left(r)}'s sum (its left neighbour)`], [sums[r], "its own sum"],
        [sums[right(r)], `rank ${right(r)}'s sum (its right neighbour)`]];
      const missing = terms.filter(([x]) => x !== 0 && sameNumber(got, expected - x)).map(([, who]) => who);
      const which = missing.length === 1 ? ` That misses ${missing[0]}.`
        : missing.length > 1 ? ` That misses one of ${missing.join(" and ")}, which are equal here.` : "";
      return fail(`Rank ${r} returned ${esc(JSON.stringify(got) ?? "nothing")}; expected ${term(sums[left(r)])} (rank ${left(r)}) + ` +
        `${term(sums[r])} (its own) + ${term(sums[right(r)])} (rank ${right(r)}) = ${expected}.${which} Return left + own + right.`);
    }
  }
  return pass(`${2 * p} messages of at most ${Math.max(...trace.map((m) => m.bytes))} B, one to each neighbour, and all ${p} ` +
    "ranks returned the right neighbourhood sum.");
}

export const bspStep = codeExercise({
  id: "w1-bsp-step",
  title: "One BSP superstep",
  prompt: `<p>Write <code>main(ctx)</code> for p ranks in a ring. Each rank holds a block of integers in
    <code>ctx.input.values</code>. In one superstep each rank (1) computes the sum of its block, (2) sends that
    <em>one number</em> to both neighbours, (r − 1) mod p and (r + 1) mod p, and receives theirs, and (3) returns
    left's sum + its own + right's sum. The checker varies p (3 to 16) and the blocks, runs your code under several
    delivery orders and once with synchronous sends, and reads the message trace: exactly one message to each
    neighbour, each at most ${MAX_BYTES} bytes.</p>`,
  ranks: (rng) => intBetween(rng, 3, 8),
  mustCover: { ranks: [3, 16], odd: true },   // the hidden cases reach these p (judging.test.mjs)
  visibleRanks: [3, 4, 5, 6, 7, 8],   // every p the visible cases draw (exercise_rules.test.mjs)
  hints: [
    "Compute first, with no messages: <code>const mine = ctx.input.values.reduce((a, b) => a + b, 0);</code>",
    "Then send <code>mine</code> to <code>left</code> and to <code>right</code>, and receive one number from each. A number travels as 8 bytes.",
    "Start both sends without <code>await</code>, then await the two receives. A send that is not awaited never blocks, so " +
      "everyone may send first and receive second. The checker also runs your code with synchronous sends (a send " +
      "completes only when it is received, as MPI_Ssend): there, <code>await ctx.send(…)</code> before receiving deadlocks.",
  ],
  solutionText: `<p>Sum locally, send the sum to both neighbours, receive theirs, return the three-term sum. In BSP terms the
    superstep costs w + g·h + l: w the local work (one pass over the block), h = 2 numbers sent and received per rank,
    and l the synchronisation. In α–β terms the communication is 2·(α + 8β) per rank on a single-port network, far less
    than shipping the block. Step time = compute + communicate here, because nothing overlaps; the iron law of the lesson
    asks when overlapping the two would pay.</p>`,
  starterExpect: /expected exactly one to each \(10 messages in all, 0 were sent\)/,   // nothing sent; p = 5 ranks × 2 neighbours
}, { starter, solution, wrongs, cases, edgeCases, check });
