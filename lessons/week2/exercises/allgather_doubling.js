// allgather_doubling.js — code exercise "w2-allgather-rd": all-gather by recursive doubling, p = 2, 4 or 8.
// In step k (k = 0 … log₂p − 1) rank r exchanges with r XOR 2^k all the blocks it holds so far — 2^k of
// them, a contiguous run — so the blocks held double every step: log₂p·α + ((p − 1)/p)·nβ
// (Thakur et al. 2005, n = total gathered bytes).
//
// The checker reads the trace: log₂p messages per rank, the i-th to a partner r XOR 2^j (each j once) and
// carrying 2^i blocks; then it compares every rank's result with the inputs of the case, block by block.
import { intBetween, pick } from "../../../web/exercise/params.js";
import { formatBytes, plural, upperFirst } from "../../../web/units.js";
import { centralMessage, fail, hubOf, pass, sentBy, undelivered, unfinished } from "../../../web/exercise/run_checks.js";
import { BYTES_PER_NUMBER, asNumbers, nonZeroInt, plainArrayNote, replayNote, isPowerOfTwo } from "../../../web/exercise/collective_checks.js";
import { codeExercise } from "../../../web/exercise/code_exercise.js";

const starter = `// Runs on p = 2, 4, 8 or 16 ranks. ctx.input = { block: [b numbers] }, this rank's block.
// Return all p blocks concatenated in rank order (p·b numbers): block j comes from rank j.
// Use recursive doubling: log2(p) steps; in step k the partner is r XOR 2^k, and each side sends
// every block it already holds. Send Float64Array views (8 bytes per number).
async function main(ctx) {
  const p = ctx.size, r = ctx.rank;
  const b = ctx.input.block.length;
  const out = new Float64Array(p * b);
  out.set(ctx.input.block, r * b);      // my own block goes to position r
  // TODO
  return out;
}
`;

const solution = `// Recursive-doubling all-gather: after step k each rank holds the 2^(k+1) blocks of its aligned group.
async function main(ctx) {
  const p = ctx.size, r = ctx.rank;
  const b = ctx.input.block.length;
  const out = new Float64Array(p * b);
  out.set(ctx.input.block, r * b);
  for (let d = 1; d < p; d *= 2) {              // d = 2^k: the distance, and how many blocks each side holds
    const partner = r ^ d;
    const mine = (r & ~(d - 1)) * b;            // I hold blocks [r & ~(d − 1), … + d): contiguous
    const theirs = (partner & ~(d - 1)) * b;    // the partner holds the neighbouring run of d blocks
    ctx.send(partner, out.subarray(mine, mine + d * b));   // not awaited: a nonblocking send
    out.set(await ctx.recv(partner), theirs);
  }
  return out;
}
`;

const wrongs = [
  // Sends the whole output buffer every step, zeros and all. The result is right; the traffic is not:
  // log₂p·p·b numbers per rank instead of (p − 1)·b — the checker reads it in the trace.
  { name: "the whole output buffer sent every step",
    code: `async function main(ctx) {
  const p = ctx.size, r = ctx.rank;
  const b = ctx.input.block.length;
  const out = new Float64Array(p * b);
  out.set(ctx.input.block, r * b);
  for (let d = 1; d < p; d *= 2) {
    const partner = r ^ d;
    const theirs = (partner & ~(d - 1)) * b;
    ctx.send(partner, out);                                   // everything, every time
    const got = await ctx.recv(partner);
    out.set(got.subarray(theirs, theirs + d * b), theirs);
  }
  return out;
}
`,
    expect: /Send only the contiguous run of blocks you hold/ },
  { name: "received blocks placed at the partner's own block, not its group's run",
    code: solution.replace("const theirs = (partner & ~(d - 1)) * b;", "const theirs = partner * b;"),
    expect: /put at the wrong offset|is still zeros|did not fit where you put it/ },
  { name: "the steps in the wrong order (distance p/2 first)",
    code: solution.replace("for (let d = 1; d < p; d *= 2) {", "for (let d = p / 2; d >= 1; d /= 2) {"),
    expect: /take the distances in the order 1, 2, 4/ },
  { name: "a central computation: gather to rank 0, broadcast",
    code: `async function main(ctx) {
  const p = ctx.size, r = ctx.rank, b = ctx.input.block.length;
  if (r !== 0) { ctx.send(0, Float64Array.from(ctx.input.block)); return await ctx.recv(0); }
  const out = new Float64Array(p * b);
  out.set(ctx.input.block, 0);
  for (let s = 1; s < p; s++) out.set(await ctx.recv(s), s * b);
  for (let s = 1; s < p; s++) ctx.send(s, out);
  return out;
}
`,
    expect: /central computation|not the whole buffer/ },   // with 2 ranks only the buffer rank 0 sends back shows it
  { name: "awaiting each send before receiving (relies on buffered sends)",
    code: solution.replace("    ctx.send(partner, out.subarray(mine, mine + d * b));", "    await ctx.send(partner, out.subarray(mine, mine + d * b));"),
    expect: /Deadlock with synchronous sends: rank 0 waits in send for rank 1/ },
  { name: "partners r + d (mod p) instead of r XOR d",
    code: solution.replace("const partner = r ^ d;", "const partner = (r + d) % p;"),
    expect: /partners are r XOR 1, r XOR 2/ },
];

