// ping_pong.js — code exercise "w1-ping-pong": measure one-way message time on two real Workers.
// The reference solution is also what the page's "ping-pong" widget runs to fit α and β of the browser,
// so what CI checks is what the learner sees.
//
// The checker trusts the trace, not the program: it checks the message sequence (repeats pings
// 0 → 1 and as many echoes 1 → 0 per size, alternating, with the right byte counts), recomputes each
// size's one-way times t_1 … t_r from the trace's timestamps of the same round trips, and accepts rank 0's
// median only inside a window that the trace's own spread sets. Rank 0 reads the same clock the cluster
// stamps the messages with: once before the ping is stamped and once after the echo is, so each of its round
// trips is at least t_k, and at most t_k plus a clock tick per reading (the resolution, read off the trace)
// plus whatever delay a busy machine puts between a reading and a stamp. So its median is at least the
// trace's median M, and on the Workers it may lie up to the order statistic ⌊r/3⌋ places above M (that many
// round trips delayed past their neighbours), widened by two ticks; on the judge cluster, whose clock is
// virtual and exact (run.clock), it must equal M. A whole round trip (2M), the mean of the round trips, a
// constant, or milliseconds land outside that window whenever the trace can tell them apart (always on the
// judge; on a noisy Worker a mean can hide among delayed round trips), and the message names which it was.
import { esc, intBetween, pick, pickSorted } from "../../../web/exercise/params.js";
import { formatBytes, formatSeconds } from "../../../web/units.js";
import {
  clockResolution, clockSkew, describeMessage, fail, median, ordinal, pass, undelivered, unfinished,
} from "../../../web/exercise/run_checks.js";
import { codeExercise } from "../../../web/exercise/code_exercise.js";

const LADDER = [8, 64, 512, 4096, 32768, 262144, 1048576];

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

// The mistakes a learner makes here, each of which the checker must catch and name.
const wrongs = [
  { name: "a 1-byte acknowledgement instead of the echo (the fit would halve β)",
    code: solution.replace("ctx.send(0, echo);                          // the same n bytes back",
      "ctx.send(0, new Uint8Array(1));             // just an ack"),
    expect: /carried 1 B; expected \d+ B\. Rank 1 must send back the same bytes/ },
  { name: "the whole round trip reported as the one-way time",
    code: solution.replace("oneWay.push((ctx.now() - t0) / 2 / 1000);", "oneWay.push((ctx.now() - t0) / 1000);"),
    expect: /a whole round trip/ },
  { name: "the mean of the round trips instead of their median",
    code: solution.replace("results.push({ bytes, seconds: median(oneWay) })",
      "results.push({ bytes, seconds: oneWay.reduce((a, b) => a + b, 0) / oneWay.length })"),
    expect: /the mean of the round trips, not their median/ },
  { name: "a constant instead of a measurement",
    code: solution.replace("results.push({ bytes, seconds: median(oneWay) })", "results.push({ bytes, seconds: 1e-4 })"),
    expect: /the same time, 100 µs, for every size/ },
  { name: "milliseconds reported as seconds",
    code: solution.replace("oneWay.push((ctx.now() - t0) / 2 / 1000);", "oneWay.push((ctx.now() - t0) / 2);"),
    expect: /about 1000× too large/ },
  { name: "milliseconds divided by 100 for seconds",
    code: solution.replace("oneWay.push((ctx.now() - t0) / 2 / 1000);", "oneWay.push((ctx.now() - t0) / 2 / 100);"),
    expect: /median one-way time of [^:]*: about 10× too large/ },
  { name: "timing the send alone (it returns at once)",
    code: solution.replace(`        ctx.send(1, payload);
        await ctx.recv(1);
        oneWay.push((ctx.now() - t0) / 2 / 1000);`, `        ctx.send(1, payload);
        oneWay.push((ctx.now() - t0) / 2 / 1000);
        await ctx.recv(1);`),
    expect: /Every time rank 0 reported is 0|far less than a round trip takes/ },
  { name: "all pings first, then all echoes (a pipeline, not round trips)",
    code: `async function main(ctx) {
  const { sizes, repeats } = ctx.input;
  const results = [];
  for (const bytes of sizes) {
    if (ctx.rank === 0) {
      const t0 = ctx.now(), oneWay = [];
      for (let i = 0; i < repeats; i++) ctx.send(1, new Uint8Array(bytes));
      for (let i = 0; i < repeats; i++) { await ctx.recv(1); oneWay.push((ctx.now() - t0) / 2 / 1000); }
      oneWay.sort((a, b) => a - b);
      results.push({ bytes, seconds: oneWay[oneWay.length >> 1] });
    } else {
      for (let i = 0; i < repeats; i++) ctx.send(0, await ctx.recv(0));
    }
  }
  if (ctx.rank === 0) return results;
}
`,
    expect: /sent the ping of round trip 2 of \d+ for .* before the echo of round trip 1/ },
];

