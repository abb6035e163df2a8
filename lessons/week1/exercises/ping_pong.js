// ping_pong.js — code exercise "w1-ping-pong": measure one-way message time on two real Workers.
// The reference solution is also what the page's "ping-pong" widget runs to fit α and β of the browser,
// so what CI checks is what the learner sees.
//
// The checker trusts the trace, not the program: it checks the message sequence (repeats pings
// 0 → 1 and as many echoes 1 → 0 per size, alternating, with the right byte counts), recomputes
// each size's median one-way time from the trace's timestamps, and accepts the program's reported
// times only if they agree within a generous factor (clocks in browsers are coarsened to ~100 µs).
import { esc, intBetween, pick, pickSorted } from "../../web/exercise/params.js";
import { formatBytes, formatSeconds } from "../../web/units.js";
import { describeMessage, fail, median, ordinal, pass, undelivered, unfinished } from "../../web/exercise/run_checks.js";

const LADDER = [8, 64, 512, 4096, 32768, 262144, 1048576];
const FACTOR = 4;        // reported time may be within ×4 / ÷4 of the trace's …
// … plus 5 ms: a busy machine can delay a Worker's continuation after a message by milliseconds (seen on a
// loaded 2-core CI box). Still catches the usual slip, ms reported as s, which is ≥ 1000× off.
const SLACK_S = 5e-3;
const ORDER_TOL_S = 5e-4; // how far two Workers' timestamps of causally ordered events may disagree

const starter = `// Runs on 2 ranks. Both get ctx.input = { sizes: [bytes, ...], repeats: number }.
// ctx.now() is a clock in MILLISECONDS; report seconds.
async function main(ctx) {
  const { sizes, repeats } = ctx.input;
  const results = [];
  for (const bytes of sizes) {
    const payload = new Uint8Array(bytes);
    const oneWay = [];   // seconds, one entry per round trip (rank 0 only)
    for (let i = 0; i < repeats; i++) {
      // TODO rank 0: read the clock, send payload to rank 1, wait for the echo, read the clock.
      //             A round trip is two messages, so one way is half of it.
      // TODO rank 1: receive from rank 0 and send the same bytes back.
    }
    // TODO rank 0: results.push({ bytes, seconds: <median of oneWay> });
  }
  if (ctx.rank === 0) return results;
}
`;

const solution = `// Ping-pong: rank 0 sends n bytes, rank 1 echoes them; one-way time = half a round trip.
async function main(ctx) {
  const { sizes, repeats } = ctx.input;
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b), m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  const results = [];
  for (const bytes of sizes) {
    const payload = new Uint8Array(bytes);
    const oneWay = [];
    for (let i = 0; i < repeats; i++) {
      if (ctx.rank === 0) {
        const t0 = ctx.now();                       // ms
        ctx.send(1, payload);
        await ctx.recv(1);
        oneWay.push((ctx.now() - t0) / 2 / 1000);   // half a round trip, in seconds
      } else {
        const echo = await ctx.recv(0);
        ctx.send(0, echo);                          // the same n bytes back
      }
    }
    if (ctx.rank === 0) results.push({ bytes, seconds: median(oneWay) });
  }
  if (ctx.rank === 0) return results;
}
`;

// A classic mistake: rank 1 answers with a 1-byte acknowledgement, so the "round trip" moves n bytes
// only one way and the fit would halve β.
const wrong = solution.replace("ctx.send(0, echo);                          // the same n bytes back",
  "ctx.send(0, new Uint8Array(1));             // just an ack");

function cases(rng) {
  const one = (count) => {
    const sizes = pickSorted(rng, LADDER, count);
    const repeats = pick(rng, [5, 7, 9]);
    const input = { sizes, repeats };
    return { ranks: 2, inputs: [input, input], sizes, repeats };
  };
  return [one(intBetween(rng, 3, 4)), one(intBetween(rng, 3, 5))];
}