function cases(rng) {
  const one = (ranks, b) => {
    const blocks = Array.from({ length: ranks }, () => Array.from({ length: b }, () => nonZeroInt(rng)));
    return { ranks, b, inputs: blocks.map((block) => ({ block })) };
  };
  return [one(pick(rng, [2, 4]), intBetween(rng, 1, 6)), one(pick(rng, [4, 8]), intBetween(rng, 2, 12))];
}

// Hidden: 16 ranks (4 steps), and the smallest blocks.
function edgeCases(rng) {
  const one = (ranks, b) => {
    const blocks = Array.from({ length: ranks }, () => Array.from({ length: b }, () => nonZeroInt(rng)));
    return { ranks, b, inputs: blocks.map((block) => ({ block })) };
  };
  return [one(16, intBetween(rng, 1, 3)), one(2, 1), one(16, 1)];
}

// What the messages implement: the pass message compares their replayed time with this formula (collective_checks.js).
const replays = { collective: "all-gather", algorithm: "recursive-doubling", numbers: ({ ranks, b }) => ranks * b };

function check(run, testCase, core) {
  const { ranks: p, b, inputs } = testCase;
  const blocks = inputs.map((x) => x.block);
  const steps = Math.log2(p);
  const trace = run?.trace ?? [];

  // 1. Not a central computation; the i-th message of rank r goes to r XOR 2^j, each distance once — checked
  // on whatever part of the trace exists, because a wrong partner usually ends in a deadlock.
  const hub = run?.status === "ok" ? hubOf(trace, p) : null;
  if (hub !== null) return centralMessage(hub, "recursive doubling");
  const perRank = sentBy(trace, p, { run, tie: (a, b) => a.bytes - b.bytes });   // a rank sends more each step
  for (let r = 0; r < p; r++) {
    const used = new Set();
    for (const [i, m] of perRank[r].slice(0, steps).entries()) {
      const dist = m.src ^ m.dst;
      if (!isPowerOfTwo(dist) || used.has(dist)) {
        return fail(`Rank ${r}'s message ${i + 1} went to rank ${m.dst}. In recursive doubling rank r's partners are ` +
          `r XOR 1, r XOR 2, r XOR 4, …, each once: for rank ${r} that is rank${steps > 1 ? "s" : ""} ` +
          `${[...Array(steps).keys()].map((j) => r ^ (1 << j)).join(", ")}.`);
      }
      used.add(dist);
    }
  }
  const stop = unfinished(run);
  if (stop) {
    return /offset is out of bounds/.test(run.error?.message ?? "") ? fail(`${stop.message} What arrived did not fit ` +
      "where you put it: after the exchange with distance d, the partner's d blocks go at the start of its group, " +
      "the partner's run (partner &amp; ~(d − 1))·b.") : stop;
  }

  // 2. log₂p messages per rank, the i-th carrying the 2^i blocks the rank holds.
  for (let r = 0; r < p; r++) {
    const msgs = perRank[r];
    if (msgs.length !== steps) {
      return fail(`Rank ${r} sent ${plural(msgs.length, "message")}; recursive doubling on p = ${p} ranks takes log₂p = ` +
        `${plural(steps, "step")}, one message per rank per step.`);
    }
    for (let i = 0; i < steps; i++) {
      const m = msgs[i];
      const blocksHeld = 1 << i, want = blocksHeld * b * BYTES_PER_NUMBER;
      if (m.bytes !== want) {
        const count = m.bytes / (b * BYTES_PER_NUMBER);
        return fail(`Rank ${r}'s message ${i + 1} (to rank ${m.dst}) carried ${m.bytes} B` +
          `${Number.isInteger(count) ? ` = ${plural(count, "block")}` : ""}; in step k = ${i} a rank holds and sends exactly ` +
          `2^${i} = ${plural(blocksHeld, "block")} of b = ${plural(b, "number")}: ${want} B. ` +
          (m.bytes % BYTES_PER_NUMBER ? plainArrayNote
            : count === (m.src ^ m.dst) && count !== blocksHeld ? `You sent as many blocks as the distance to the partner ` +
              `(${count}) while holding ${blocksHeld}: take the distances in the order 1, 2, 4, …, so that what a rank ` +
              "holds doubles every step and the partner at distance d needs exactly d blocks."
              : "Send only the contiguous run of blocks you hold, not the whole buffer."));
      }
    }
  }
  const lost = undelivered(trace);
  if (lost) return fail(`Rank ${lost.dst} never received the message rank ${lost.src} sent: each exchange is a send and a <code>recv</code> on both sides.`);

  // 3. Every rank's result: block j is rank j's input.
  for (let r = 0; r < p; r++) {
    const got = asNumbers(run.results?.[r]);
    if (!got || got.length !== p * b) {
      return fail(`Rank ${r} returned ${got ? `${got.length} numbers` : "no array"}; expected all p·b = ${p * b} numbers ` +
        `(${p} blocks of ${b}).`);
    }
    for (let j = 0; j < p; j++) {
      const part = got.slice(j * b, (j + 1) * b);
      if (part.every((x, i) => x === blocks[j][i])) continue;
      const other = blocks.findIndex((blk) => blk.every((x, i) => x === part[i]));
      const detail = part.every((x) => x === 0)
        ? `is still zeros: rank ${r} never received it. After step k a rank holds the 2^(k+1) blocks of its group; ` +
          "place what arrives at the partner's run, (partner &amp; ~(d − 1))·b."
        : other >= 0 ? `holds rank ${other}'s block: the data arrived but was put at the wrong offset. Received blocks go ` +
          "at the partner's run, (partner &amp; ~(d − 1))·b, where d = 2^k."
          : `holds ${JSON.stringify(part.slice(0, 4))}${b > 4 ? "…" : ""} instead of rank ${j}'s block ${JSON.stringify(blocks[j].slice(0, 4))}${b > 4 ? "…" : ""}.`;
      return fail(`Rank ${r}'s block ${j} (elements ${j * b}–${(j + 1) * b - 1}) ${detail}`);
    }
  }
  const perRankBytes = (p - 1) * b * BYTES_PER_NUMBER;
  return pass(`${upperFirst(plural(p, "rank", { article: "all" }))} hold all ${p} blocks after ${plural(steps, "step")}; each rank sent ${formatBytes(perRankBytes, 4)} ` +
    `= ((p − 1)/p)·n with n = ${formatBytes(p * b * BYTES_PER_NUMBER, 4)} gathered.` +
    replayNote(run, testCase, replays, core));
}

