// run_checks.js — what every week's code checkers share. A checker receives the cluster's RunResult
// (web/README.md, "The Worker cluster") and judges the recorded trace and the returned values — never the
// program's own claims about what it did. Pure functions, no DOM: the page and Node tests both use them.
import { esc } from "./params.js";
import { linesOf, linesText } from "../cluster/rank_lines.js";

const pass = (message) => ({ pass: true, message });
const fail = (message) => ({ pass: false, message });
export { pass, fail };

// A run that did not finish, in words with a next step; null when it finished ("ok").
// (The page reports these before calling a checker; the checker repeats the test so it stands alone.)
export function unfinished(run) {
  if (!run || typeof run !== "object") return fail("No run result came back from the cluster.");
  if (run.status === "ok") return null;
  if (run.status === "error" && run.error) {
    const where = run.error.line ? ` at line ${run.error.line}` : "";
    if (run.error.syntax) {
      return fail(`A syntax error${where}: <code>${esc(run.error.message)}</code>. The code does not parse, so no rank ran ` +
        "it: fix that line (a bracket, a comma, a keyword) and press Run.");
    }
    const negative = /there is no rank -\d/.test(run.error.message)
      ? " JavaScript's <code>%</code> keeps the sign: <code>(0 - 1) % p</code> is −1, so write <code>(r - 1 + p) % p</code>." : "";
    return fail(`Rank ${run.error.rank} threw an error${where}: <code>${esc(run.error.message)}</code>.${negative} ` +
      "Fix it, press Run, and read that rank's output.");
  }
  if (run.status === "deadlock" && run.deadlock) {
    if (/waits in send/.test(run.deadlock.message)) {
      return fail(`Deadlock with synchronous sends: ${esc(run.deadlock.message)}${linesText(run.deadlock.lines)}. A send that is awaited completes ` +
        "only when the receiver takes the message (as MPI_Ssend, which MPI may use for any send), so ranks that all " +
        "<code>await ctx.send(…)</code> before their <code>recv</code> wait for each other for ever. Your code relies on " +
        "sends being buffered: start the send without awaiting it (<code>ctx.send(…)</code> is then a nonblocking send), " +
        "then <code>await</code> the receive.");
    }
    if (!run.deadlock.cycle?.length && /promise/.test(run.deadlock.message)) {
      return fail(`${esc(run.deadlock.message)}${linesText(run.deadlock.lines)}. An <code>await</code> on a promise that ` +
        "nothing resolves never returns: await only <code>ctx</code>'s calls, or a promise you resolve yourself.");
    }
    if (!run.deadlock.cycle?.length) {
      // No cycle: the waits end at a rank that has finished — it skipped a send (a collective, a step) or returned early.
      return fail(`Deadlock: ${esc(run.deadlock.message)}${linesText(run.deadlock.lines)}. A finished rank sends nothing ` +
        "more: the rank it left waiting needs a message that its code skipped, or it returned too early. Find the " +
        "<code>send(to)</code> that should match that <code>recv(from)</code> on the finished rank.");
    }
    return fail(`Deadlock: ${esc(run.deadlock.message)}${linesText(run.deadlock.lines)}. Every rank in that cycle waits in <code>recv</code> for ` +
      "a message nobody will send. For each <code>recv(from)</code>, find the matching <code>send(to)</code> on rank <code>from</code>.");
  }
  if (run.status === "timeout" && run.timeout) {
    const blocked = linesOf(run.timeout.lines, run.timeout.blocked ?? []);
    const waiting = blocked.length ? ` Waiting${linesText(blocked)}.` : "";
    const next = run.timeout.running.length ? "A rank loops forever, or a rank waits for a message that never comes."
      : "An <code>await</code> on a promise that nothing resolves never returns: await only <code>ctx</code>'s calls, or a promise you resolve.";
    return fail(`${esc(run.timeout.message)}${waiting} ${next}`);
  }
  return fail(`The run ended with status “${esc(run.status)}”.`);
}

// How far two timestamps taken on different ranks may disagree, in seconds. Workers' clocks differ by about a
// clock tick (browsers coarsen them to ~0.1 ms), and the page clamps a receive time up to its send time; the
// judge cluster's clock is virtual and exact, and says so in run.clock.
export const WORKER_CLOCK_SKEW_S = 5e-4;
export const clockSkew = (run) => run?.clock?.skew ?? WORKER_CLOCK_SKEW_S;

