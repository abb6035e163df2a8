// bsp_superstep.js — code exercise "w1-bsp-step": one BSP superstep (Valiant 1990) on a ring of p ranks:
// compute locally, then exchange the small result with both neighbours. This is the shape of a halo
// exchange in a stencil code and, in miniature, of every training step: local work, then communication.
//
// The checker trusts the trace: 2p messages, each rank sends exactly one to each neighbour, each message
// is the one-number partial sum (≤ 64 B, not the raw data); then every rank's result is compared.
import { esc, intBetween, term } from "../../web/exercise/params.js";
import { fail, pass, sameNumber, sentBy, undelivered, unfinished } from "../../web/exercise/run_checks.js";

const MAX_BYTES = 64;   // a number is 8 B; a small JSON value a few dozen; the raw block is far larger

const starter = `// Runs on p ranks (3 to 8) in a ring. ctx.input = { values: [integers] }, this rank's block of data.
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
  ctx.send(left, mine);                                       // communicate: 8 bytes each way
  ctx.send(right, mine);
  const fromLeft = await ctx.recv(left);                      // sends are buffered, so receiving after
  const fromRight = await ctx.recv(right);                    // sending cannot deadlock here
  return fromLeft + mine + fromRight;
}
`;

// Correct numbers, wrong communication: ships the whole block and sums on arrival. The superstep's
// point — compute where the data is, communicate the small result — is lost, and the checker says so.
const wrong = `async function main(ctx) {
  const left = (ctx.rank - 1 + ctx.size) % ctx.size;
  const right = (ctx.rank + 1) % ctx.size;
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  ctx.send(left, ctx.input.values);
  ctx.send(right, ctx.input.values);
  const fromLeft = await ctx.recv(left);
  const fromRight = await ctx.recv(right);
  return sum(fromLeft) + sum(ctx.input.values) + sum(fromRight);
}
`;

function cases(rng) {
  const one = (ranks) => {
    const blocks = Array.from({ length: ranks }, () =>
      Array.from({ length: intBetween(rng, 50, 120) }, () => intBetween(rng, -9, 9)));
    return { ranks, inputs: blocks.map((values) => ({ values })), blocks };
  };
  return [one(intBetween(rng, 3, 5)), one(intBetween(rng, 6, 8))];
}

function check(run, testCase) {
  const stop = unfinished(run);
  if (stop) return stop;
  const { ranks: p, blocks } = testCase;
  const trace = run.trace ?? [];
  const left = (r) => (r - 1 + p) % p, right = (r) => (r + 1) % p;

  // 1. Who sent what to whom.
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
      return fail(`Rank ${r} sent ${toLeft} message(s) to its left neighbour (rank ${left(r)}) and ${toRight} to its right ` +
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
      return fail(`Rank ${r} returned ${esc(JSON.stringify(got) ?? "nothing")}; expected ${term(sums[left(r)])} (rank ${left(r)}) + ` +
        `${term(sums[r])} (its own) + ${term(sums[right(r)])} (rank ${right(r)}) = ${expected}. Return left + own + right.`);
    }
  }
  return pass(`${2 * p} messages of at most ${Math.max(...trace.map((m) => m.bytes))} B, one to each neighbour, and all ${p} ` +
    "ranks returned the right neighbourhood sum.");
}

export const bspStep = {
  id: "w1-bsp-step",
  kind: "code",
  title: "One BSP superstep",
  prompt: `<p>Write <code>main(ctx)</code> for p ranks in a ring. Each rank holds a block of integers in
    <code>ctx.input.values</code>. In one superstep each rank (1) computes the sum of its block, (2) sends that
    <em>one number</em> to both neighbours, (r − 1) mod p and (r + 1) mod p, and receives theirs, and (3) returns
    left's sum + its own + right's sum. The checker varies p (3 to 8) and the blocks, and reads the message trace:
    exactly one message to each neighbour, each at most ${MAX_BYTES} bytes.</p>`,
  ranks: (rng) => intBetween(rng, 3, 8),
  starter,
  solution,
  wrong,
  cases,
  check,
  hints: [
    "Compute first, with no messages: <code>const mine = ctx.input.values.reduce((a, b) => a + b, 0);</code>",
    "Then send <code>mine</code> to <code>left</code> and to <code>right</code>, and receive one number from each. A number travels as 8 bytes.",
    "Sends here are buffered (they return without waiting for the receiver), so everyone may send first and receive second. " +
      "With synchronous sends, as MPI may use for large messages, that order could deadlock (see the " +
      "<code>MPI_Send</code> sidenote in <a href=\"#messages\">Processes and messages</a>).",
  ],
  solutionText: `<p>Sum locally, send the sum to both neighbours, receive theirs, return the three-term sum. In BSP terms the
    superstep costs w + g·h + l: w the local work (one pass over the block), h = 2 numbers sent and received per rank,
    and l the synchronisation. In α–β terms the communication is 2·(α + 8β) per rank on a single-port network, far less
    than shipping the block. Step time = compute + communicate here, because nothing overlaps; the iron law of the lesson
    asks when overlapping the two would pay.</p>`,
};
