// local_verdicts.js — what the judge cluster's run (local_run.js) tells the wait-for graph about a rank, and how
// the run ends when it cannot go on: a deadlock (deadlock.js explains the cycle), ranks suspended on a promise
// that nothing of the run can resolve, or the watchdog (too long in real time, or too many steps).
import { ranksWere, watchdogMessage } from "./rank_lines.js";

// A rank's state from the calls its code awaits (waiters of local_run.js): what it is blocked on, for
// WaitForGraph.blocked(rank, on, barrierGen).
export function blockedOn(awaited) {
  const barrier = awaited.find((w) => w.kind === "barrier");
  const on = awaited.flatMap((w) => (w.kind === "recv" ? [{ kind: "recv", from: w.from, tag: w.tag }]
    : w.kind === "send" ? [{ kind: "send", to: w.to, tag: w.tag, id: w.id }] : []));
  return { on, barrierGen: barrier ? barrier.gen : null };
}

// No step is possible and no timer is pending: the graph's cycle if there is one, else the ranks still
// unfinished are waiting on promises the run does not know (a fetch, a promise never resolved, …).
// lines: [{ rank, line }] of the ranks blocked at a known line of the learner's code.
export function stuckVerdict(graph, unfinished, lines = []) {
  const deadlock = graph.deadlock();
  if (deadlock) return { deadlock: { ...deadlock, lines } };
  return { deadlock: { cycle: [], waits: [], lines, message: `${ranksWere(unfinished, ["is", "are"])} ` +
    "suspended on a promise that no message, send, barrier or timer of this run can resolve" } };
}

// The watchdog stopped the run. running: ranks with something to resume or a message on its way to them (or
// spinning in a loop that never yields: local_run.js); polling: those of them that were looping over probe();
// blocked: the other unfinished ranks. lines: of all of them.
export function timeoutVerdict({ running, polling = [], blocked, timeoutMs, maxSteps, tooManySteps, lines = [] }) {
  const what = `after ${tooManySteps ? `${maxSteps} steps` : `${timeoutMs} ms`}`;
  const message = watchdogMessage({ running, polling, blocked, lines, what });
  return { timeout: { ms: timeoutMs, stalled: false, running, idle: [], blocked, lines, message } };
}