function cases(rng) {
  const one = (count) => {
    const sizes = pickSorted(rng, LADDER, count);
    const repeats = pick(rng, [5, 7, 9]);
    const input = { sizes, repeats };
    return { ranks: 2, inputs: [input, input], sizes, repeats };
  };
  return [one(intBetween(rng, 3, 4)), one(intBetween(rng, 3, 5))];
}

// Hidden: every size of the ladder with few repeats, and one large size with many.
function edgeCases(rng) {
  const one = (sizes, repeats) => ({ ranks: 2, inputs: [{ sizes, repeats }, { sizes, repeats }], sizes, repeats });
  return [one(LADDER, 3), one([pick(rng, LADDER.slice(-2))], 11)];
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
  // Alternation: echo k leaves after ping k arrived; ping k + 1 leaves after echo k arrived. Both times of
  // each comparison are one rank's own clock, which never runs backwards — unless the page had to clamp the
  // receive time up to the other rank's send time; then the two Workers' clocks may disagree by `skew`.
  const skew = clockSkew(run);
  const slack = (m) => (m.recvTime === m.sendTime ? skew : 0);
  for (let k = 0; k < trips; k++) {
    if (echoes[k].sendTime < pings[k].recvTime - slack(pings[k])) {
      return fail(`Rank 1 sent the echo of ${where(k)} before it had received the ping. Rank 1 must <code>recv</code> first, then send.`);
    }
    if (k + 1 < trips && pings[k + 1].sendTime < echoes[k].recvTime - slack(echoes[k])) {
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
  for (let j = 0; j < sizes.length; j++) {
    const entry = report[j] ?? {};
    if (entry.bytes !== sizes[j]) {
      return fail(`Rank 0's entry ${j + 1} has bytes = ${esc(JSON.stringify(entry.bytes))}; expected ${sizes[j]} (sizes in the order given).`);
    }
    if (typeof entry.seconds !== "number" || !Number.isFinite(entry.seconds) || entry.seconds < 0) {
      return fail(`Rank 0 reported seconds = ${esc(JSON.stringify(entry.seconds))} for ${formatBytes(sizes[j], 4)}; expected a non-negative number.`);
    }
  }
  if (report.every((e) => e.seconds === 0)) {
    return fail(`Every time rank 0 reported is 0. ${EARLY_READ}`);
  }
  const resolution = clockResolution(run);
  const disturbed = run.clock?.kind === "virtual" ? 0 : Math.max(1, Math.floor(repeats / 3));   // delayed round trips
  const rows = sizes.map((bytes, j) => {
    const oneWay = [];
    for (let k = j * repeats; k < (j + 1) * repeats; k++) oneWay.push((echoes[k].recvTime - pings[k].sendTime) / 2);
    const sorted = oneWay.sort((a, b) => a - b), M = median(sorted), slack = 2 * resolution + 1e-9 * M;
    return { bytes, got: report[j].seconds, M, mean: sorted.reduce((a, b) => a + b, 0) / repeats,
             lo: M - slack, hi: medianShifted(sorted, disturbed) + slack, slack };
  });
  const off = rows.find((row) => row.got < row.lo || row.got > row.hi);
  if (off) return fail(explainTime(off, rows));
  return pass(`${2 * trips} messages in the right order and sizes, and rank 0's medians agree with the trace ` +
    `(for ${formatBytes(sizes.at(-1), 4)}: ${formatSeconds(report.at(-1).seconds)} one way).`);
}

// The median of a sorted list with its middle moved `shift` places up: how far the median of the same round
// trips can rise when `shift` of them were measured late.
function medianShifted(sorted, shift) {
  const at = (i) => sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? at(mid + shift) : (at(mid - 1 + shift) + at(mid + shift)) / 2;
}

const EARLY_READ = "Read <code>ctx.now()</code> before the send and again only after the echo has arrived (after " +
  "<code>await ctx.recv(1)</code>): a send returns at once, so timing it alone measures nothing.";

// Why rank 0's number for one size is off: the usual slips, recognised by what the number equals.
function explainTime({ bytes, got, M, mean, lo, hi, slack }, rows) {
  const said = `For ${formatBytes(bytes, 4)}, rank 0 reported a one-way time of ${formatSeconds(got)}, but the trace's round trips ` +
    `give a median one-way time of ${formatSeconds(M)}`;
  const how = " Read <code>ctx.now()</code> just before the send and just after the echo arrives, halve the " +
    "difference, and report the median in seconds.";
  if (rows.length > 1 && rows.every((r) => r.got === got) && rows.some((r) => r.M < r.lo || r.M > r.hi || r.got < r.lo || r.got > r.hi)) {
    return `Rank 0 reported the same time, ${formatSeconds(got)}, for every size, but the trace's medians differ ` +
      `(${rows.map((r) => `${formatBytes(r.bytes, 4)}: ${formatSeconds(r.M)}`).join(", ")}): measure each size, do not assume a number.${how}`;
  }
  // The closest of the usual slips, if it explains the number as well as the window allows.
  const tol = Math.max(hi - M, M - lo);
  const slips = [
    [2 * M, 1, `${said}. ${formatSeconds(got)} is a whole round trip — the ping and the echo each cross once, so one way is half of it.`],
    [mean, 1, `${said}. ${formatSeconds(got)} is the mean of the round trips, not their median: one slow round trip (a garbage ` +
      `collection, a busy thread) drags a mean, while the median ignores it.${how}`],
    [1000 * M, 1000, `${said}. It is about 1000× too large: <code>ctx.now()</code> is in milliseconds, so divide by 1000.`],
    [0, 1, `${said}: far less than a round trip takes. ${EARLY_READ}`],
  ].map(([value, scale, text]) => ({ miss: Math.abs(got - value) / scale, scale, text }))
    // Milliseconds for seconds only when the number is that factor off (within 3×): the window alone, a few clock
    // ticks wide, holds 1000·M and 10·M alike when M is a tick or two.
    .filter(({ miss, scale, text }) => miss <= (text.endsWith(EARLY_READ) ? Math.max(M / 2, slack) : tol) &&
      (scale === 1 || (got / M > scale / 3 && got / M < scale * 3)))
    .sort((a, b) => a.miss - b.miss);
  if (slips.length) return slips[0].text;
  const factor = got / M;
  if (M > 0 && got > 0 && (factor >= 2 || factor <= 0.5)) {
    const by = factor >= 1 ? factor : 1 / factor;
    return `${said}: about ${formatFactor(by)}× too ${factor > 1 ? "large" : "small"}.${how}`;
  }
  return `${said}.${how}`;
}

// A factor in words: two significant digits (10, 1000, 3.7).
const formatFactor = (x) => String(Number(x.toPrecision(2)));

export const pingPong = codeExercise({
  id: "w1-ping-pong",
  title: "Ping-pong: measure a message",
  prompt: `<p>Write <code>main(ctx)</code> for 2 ranks that measures one-way message time. For each size in
    <code>ctx.input.sizes</code> (bytes), do <code>ctx.input.repeats</code> round trips: rank 0 sends a
    <code>Uint8Array</code> of that size to rank 1, and rank 1 sends the same bytes back. Rank 0 times each round trip
    with <code>ctx.now()</code> (milliseconds) and returns an array with one <code>{ bytes, seconds }</code> per size:
    the <strong>median</strong> one-way time (half a round trip) in <strong>seconds</strong>. Rank 1 returns nothing.</p>
    <p>The checker replays your program under several delivery orders and recomputes each median from the
    timestamps the cluster recorded for the same round trips; yours must agree to within the clock's resolution
    (on a busy machine, allowing a few round trips to have been delayed between your reading and the cluster's).</p>`,
  ranks: 2,
  timeoutMs: 10000,
  pageRunsReference: "the ping-pong widget measures the browser's α and β with it",
  exempt: { variedRanks: "a ping-pong is between two ranks: the sizes and repeats vary per case instead" },
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
  starterExpect: /Rank 0 sent 0 messages to rank 1; expected 36 \(9 repeats × 4 sizes/,   // the starter sends nothing; 9 × 4 pings
}, { starter, solution, wrongs, cases, edgeCases, check });