export const allgatherDoubling = codeExercise({
  id: "w2-allgather-rd",
  title: "All-gather by recursive doubling",
  prompt: `<p>Write <code>main(ctx)</code> for p = 2, 4, 8 or 16 ranks. Rank r holds one block
    <code>ctx.input.block</code> of b numbers; every rank must return all p blocks concatenated in rank order
    (p·b numbers). Use <em>recursive doubling</em>: in step k (k = 0, 1, …, log₂p − 1) rank r exchanges with rank
    r XOR 2<sup>k</sup>, and each side sends every block it holds so far.</p>
    <p>Send <code>Float64Array</code> views. The checker reads the trace — exactly log₂p messages per rank, the k-th
    carrying 2<sup>k</sup> blocks — and compares every block with the case's inputs, under several delivery orders,
    once with synchronous sends, and on sizes you do not see.</p>`,
  ranks: (rng) => pick(rng, [2, 4, 8]),
  mustCover: { ranks: [2, 16] },   // the hidden cases reach these p (judging.test.mjs)
  visibleRanks: [2, 4, 8],   // every p the visible cases draw (exercise_rules.test.mjs)
  hints: [
    "Write d = 2<sup>k</sup> and loop <code>for (let d = 1; d &lt; p; d *= 2)</code>; the partner is <code>r ^ d</code>.",
    "Before the step with distance d, rank r holds the d blocks of its aligned group: blocks " +
      "<code>r &amp; ~(d - 1)</code> up to that plus d − 1, contiguous in <code>out</code>. The partner holds the neighbouring run.",
    "Send <code>out.subarray(mine, mine + d * b)</code> with <code>mine = (r &amp; ~(d - 1)) * b</code>; put what arrives at " +
      "<code>(partner &amp; ~(d - 1)) * b</code> with <code>out.set(got, offset)</code>.",
  ],
  solutionText: `<p>Invariant: before the step with distance d = 2<sup>k</sup>, rank r holds the d blocks of its group
    {r &amp; ~(d − 1), …, (r &amp; ~(d − 1)) + d − 1}; its partner r XOR d holds the other half of the group of size 2d.
    Exchanging the runs doubles what both hold. Messages carry b, 2b, 4b, … numbers: (p − 1)·b in total, which is the
    all-gather bandwidth lower bound ((p − 1)/p)·n, in only log₂p rounds — the latency bound too. For p not a power of two,
    Bruck's algorithm gets the same cost with partners r − 2<sup>k</sup> and r + 2<sup>k</sup> (mod p) and a final local rotation.</p>`,
  starterExpect: /Rank 0 sent 0 messages; recursive doubling on p = 2 ranks takes log₂p = 1 step/,   // nothing sent
}, { starter, solution, wrongs, cases, edgeCases, check, replays });