// The clock's resolution as the trace shows it: the smallest positive gap between two timestamps one rank
// took itself (its sends, and its receipts that the page did not clamp to another rank's send time). A
// coarsened clock shows its tick (0.1 ms in Chrome, 1 ms in some Firefox settings); 0 if the trace cannot tell.
export function clockResolution(run) {
  if (run?.clock && Number.isFinite(run.clock.resolution)) return run.clock.resolution;
  const own = new Map();
  const add = (rank, t) => { if (Number.isFinite(t)) (own.get(rank) ?? own.set(rank, []).get(rank)).push(t); };
  for (const m of run?.trace ?? []) {
    add(m.src, m.sendTime);
    if (m.recvTime !== m.sendTime) add(m.dst, m.recvTime);
  }
  let best = Infinity;
  for (const times of own.values()) {
    times.sort((a, b) => a - b);
    for (let i = 1; i < times.length; i++) if (times[i] > times[i - 1]) best = Math.min(best, times[i] - times[i - 1]);
  }
  return Number.isFinite(best) ? best : 0;
}

// A central computation instead of the algorithm asked for: with p ≥ 3 ranks, every message goes to or
// comes from one rank (gather there, compute there, send back). Returns that rank, or null.
export function hubOf(trace, ranks) {
  if (ranks < 3 || !trace?.length) return null;
  return [trace[0].src, trace[0].dst].find((h) => trace.every((m) => m.src === h || m.dst === h)) ?? null;
}
export const centralMessage = (hub, instead) => fail(`Every message goes to or from rank ${hub}: that is a central ` +
  `computation (gather to rank ${hub}, compute there, send the results back), not ${instead}. Rank ${hub}'s link ` +
  "then carries p − 1 times the data while the others idle; " + instead.replace(/^an? /, "the ") + " spreads the work over every link.");

// Every message goes the wrong way round a ring: rank r → r − 1 instead of r → r + 1.
export const reversedRing = (trace, ranks) => ranks >= 3 && trace?.length > 0 &&
  trace.every((m) => m.dst === (m.src - 1 + ranks) % ranks);
export const reversedMessage = (ranks) => fail(`Every message went from rank r to rank r − 1: the ring runs backwards ` +
  `(for example rank 0 sent to rank ${ranks - 1}). Rank r sends to next = (r + 1) mod p and receives from ` +
  "prev = (r − 1 + p) mod p; swap your <code>next</code> and <code>prev</code>.");

// The trace in the order messages were sent. Stable: ties (browsers coarsen clocks to ~100 µs) keep
// the cluster's recording order.
export function bySendTime(trace) {
  return (trace ?? []).map((m, i) => ({ m, i }))
    .sort((a, b) => a.m.sendTime - b.m.sendTime || a.i - b.i)
    .map(({ m }) => m);
}

export function median(values) {
  const xs = [...values].sort((a, b) => a - b);
  const mid = xs.length >> 1;
  return xs.length % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
}

// 1 → "1st", 2 → "2nd", 11 → "11th".
export function ordinal(k) {
  const tens = k % 100, ones = k % 10;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ones === 1 ? "st" : ones === 2 ? "nd" : ones === 3 ? "rd" : "th";
  return `${k}${suffix}`;
}

// "rank 2 → rank 3 (8 B)"
export const describeMessage = (m) => `rank ${m.src} → rank ${m.dst} (${m.bytes} B)`;

// Messages each rank sent, as arrays indexed by rank, in the order it sent them. The trace is in send-time order,
// but a coarse clock (0.1 ms in a browser) gives messages sent close together the same time, and the Worker
// cluster's trace then lists them in no particular order: a message number `id` settles it when the cluster
// records one; otherwise `tie(a, b)` — the order the algorithm sends them in — does, when the clock is coarse
// (not for the judge's exact clock, whose trace is in send order).
export function sentBy(trace, ranks, { tie = null, run = null } = {}) {
  const out = Array.from({ length: ranks }, () => []);
  for (const m of trace ?? []) if (out[m.src]) out[m.src].push(m);
  const exact = run?.clock?.kind === "virtual";
  for (const list of out) {
    list.sort((a, b) => a.sendTime - b.sendTime || (a.id ?? 0) - (b.id ?? 0) || (tie && !exact ? tie(a, b) : 0));
  }
  return out;
}

// The first message that was sent but never received, or undefined.
export const undelivered = (trace) => trace.find((m) => m.recvTime === null || m.recvTime === undefined);

// Strict equality for the integers these exercises use; a number that arrived as a string still fails.
export const sameNumber = (got, want) => typeof got === "number" && got === want;
