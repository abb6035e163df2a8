// cluster_run.js — the page's record of one run on the Worker cluster: it folds the ranks' reports into the
// RunResult (trace, spans, logs, results) and decides when the run is over — every rank returned (ok), one
// threw (error), nobody can make progress (deadlock, at once: deadlock.js), or the watchdog fired (timeout).
//
// RunResult (lessons/web/README.md, "The Worker cluster"):
//   { status, elapsedMs, results, logs, trace: [{ src, dst, tag, bytes, sendTime, recvTime }], spans,
//     error: { rank, message, line, column } | null, deadlock: { cycle, message, waits } | null,
//     timeout: { ms, running, blocked, message } | null }       times in seconds since the run started
import { WaitForGraph } from "./deadlock.js";
import { clockMs } from "../worker/rank_spans.js";

export class ClusterRun {
  #resolve;
  #reject;
  #timer;
  #graph;
  #messages = new Map();   // "src:id" → trace entry (a "received" may be processed before its "sent")
  #openWait;               // per rank: { since, peer } of the wait it reported blocked in, or null

  // broadcast(msg) posts to every Worker (barrier releases).
  constructor({ id, size, t0, timeoutMs, onLog = null, broadcast }) {
    Object.assign(this, { id, size, t0, timeoutMs, onLog, broadcast });
    this.ended = false;
    this.results = new Array(size).fill(undefined);
    this.logs = Array.from({ length: size }, () => []);
    this.spans = [];
    this.#graph = new WaitForGraph(size);
    this.#openWait = new Array(size).fill(null);
    this.outcome = new Promise((resolve, reject) => { this.#resolve = resolve; this.#reject = reject; });
    this.outcome.catch(() => {});  // an abort nobody awaits (run() already threw) is not an unhandled rejection
    this.#timer = setTimeout(() => this.#timeout(), timeoutMs);  // the watchdog (the page never blocks)
  }

  report(rank, msg) {
    if (this.ended) return;
    if (msg.spans?.length) this.spans.push(...msg.spans);
    const g = this.#graph;
    switch (msg.type) {
      case "sent":
        g.sent(rank, msg.dst, msg.tag);
        Object.assign(this.#entry(rank, msg.id),
          { src: rank, dst: msg.dst, tag: msg.tag, bytes: msg.bytes, sendTime: msg.t });
        break;
      case "unsent":
        g.unsent(rank, msg.dst, msg.tag);
        this.#messages.delete(`${rank}:${msg.id}`);
        break;
      case "received":
        g.received(msg.src, rank, msg.tag);
        this.#entry(msg.src, msg.id).recvTime = msg.t;
        this.#openWait[rank] = null;
        break;
      case "blocked":
        g.blocked(rank, msg.on, msg.barrierGen);
        this.#openWait[rank] = { since: msg.since, peer: msg.on[0]?.from ?? null };
        this.#checkDeadlock();
        break;
      case "barrier":
        if (g.enterBarrier(rank)) {
          this.#openWait.fill(null);
          this.broadcast({ type: "release", run: this.id, gen: msg.gen });
        }
        break;
      case "log":
        this.#log(rank, msg.line);
        break;
      case "done":
        g.done(rank);
        this.results[rank] = msg.result;
        if (msg.dropped) this.#log(rank, `… ${msg.dropped} more lines not shown (at most 1000 per rank)`);
        if (g.state.every((s) => s.kind === "done")) this.#end("ok");
        else this.#checkDeadlock();
        break;
      case "error":
        this.#end("error", { error: { rank, message: msg.message, line: msg.line ?? null, column: msg.column ?? null } });
        break;
    }
  }

  // The Worker itself failed (not the learner's code: that arrives as an "error" report).
  workerFailed(rank, message) {
    if (!this.ended) this.#end("error", { error: { rank, message: `the Worker failed: ${message}`, line: null, column: null } });
  }

  // The cluster was terminated while this run was going on.
  abort(reason) {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.#timer);
    this.#reject(reason);
  }

  #entry(src, id) {
    const key = `${src}:${id}`;
    return this.#messages.get(key) ?? this.#messages.set(key, { recvTime: null }).get(key);
  }

  #log(rank, line) {
    this.logs[rank].push(line);
    try { this.onLog?.(rank, line); } catch { /* a failing UI callback must not break the run */ }
  }

  #checkDeadlock() {
    const deadlock = this.#graph.deadlock();
    if (!deadlock) return;
    const now = this.#now();
    this.#openWait.forEach((open, rank) => {  // close the waits that will never end
      if (open && now > open.since) this.spans.push({ rank, kind: "wait", start: open.since, end: now, peer: open.peer, bytes: 0 });
    });
    this.#end("deadlock", { deadlock });
  }

  #timeout() {
    const state = this.#graph.state;
    const running = state.map((s, r) => r).filter((r) => state[r].kind === "running");
    const blocked = state.map((s, r) => r).filter((r) => state[r].kind === "blocked");
    const ranks = (list) => (list.length === 1 ? `rank ${list[0]} was` : `ranks ${list.join(", ")} were`);
    let message = `Stopped by the watchdog after ${this.timeoutMs} ms: `;
    message += running.length ? `${ranks(running)} still running (an endless loop, or more work than the time allows?)`
                              : "no rank finished in time";
    if (blocked.length) message += `; ${ranks(blocked)} waiting`;
    this.#end("timeout", { timeout: { ms: this.timeoutMs, running, blocked, message: message + "." } });
  }

  #now() { return (clockMs() - this.t0) / 1000; }

  #end(status, details = {}) {
    this.ended = true;
    clearTimeout(this.#timer);
    const trace = [...this.#messages.values()].filter((m) => m.sendTime !== undefined)
      // Each Worker's clock is its own performance.timeOrigin + now(), and browsers coarsen timeOrigin: two
      // Workers can disagree by ~0.1 ms. A message cannot be received before it was sent, so clamp.
      .map(({ src, dst, tag, bytes, sendTime, recvTime }) =>
        ({ src, dst, tag, bytes, sendTime, recvTime: recvTime === null ? null : Math.max(recvTime, sendTime) }))
      .sort((a, b) => a.sendTime - b.sendTime);
    this.spans.sort((a, b) => a.rank - b.rank || a.start - b.start);
    this.#resolve({
      status, elapsedMs: clockMs() - this.t0, results: this.results, logs: this.logs, trace, spans: this.spans,
      error: null, deadlock: null, timeout: null, ...details,
    });
  }
}