// Messages of one direction, in the order they were sent. A coarse clock (~100 µs) can give two messages
// the same send time; one port delivers in order, so the receive time breaks the tie, then the trace order.
const channel = (trace, src, dst) => trace.map((m, i) => ({ m, i }))
  .filter(({ m }) => m.src === src && m.dst === dst)
  .sort((a, b) => a.m.sendTime - b.m.sendTime || (a.m.recvTime ?? Infinity) - (b.m.recvTime ?? Infinity) || a.i - b.i)
  .map(({ m }) => m);

function check(run, testCase) {
  const stop = unfinished(run);
  if (stop) return stop;
  const { sizes, repeats } = testCase;
  const trace = run.trace ?? [];
  const trips = sizes.length * repeats;
  const sizeOf = (k) => sizes[Math.floor(k / repeats)];
  const where = (k) => `round trip ${(k % repeats) + 1} of ${repeats} for ${formatBytes(sizeOf(k), 4)}`;

  // 1. The messages: `repeats` pings (0 → 1) and as many echoes (1 → 0) per size, each of that size.
  const stray = trace.find((m) => !((m.src === 0 && m.dst === 1) || (m.src === 1 && m.dst === 0)));
  if (stray) return fail(`Unexpected message ${describeMessage(stray)}: with 2 ranks, only rank 0 → rank 1 and rank 1 → rank 0 exist.`);
  const pings = channel(trace, 0, 1), echoes = channel(trace, 1, 0);
  for (const [list, src, dst, role] of [[pings, 0, 1, "ping"], [echoes, 1, 0, "echo"]]) {
    for (let k = 0; k < Math.min(list.length, trips); k++) {
      if (list[k].bytes !== sizeOf(k)) {
        return fail(`Rank ${src}'s ${ordinal(k + 1)} message to rank ${dst} (the ${role} of ${where(k)}) carried ` +
          `${list[k].bytes} B; expected ${sizeOf(k)} B. ` + (role === "echo"
          ? "Rank 1 must send back the same bytes it received, so both directions carry n bytes."
          : "Rank 0 must send a <code>Uint8Array</code> of each size, sizes in the order given."));
      }
    }
    if (list.length !== trips) {
      return fail(`Rank ${src} sent ${list.length} messages to rank ${dst}; expected ${trips} ` +
        `(${repeats} repeats × ${sizes.length} sizes, one ${role} per round trip).`);
    }
  }
  const lost = undelivered(trace);
  if (lost) return fail(`The message ${describeMessage(lost)} was never received: every ping and every echo needs a <code>recv</code>.`);
  // Alternation: echo k leaves after ping k arrived; ping k + 1 leaves after echo k arrived.
  // (Tolerance: Workers' clocks agree only to a few clock ticks.)
  for (let k = 0; k < trips; k++) {
    if (echoes[k].sendTime < pings[k].recvTime - ORDER_TOL_S) {
      return fail(`Rank 1 sent the echo of ${where(k)} before it had received the ping. Rank 1 must <code>recv</code> first, then send.`);
    }
    if (k + 1 < trips && pings[k + 1].sendTime < echoes[k].recvTime - ORDER_TOL_S) {
      return fail(`Rank 0 sent the ping of ${where(k + 1)} before the echo of ${where(k)} came back. ` +
        "Wait for each echo (<code>await ctx.recv(1)</code>) before the next ping, or you time a pipeline, not a round trip.");
    }
  }

  // 2. Rank 0's report: one entry per size, in order, with a time that matches the trace.
  const report = run.results?.[0];
  if (!Array.isArray(report)) {
    return fail(`Rank 0 returned ${esc(JSON.stringify(report) ?? "nothing")}; it should return an array of ` +
      "<code>{ bytes, seconds }</code>, one per size.");
  }
  if (report.length !== sizes.length) {
    return fail(`Rank 0 returned ${report.length} entries for ${sizes.length} sizes; push one <code>{ bytes, seconds }</code> after each size's round trips.`);
  }
  let anyPositive = false;
  for (let j = 0; j < sizes.length; j++) {
    const entry = report[j] ?? {};
    if (entry.bytes !== sizes[j]) {
      return fail(`Rank 0's entry ${j + 1} has bytes = ${esc(JSON.stringify(entry.bytes))}; expected ${sizes[j]} (sizes in the order given).`);
    }
    if (typeof entry.seconds !== "number" || !Number.isFinite(entry.seconds) || entry.seconds < 0) {
      return fail(`Rank 0 reported seconds = ${esc(JSON.stringify(entry.seconds))} for ${formatBytes(sizes[j], 4)}; expected a non-negative number.`);
    }
    anyPositive ||= entry.seconds > 0;
    const oneWay = [];
    for (let k = j * repeats; k < (j + 1) * repeats; k++) oneWay.push((echoes[k].recvTime - pings[k].sendTime) / 2);
    const traced = median(oneWay);
    const lo = traced / FACTOR - SLACK_S, hi = traced * FACTOR + SLACK_S;
    if (entry.seconds < lo || entry.seconds > hi) {
      const unitSlip = entry.seconds > 100 * traced && entry.seconds > SLACK_S
        ? " It looks about 1000× too large: <code>ctx.now()</code> is in milliseconds, so divide by 1000." : "";
      return fail(`For ${formatBytes(sizes[j], 4)}, rank 0 reported a one-way time of ${formatSeconds(entry.seconds)}, but the trace's ` +
        `round trips give a median one-way time of ${formatSeconds(traced)}.${unitSlip} Read <code>ctx.now()</code> just before ` +
        "the send and just after the echo arrives, halve the difference, and report the median in seconds.");
    }
  }
  if (!anyPositive) {
    return fail("Every time rank 0 reported is 0. Read <code>ctx.now()</code> before the send and after the echo arrives.");
  }
  return pass(`${2 * trips} messages in the right order and sizes, and rank 0's medians agree with the trace ` +
    `(for ${formatBytes(sizes.at(-1), 4)}: ${formatSeconds(report.at(-1).seconds)} one way).`);
}

