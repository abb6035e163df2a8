// run_checks.js — what every week's code checkers share. A checker receives the cluster's RunResult
// (lessons/web/README.md, "The Worker cluster") and judges the recorded trace and the returned values — never the
// program's own claims about what it did. Pure functions, no DOM: the page and Node tests both use them.
import { esc } from "./params.js";

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
    return fail(`Rank ${run.error.rank} threw an error${where}: <code>${esc(run.error.message)}</code>. ` +
      "Fix it, press Run, and read that rank's output.");
  }
  if (run.status === "deadlock" && run.deadlock) {
    return fail(`Deadlock: ${esc(run.deadlock.message)}. Every rank in that cycle waits in <code>recv</code> for ` +
      "a message nobody will send. For each <code>recv(from)</code>, find the matching <code>send(to)</code> on rank <code>from</code>.");
  }
  if (run.status === "timeout" && run.timeout) {
    return fail(`The run was stopped after ${run.timeout.ms} ms with rank(s) ${run.timeout.running.join(", ")} ` +
      "still running: a rank is waiting for a message that never comes, or loops forever.");
  }
  return fail(`The run ended with status “${esc(run.status)}”.`);
}

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

// Messages each rank sent, as arrays indexed by rank.
export function sentBy(trace, ranks) {
  const out = Array.from({ length: ranks }, () => []);
  for (const m of trace) if (out[m.src]) out[m.src].push(m);
  return out;
}

// The first message that was sent but never received, or undefined.
export const undelivered = (trace) => trace.find((m) => m.recvTime === null || m.recvTime === undefined);

// Strict equality for the integers these exercises use; a number that arrived as a string still fails.
export const sameNumber = (got, want) => typeof got === "number" && got === want;
