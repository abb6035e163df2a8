// cluster_run.js — the page's record of one run on the Worker cluster: it folds the ranks' reports into the
// RunResult (trace, spans, logs, results) and decides when the run is over — every rank returned (ok), one
// threw (error), nobody can make progress (deadlock, at once: deadlock.js), the watchdog fired (timeout: the
// run's time budget ran out, or no rank reported anything for stallMs), it was stopped (stopped), or a rank's
// Worker fell silent (failed: no heartbeat for heartbeat.timeoutMs — the page is not told that a Worker died, it
// notices, as torchelastic's agent and NCCL's watchdog notice a dead peer by a missed deadline).
//
// RunResult (web/README.md, "The Worker cluster"):
//   { status, elapsedMs, results, logs, progress (per rank: the values passed to ctx.progress),
//     trace: [{ src, dst, tag, bytes, sendTime, recvTime, sendOrder, recvOrder }], spans,
//     error: { rank, message, line, column, syntax? } | null (syntax: the code does not parse), deadlock: { cycle, message, waits } | null,
//     timeout: { ms, stalled, running, idle, blocked, lines, message } | null   (running: ranks still executing,
//       terminated by the cluster; idle: ranks that answered a ping but wait on an await nothing resolves),
//     failed: { rank, lastBeat, detectedAt, timeoutMs, message } | null }   times in seconds since the run started
import { WaitForGraph } from "./deadlock.js";
import { watchdogMessage } from "./rank_lines.js";
import { RECVD_FIELDS, SENT_FIELDS } from "../worker/rank_reports.js";
import { clockMs, decodeSpans } from "../worker/rank_spans.js";

const PING_MS = 250;   // when the watchdog fires, a rank that does not answer a ping within this is busy (spinning)

export class ClusterRun {
  #resolve;
  #reject;
  #timer;
  #stallTimer = 0;
  #lastReport;
  #graph;
  #messages;               // #messages[src][id] → trace entry (a receive may be reported before its send)
  #openWait;               // per rank: { since, peer } of the wait it reported blocked in, or null
  #line;                   // per rank: the learner's line it last reported blocked at, or null
  #atLine;                 // per rank: the line of the loop or await its code last passed (line markers), or null
  #pongs = null;           // while the watchdog pings: per rank, its answer { line, timers } or undefined
  #lastBeat;               // per rank: clockMs() of its last heartbeat or report (heartbeat runs only)
  #beatTimer = 0;