export const pingPong = {
  id: "w1-ping-pong",
  kind: "code",
  title: "Ping-pong: measure a message",
  prompt: `<p>Write <code>main(ctx)</code> for 2 ranks that measures one-way message time. For each size in
    <code>ctx.input.sizes</code> (bytes), do <code>ctx.input.repeats</code> round trips: rank 0 sends a
    <code>Uint8Array</code> of that size to rank 1, and rank 1 sends the same bytes back. Rank 0 times each round trip
    with <code>ctx.now()</code> (milliseconds) and returns an array with one <code>{ bytes, seconds }</code> per size:
    the <strong>median</strong> one-way time (half a round trip) in <strong>seconds</strong>. Rank 1 returns nothing.</p>
    <p>The checker compares your times with the timestamps the cluster recorded for every message.</p>`,
  ranks: 2,
  starter,
  solution,
  wrong,
  timeoutMs: 10000,
  cases,
  check,
  hints: [
    "Branch on <code>ctx.rank</code>: rank 0 does send-then-recv, rank 1 does recv-then-send. Both loop over the same sizes and repeats, so the messages pair up.",
    "Rank 1 can echo the very object it received: <code>const m = await ctx.recv(0); ctx.send(0, m);</code>",
    "On rank 0: <code>const t0 = ctx.now(); ctx.send(1, payload); await ctx.recv(1);</code> then one way is <code>(ctx.now() − t0) / 2</code> ms — divide by 1000 for seconds.",
    "The median of a sorted array <code>s</code> of odd length is <code>s[s.length >> 1]</code>. The median ignores the odd slow round trip (a garbage collection, a busy main thread) that would drag a mean.",
  ],
  solutionText: `<p>Rank 0 records <code>ctx.now()</code>, sends the payload, waits for the echo and records the clock again;
    half the difference is one one-way time. Rank 1 just receives and sends the same bytes back. The median over the
    repeats is robust to the occasional slow round trip. Halving the round trip assumes both directions cost the same — true
    here, not always on real networks. The page's ping-pong widget runs this very program for 8 B … 4 MB and fits
    T(n) = α + β·n to the medians.</p>`,
};
