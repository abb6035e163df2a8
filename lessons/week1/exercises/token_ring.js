// token_ring.js — code exercise "w1-token-ring": pass a token once around a ring of p ranks, each rank
// adding its value. The ring (rank r sends only to (r + 1) mod p) is the shape of Week 2's ring
// all-reduce, so getting the neighbour arithmetic right here pays off next week.
//
// The checker trusts the trace: exactly p messages, rank r's one message goes to (r + 1) mod p, and they
// were sent in ring order 0, 1, …, p − 1; only then does it compare rank 0's result with start + Σ values.
import { esc, intBetween, pick, term } from "../../../web/exercise/params.js";
import {
  bySendTime, centralMessage, clockSkew, fail, hubOf, ordinal, pass, reversedMessage, reversedRing, sameNumber, sentBy,
  undelivered, unfinished,
} from "../../../web/exercise/run_checks.js";
import { codeExercise } from "../../../web/exercise/code_exercise.js";

const starter = `// Runs on p ranks (2 to 16). Rank 0 gets ctx.input = { start, value }; the others { value }.
// The token starts on rank 0 as ctx.input.start. Each rank adds its own value and passes the token
// to the next rank; after one lap rank 0 receives it back and returns it. Other ranks return nothing.
async function main(ctx) {
  const next = 0;   // TODO: the rank after this one, wrapping around
  const prev = 0;   // TODO: the rank before this one
  if (ctx.rank === 0) {
    // TODO: send start + value to next, then receive the final token from prev and return it
  } else {
    // TODO: receive the token from prev, add your value, send it to next
  }
}
`;

const solution = `// Token ring: 0 → 1 → … → p − 1 → 0, each rank adding its value.
async function main(ctx) {
  const next = (ctx.rank + 1) % ctx.size;
  const prev = (ctx.rank - 1 + ctx.size) % ctx.size;   // + size: JavaScript's % keeps the sign
  if (ctx.rank === 0) {
    ctx.send(next, ctx.input.start + ctx.input.value);
    return await ctx.recv(prev);                       // the token after one lap
  }
  const token = await ctx.recv(prev);
  ctx.send(next, token + ctx.input.value);
}
`;