  // broadcast(msg) posts to every Worker (barrier releases). timeoutMs: the run's whole budget (Infinity: none);
  // stallMs: the longest no rank may go without reporting (its code runs, messages move, output appears).
  // heartbeat: null | { periodMs, timeoutMs } — every Worker beats every periodMs (rank_worker.js); a rank that has
  // not finished and has been silent for timeoutMs ends the run "failed".
  // post(rank, msg) posts to one Worker (the watchdog's ping).
  constructor({ id, size, t0, timeoutMs, stallMs = Infinity, onLog = null, onProgress = null, broadcast, post = null,
                heartbeat = null }) {
    Object.assign(this, { id, size, t0, timeoutMs, stallMs, onLog, onProgress, broadcast, post, heartbeat });
    this.ended = false;
    this.results = new Array(size).fill(undefined);
    this.logs = Array.from({ length: size }, () => []);
    this.progress = Array.from({ length: size }, () => []);
    this.spans = [];
    this.#messages = Array.from({ length: size }, () => []);
    this.#graph = new WaitForGraph(size);
    this.#openWait = new Array(size).fill(null);
    this.#line = new Array(size).fill(null);
    this.#atLine = new Array(size).fill(null);
    this.#lastReport = clockMs();
    this.outcome = new Promise((resolve, reject) => { this.#resolve = resolve; this.#reject = reject; });
    this.outcome.catch(() => {});  // an abort nobody awaits (run() already threw) is not an unhandled rejection
    if (Number.isFinite(timeoutMs)) this.#timer = setTimeout(() => this.#timeout(), timeoutMs);  // the watchdog
    if (Number.isFinite(stallMs)) this.#watchStall();
    this.#lastBeat = new Array(size).fill(clockMs());
    if (heartbeat) this.#watchHeartbeats(clockMs() + heartbeat.periodMs);
  }

  // A rank's Worker says it is alive (not progress: a rank blocked in recv() beats too).
  beat(rank) { this.#lastBeat[rank] = clockMs(); }

  // Where a rank's code is (rank_worker.js, line markers): not progress, so the stall watchdog does not count it.
  at(rank, { line }) { this.#atLine[rank] = line ?? null; }

  // A rank's answer to the watchdog's ping: it is not spinning.
  pong(rank, { line, timers, polling = false }) {
    if (this.#pongs) this.#pongs[rank] = { line: line ?? null, timers, polling };
  }

  report(rank, msg) {
    if (this.ended) return;
    this.#lastReport = clockMs();
    this.#lastBeat[rank] = this.#lastReport;
    this.#take(rank, msg);
    const g = this.#graph;
    switch (msg.type) {
      case "report":
        g.setState(rank, msg.state);
        this.#openWait[rank] = msg.state.kind === "blocked"
          ? { since: msg.state.since, peer: waitPeer(msg.state.on[0]) } : null;
        this.#line[rank] = msg.state.kind === "blocked" ? msg.state.line ?? null : null;
        if (msg.state.kind === "blocked") this.#checkDeadlock();
        break;
      case "barrier":
        g.setState(rank, { kind: "running" });
        if (g.enterBarrier(rank)) {
          this.#openWait.fill(null);
          this.broadcast({ type: "release", run: this.id, gen: msg.gen });
        }
        break;
      case "done":
        g.done(rank);
        this.#openWait[rank] = null;
        this.results[rank] = msg.result;
        if (msg.dropped) this.#log(rank, `… ${msg.dropped} more lines not shown (at most 1000 per rank)`);
        if (g.state.every((st) => st.kind === "done")) this.#end("ok");
        else this.#checkDeadlock();
        break;
      case "error":
        this.#end("error", { error: { rank, message: msg.message, line: msg.line ?? null, column: msg.column ?? null,
                                      ...(msg.syntax ? { syntax: true } : {}) } });
        break;
    }
  }

  // The Worker itself failed (not the learner's code: that arrives as an "error" report).
  workerFailed(rank, message) {
    if (!this.ended) this.#end("error", { error: { rank, message: `the Worker failed: ${message}`, line: null, column: null } });
  }

  // The learner (or the page) stopped the run.
  stop(message = "Stopped.") {
    if (!this.ended) this.#end("stopped", { stopped: { message } });
  }

  // The cluster was terminated while this run was going on.
  abort(reason) {
    if (this.ended) return;
    this.#finish();
    this.#reject(reason);
  }

  // The records a report carries (flat: rank_reports.js): spans, messages sent and taken, output lines, progress values.
  #take(rank, msg) {
    if (msg.spans) decodeSpans(rank, msg.spans, this.spans);
    const g = this.#graph;
    const sent = msg.sent ?? [];
    for (let i = 0; i < sent.length; i += SENT_FIELDS) {
      const dst = sent[i], tag = sent[i + 1], id = sent[i + 2], bytes = sent[i + 3], t = sent[i + 4], order = sent[i + 5];
      g.sent(rank, dst, tag);
      Object.assign(this.#entry(rank, id), { dst, tag, bytes, sendTime: t, sendOrder: order });
    }
    const recvd = msg.recvd ?? [];
    for (let i = 0; i < recvd.length; i += RECVD_FIELDS) {
      const src = recvd[i], tag = recvd[i + 1], id = recvd[i + 2], t = recvd[i + 3], order = recvd[i + 4];
      g.receivedId(src, rank, tag, id);
      Object.assign(this.#entry(src, id), { recvTime: t, recvOrder: order });
    }
    for (const line of msg.logs ?? []) this.#log(rank, line);
    for (const value of msg.progress ?? []) {
      this.progress[rank].push(value);
      try { this.onProgress?.(rank, value); } catch { /* a failing UI callback must not break the run */ }
    }
  }

  #entry(src, id) {
    const mine = this.#messages[src];
    return mine[id] ?? (mine[id] = { recvTime: null, recvOrder: null });
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
    this.#end("deadlock", { deadlock: { ...deadlock, lines: this.#linesOf(deadlock.waits.map((w) => w.rank)) } });
  }

  // [{ rank, line }] of those ranks whose line is known (where they are blocked: rank_blocking.js).
  #linesOf(ranks) {
    return ranks.flatMap((rank) => (this.#line[rank] ? [{ rank, line: this.#line[rank] }] : []));
  }

  #watchStall() {
    const every = Math.max(50, Math.min(1000, this.stallMs / 4));
    this.#stallTimer = setTimeout(() => {
      if (this.ended) return;
      if (clockMs() - this.#lastReport > this.stallMs) this.#timeout(this.stallMs);
      else this.#watchStall();
    }, every);
  }

  // Every periodMs: is a rank that has not finished silent for longer than timeoutMs? A check that itself fires late
  // (the page's thread was busy) only re-arms: beats queued behind the busy stretch are taken first, so a slow page
  // never declares a live Worker dead.
  #watchHeartbeats(expected) {
    const { periodMs, timeoutMs } = this.heartbeat;
    this.#beatTimer = setTimeout(() => {
      if (this.ended) return;
      const now = clockMs();
      if (now - expected < periodMs) {
        const state = this.#graph.state;
        const dead = this.#lastBeat.findIndex((t, r) => state[r].kind !== "done" && now - t > timeoutMs);
        if (dead >= 0) {
          const lastBeat = (this.#lastBeat[dead] - this.t0) / 1000, detectedAt = this.#now();
          this.#end("failed", { failed: { rank: dead, lastBeat, detectedAt, timeoutMs,
            message: `rank ${dead} stopped sending heartbeats: nothing from its Worker for ${timeoutMs} ms ` +
                     `(last heard at ${(lastBeat * 1000).toFixed(0)} ms); it is presumed dead.` } });
          return;
        }
      }
      this.#watchHeartbeats(now + periodMs);
    }, periodMs);
  }

  // stalledMs: the watchdog saw no report for that long; otherwise the run's time budget ran out. Every unfinished
  // rank is pinged first: one that does not answer is spinning in its code (even one the graph last heard blocked: a
  // rank that got its message and then loops cannot report it); one that answers is blocked if the graph says so,
  // else idle — its code waits on an await nothing resolves — unless a timer of its own is pending (then it runs,
  // between sleeps) or it has just probed (then it polls, looking for a message that does not come). Lines: the call a blocked rank waits in, the last loop or await the others' markers passed.
  async #timeout(stalledMs = null) {
    if (this.#pongs) return;   // already pinging
    clearTimeout(this.#timer);
    clearTimeout(this.#stallTimer);
    const state = this.#graph.state;
    const listed = (kind) => state.map((s, r) => r).filter((r) => state[r].kind === kind);
    let running = listed("running");
    let blocked = listed("blocked");
    let idle = [], polling = [];
    if (this.post && running.length + blocked.length > 0) {
      this.#pongs = new Array(this.size).fill(undefined);
      for (const r of [...running, ...blocked]) this.post(r, { type: "ping", run: this.id });
      await new Promise((resolve) => setTimeout(resolve, PING_MS));
      if (this.ended) return;
      const pongs = this.#pongs;
      const busy = [...running, ...blocked].filter((r) => !pongs[r]);
      const moving = (r) => pongs[r].timers > 0 || pongs[r].polling;   // sleeps in a timer loop, or polls with probe
      idle = running.filter((r) => pongs[r] && !moving(r));
      polling = running.filter((r) => pongs[r]?.polling);
      running = [...busy, ...running.filter((r) => pongs[r] && moving(r))].sort((a, b) => a - b);
      blocked = blocked.filter((r) => pongs[r]);
      for (const r of [...idle, ...running]) if (pongs[r]?.line) this.#atLine[r] = pongs[r].line;
    }
    const lines = [...this.#linesOf(blocked),
      ...[...running, ...idle].flatMap((rank) => (this.#atLine[rank] ? [{ rank, line: this.#atLine[rank] }] : []))]
      .sort((a, b) => a.rank - b.rank);
    const what = stalledMs === null ? `after ${this.timeoutMs} ms` : `: no rank made progress for ${stalledMs / 1000} s`;
    const message = watchdogMessage({ running, idle, polling, blocked, lines, what });
    const ms = stalledMs ?? this.timeoutMs;
    this.#end("timeout", { timeout: { ms, stalled: stalledMs !== null, running, idle, blocked, message, lines } });
  }

  #now() { return (clockMs() - this.t0) / 1000; }

  #finish() {
    this.ended = true;
    clearTimeout(this.#timer);
    clearTimeout(this.#stallTimer);
    clearTimeout(this.#beatTimer);
  }

  #end(status, details = {}) {
    this.#finish();
    // Sorted by send time; equal times (the clock is coarse) by sender, then in the order it sent them.
    const sent = this.#messages.flatMap((mine, src) => mine.map((m, id) => ({ m, src, id })))
      .filter(({ m }) => m.sendTime !== undefined);
    const trace = sent.sort((a, b) => a.m.sendTime - b.m.sendTime || a.src - b.src || a.id - b.id)
      // Each Worker's clock is its own performance.timeOrigin + now(), and browsers coarsen timeOrigin: two
      // Workers can disagree by ~0.1 ms. A message cannot be received before it was sent, so clamp.
      .map(({ src, m: { dst, tag, bytes, sendTime, recvTime, sendOrder, recvOrder } }) =>
        ({ src, dst, tag, bytes, sendTime, recvTime: recvTime === null ? null : Math.max(recvTime, sendTime), sendOrder, recvOrder }));
    this.spans.sort((a, b) => a.rank - b.rank || a.start - b.start);
    this.#resolve({
      status, elapsedMs: clockMs() - this.t0, results: this.results, logs: this.logs, progress: this.progress, trace,
      spans: this.spans,
      error: null, deadlock: null, timeout: null, stopped: null, failed: null, ...details,
    });
  }
}

// Whom a blocked rank's first wait is for (the timeline's wait span): a recv's source, a sync send's
// receiver, or nobody in particular (a recvAny, a barrier).
function waitPeer(wait) {
  const peer = wait?.from ?? wait?.to ?? null;
  return peer === "any" ? null : peer;
}