// The mistakes a learner makes here; CI proves each fails with a message that names it.
const wrongs = [
  // The token goes the wrong way round (0 → p − 1 → … → 1 → 0). The sum is still right, so only the
  // trace shows the mistake — the reason checkers never trust results alone.
  { name: "the token goes the wrong way round",
    code: solution.replace("const next = (ctx.rank + 1) % ctx.size;", "const next = (ctx.rank - 1 + ctx.size) % ctx.size;")
      .replace("const prev = (ctx.rank - 1 + ctx.size) % ctx.size;   // + size: JavaScript's % keeps the sign",
        "const prev = (ctx.rank + 1) % ctx.size;"),
    expect: /the ring runs backwards/ },
  { name: "rank 0 forgets its own value",
    code: solution.replace("ctx.send(next, ctx.input.start + ctx.input.value);", "ctx.send(next, ctx.input.start);"),
    expect: /exactly rank 0's own value short/ },
  { name: "prev without wrapping around (JavaScript's % keeps the sign)",
    code: solution.replace("const prev = (ctx.rank - 1 + ctx.size) % ctx.size;", "const prev = (ctx.rank - 1) % ctx.size;"),
    expect: /there is no rank -1.*JavaScript's <code>%<\/code> keeps the sign/ },
  { name: "every rank receives first, rank 0 too",
    code: `async function main(ctx) {
  const next = (ctx.rank + 1) % ctx.size, prev = (ctx.rank - 1 + ctx.size) % ctx.size;
  const token = await ctx.recv(prev);
  if (ctx.rank === 0) return token;
  ctx.send(next, token + ctx.input.value);
}
`,
    expect: /Deadlock: rank 0 waits for rank \d+, rank \d+ waits for rank/ },
  { name: "a central sum: every rank sends its value to rank 0",
    code: `async function main(ctx) {
  if (ctx.rank !== 0) { ctx.send(0, ctx.input.value); return; }
  let token = ctx.input.start + ctx.input.value;
  for (let r = 1; r < ctx.size; r++) token += await ctx.recv(r);
  return token;
}
`,
    expect: /central computation/ },
  { name: "two laps instead of one",
    code: `async function main(ctx) {
  const next = (ctx.rank + 1) % ctx.size, prev = (ctx.rank - 1 + ctx.size) % ctx.size;
  if (ctx.rank === 0) {
    ctx.send(next, ctx.input.start + ctx.input.value);
    ctx.send(next, await ctx.recv(prev));
    return await ctx.recv(prev);
  }
  for (let lap = 0; lap < 2; lap++) ctx.send(next, (await ctx.recv(prev)) + (lap === 0 ? ctx.input.value : 0));
}
`,
    expect: /Rank \d+ sent 2 messages; in one lap each rank sends the token exactly once/ },
];

function cases(rng) {
  const one = (ranks) => {
    const values = Array.from({ length: ranks }, () => intBetween(rng, -50, 50));
    const start = intBetween(rng, 100, 999);
    const inputs = values.map((value, r) => (r === 0 ? { start, value } : { value }));
    return { ranks, inputs, start, values };
  };
  return [one(intBetween(rng, 3, 5)), one(intBetween(rng, 6, 8))];
}

// Hidden: the smallest ring (2 ranks: next and prev are the same rank) and the largest.
function edgeCases(rng) {
  return [2, pick(rng, [13, 16]), 16].map((ranks) => {
    const values = Array.from({ length: ranks }, () => intBetween(rng, -50, 50));
    const start = intBetween(rng, 100, 999);
    return { ranks, inputs: values.map((value, r) => (r === 0 ? { start, value } : { value })), start, values };
  });
}

function check(run, testCase) {
  const stop = unfinished(run);
  if (stop) return stop;
  const { ranks: p, start, values } = testCase;
  const trace = run.trace ?? [];

  // 1. Each rank r sends exactly one message, to (r + 1) mod p.
  const hub = hubOf(trace, p);
  if (hub !== null) return centralMessage(hub, "a ring");
  if (reversedRing(trace, p)) return reversedMessage(p);
  const wrongHop = trace.find((m) => m.dst !== (m.src + 1) % p);
  if (wrongHop) {
    return fail(`Rank ${wrongHop.src} sent to rank ${wrongHop.dst}; in a ring, rank r sends to (r + 1) mod p, ` +
      `so rank ${wrongHop.src} must send to rank ${(wrongHop.src + 1) % p}. Check your <code>next</code>.`);
  }
  const perRank = sentBy(trace, p);
  const silent = perRank.findIndex((list) => list.length === 0);
  if (silent >= 0) {
    return fail(`Rank ${silent} sent nothing; every rank must pass the token on once (rank ${silent} → rank ${(silent + 1) % p}). ` +
      `${trace.length} of ${p} messages were sent.`);
  }
  const chatty = perRank.findIndex((list) => list.length > 1);
  if (chatty >= 0) {
    return fail(`Rank ${chatty} sent ${perRank[chatty].length} messages; in one lap each rank sends the token exactly once.`);
  }
  const lost = undelivered(trace);
  if (lost) return fail(`Rank ${lost.dst} never received the token from rank ${lost.src}: it must <code>recv(${lost.src})</code>.`);

  // 2. Ring order: hop r (sent by rank r) leaves no earlier than hop r − 1.
  const hops = bySendTime(trace), skew = clockSkew(run);
  for (let r = 1; r < p; r++) {
    if (perRank[r][0].sendTime < perRank[r - 1][0].sendTime - skew) {
      const k = hops.indexOf(perRank[r][0]);
      return fail(`Rank ${r} sent the ${ordinal(k + 1)} message, before rank ${r - 1} had passed the token on. ` +
        `Rank ${r} must first <code>recv(${r - 1})</code>, then add its value and send.`);
    }
  }

  // 3. The token's value after one lap.
  const expected = start + values.reduce((a, b) => a + b, 0);
  const got = run.results?.[0];
  if (!sameNumber(got, expected)) {
    const missingOwn = sameNumber(got, expected - values[0]);
    return fail(`Rank 0 returned ${esc(JSON.stringify(got) ?? "nothing")}; expected start + Σ values = ` +
      `${start} + ${values.map(term).join(" + ")} = ${expected}.` +
      (missingOwn ? " That is exactly rank 0's own value short: rank 0 adds its value before sending." :
        " Each rank adds its own value once; rank 0 returns what it receives from rank p − 1."));
  }
  return pass(`The token went 0 → 1 → … → ${p - 1} → 0 in ${p} messages and came back as ${expected}.`);
}

export const tokenRing = codeExercise({
  id: "w1-token-ring",
  title: "Token ring",
  prompt: `<p>Write <code>main(ctx)</code> for p ranks arranged in a ring. Rank 0 holds a token, initially
    <code>ctx.input.start</code>. Every rank adds its <code>ctx.input.value</code> to the token and passes it to rank
    (r + 1) mod p. After one lap rank 0 receives the token back and returns it; the other ranks return nothing.
    The checker varies p (2 to 16) and the inputs, runs your code under several delivery orders, and checks the
    recorded messages as well as the result.</p>`,
  ranks: (rng) => intBetween(rng, 3, 8), visibleRanks: [3, 4, 5, 6, 7, 8],   // every p ranks draws (exercise_rules.test.mjs)
  mustCover: { ranks: [2, 16], odd: true },   // the hidden cases reach these p (judging.test.mjs)
  hints: [
    "Rank r's neighbours are next = (r + 1) mod p and prev = (r − 1) mod p. Rank p − 1's next is rank 0.",
    "In JavaScript <code>(0 - 1) % 5</code> is <code>-1</code>, not 4. Write <code>(ctx.rank - 1 + ctx.size) % ctx.size</code>.",
    "Rank 0 is special: it sends first (start + its value) and receives last. Every other rank receives first, then sends.",
  ],
  solutionText: `<p>Rank 0 sends <code>start + value</code> to rank 1 and waits for the token from rank p − 1; every other rank
    receives from rank r − 1, adds its value and sends to rank (r + 1) mod p. There are p messages, strictly one after
    another, so one lap costs p·(α + β·n) — the simulator's token-ring scenario shows it. If every rank instead waited to
    receive first, nobody would ever send: a deadlock whose wait-for cycle is the whole ring.</p>`,
  starterExpect: /Rank 0 sent nothing.* 0 of 4 messages were sent/,   // the starter sends nothing; p = 4 ranks pass the token once
}, { starter, solution, wrongs, cases, edgeCases, check });
