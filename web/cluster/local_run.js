// local_run.js — one run of the judge cluster (local_cluster.js): every rank's main(ctx) in this thread, driven
// one step at a time by a scheduler, so a run is reproducible and every interleaving a seed names can be tried.
//
// A step is one of
//   deliver   the oldest message in flight on one ordered pair src → dst reaches dst (per-pair FIFO) and is
//             matched to a recv() of dst that waits for it (same source and tag), if there is one;
//   resume    a rank runs on: the oldest thing it was waiting for happens — its recv() takes its message (a
//             synchronous sender may then go on), its send() completes, its barrier releases, its timer fires,
//             its probe() answers, or (first step) its main() starts. A rank's resumptions keep their order, so
//             per-pair FIFO holds for everything the code can observe; which rank runs next is the scheduler's.
// After each step the scheduler lets every microtask run (the learner's code continues until it awaits
// again) and only then chooses the next step (run_options.js: the first possible step, or a seeded choice).
// When no step is possible and no timer is pending, every unfinished rank waits for something that cannot
// happen: a deadlock, explained by the same WaitForGraph as the Worker cluster's.
//
// Time is virtual: a clock that advances by one tick per step (plus 0.1 ns per byte delivered), so the trace,
// the spans and ctx.now() are deterministic for a seed; code between two awaits takes no time. The RunResult
// says so (clock: { kind: "virtual", resolution: 0, skew: 0 }), so checkers need no slack for coarse browser
// clocks or Workers whose clocks disagree. The watchdog stops a run that takes too long in real time or more than
// MAX_STEPS steps. A loop that never lets the scheduler run — `for (;;) {}`, or `for (;;) await null`, which
// resumes in microtasks only — is stopped by the line markers the cluster puts in every loop body and before
// every awaited value (line_marks.js, at()): they check the time every MARK_CHECK passes, end the run (naming the
// rank and its line) and throw, and once the run is over every marker throws, so such a loop unwinds.
import { WaitForGraph } from "./deadlock.js";
import { LocalNetwork } from "./local_network.js";
import { VirtualTimers } from "./local_timers.js";
import { blockedOn, stuckVerdict, timeoutVerdict } from "./local_verdicts.js";
import { interleaving } from "./run_options.js";
import { learnerErrorFrom } from "../worker/learner_module.js";
import { checkRank, checkTag, probeArgs } from "../worker/message_args.js";
import { messageBytes, preparePayload } from "../worker/message_size.js";
import { Pending } from "../worker/rank_blocking.js";
import { formatArgs } from "../worker/rank_console.js";
import { SpanRecorder } from "../worker/rank_spans.js";
import { MARK } from "../worker/line_marker.js";

// Thrown by a line marker into code whose run is over (at()): it unwinds the loop; nobody reports it.
class RunOver extends Error {
  constructor() { super("the run is over"); this.name = "RunOver"; }
}

const MAX_LOG_LINES = 1000;   // per rank, as on the Workers
const MAX_STEPS = 5e6;
// A running rank that probed within this many of the scheduler's last steps polls (a polling loop probes on every
// step it is given). Counted in steps, not milliseconds: a descheduled process must not turn polling into looping.
const POLLING_STEPS = 2;
const MARK_CHECK = 64;        // line markers passed between two looks at the real-time clock
const SECONDS_PER_BYTE = 1e-10;
export const VIRTUAL_CLOCK = Object.freeze({ kind: "virtual", resolution: 0, skew: 0 });

// Lets every pending microtask run: a macrotask boundary (setImmediate in Node, a MessageChannel elsewhere).
const channel = globalThis.setImmediate ? null : new MessageChannel();
const queued = [];
if (channel) channel.port1.onmessage = () => queued.shift()();
const drain = () => new Promise((resolve) => {
  if (!channel) { setImmediate(resolve); return; }
  queued.push(resolve);
  channel.port2.postMessage(null);
});
const realMs = () => globalThis.performance.now();

export class LocalRun {
  // The options of LocalCluster.run (local_cluster.js compiles the code, with shims(r) as rank r's console and
  // timers, and hands the mains to execute()).
  constructor({ size, inputs, core, timeoutMs, onLog, onProgress, delivery, sendMode }) {
    Object.assign(this, { size, inputs, core, timeoutMs, onLog, onProgress, sendMode });
    this.where = () => ({ line: null, column: null, inCourseCode: false });
    this.policy = interleaving(delivery);
    this.clock = 0;              // seconds since the run started
    this.ended = false;
    this.stepsTaken = 0;         // scheduler steps so far (execute)
    this.graph = new WaitForGraph(size);
    this.trace = [];
    this.spans = [];
    this.results = new Array(size).fill(undefined);
    this.logs = Array.from({ length: size }, () => []);
    this.progress = Array.from({ length: size }, () => []);
    this.network = new LocalNetwork();
    this.timers = new VirtualTimers();
    this.seq = 0;
    this.marks = 0;              // line markers passed (at())
    this.ranks = Array.from({ length: size }, (_, r) => ({
      r, open: new Set(), ready: [], barrier: null, barrierGen: 0, finished: false, lines: 0, dropped: 0, records: 0,
      line: null,   // the learner's line of the call it is blocked in (null: running, or not in the learner's code)
      busyLine: null,   // the line of the last loop or await it passed since it was last resumed (line_marks.js)
      spans: this.#spanRecorder(r),
    }));
  }

  // Runs mains[r](ctx) on every rank; resolves with the RunResult (web/README.md, "The Worker cluster").
  // where(err) → { line, column, inCourseCode } of an error in the learner's code (learner_module.js).
  async execute(mains, where) {
    this.where = where;
    this.started = realMs();
    mains.forEach((main, r) => this.#schedule(r, () => this.#start(r, main)));
    let steps = 0;
    while (!this.ended) {
      this.stepsTaken = ++steps;
      if (steps > MAX_STEPS || realMs() - this.started > this.timeoutMs) { this.#timeout(steps > MAX_STEPS); break; }
      if (!this.#step()) { this.#stuck(); break; }
      await drain();
      this.#refresh();
    }
    return this.outcome;
  }

  // The ctx of rank r (the same API as a Worker's, rank_worker.js).
  context(r) {
    return {
      rank: r, size: this.size, input: structuredClone(this.inputs[r]), core: this.core,
      send: (to, data, options) => this.#send(r, to, data, options),
      recv: (from, options) => this.#recv(r, from, options),
      recvAny: (options) => this.#recv(r, "any", options),
      probe: (from, options) => this.#probe(r, from, options),
      barrier: () => this.#barrier(r),
      log: (...args) => this.log(r, formatArgs(args)),
      progress: (value) => this.#progress(r, value),
      now: () => this.clock * 1000,
    };
  }

  // A rank's console, timers (virtual: local_timers.js) and line marker.
  shims(r) {
    const line = (prefix) => (...args) => this.log(r, prefix + formatArgs(args));
    return {
      console: { log: line(""), info: line(""), debug: line(""), warn: line("warning: "), error: line("error: ") },
      ...this.timers.functions(r, () => this.clock),
      [MARK]: (n) => this.at(r, n),
    };
  }

  // Rank r's code passes a line marker (line_marks.js): a loop's body or an await at `line`. A run that is over
  // lets no code of it go on; one over its time ends here, with r running at that line.
  at(r, line) {
    if (this.ended) throw new RunOver();
    this.ranks[r].busyLine = line;
    if (++this.marks % MARK_CHECK === 0 && realMs() - this.started > this.timeoutMs) {
      this.#timeout(false, r);
      throw new RunOver();
    }
  }

  log(r, line) {
    const rank = this.ranks[r];
    if (this.ended || rank.finished) return;
    if (rank.lines++ >= MAX_LOG_LINES) { rank.dropped += 1; return; }
    this.logs[r].push(line);
    try { this.onLog?.(r, line); } catch { /* a failing UI callback must not break the run */ }
  }

  // The learner's code on rank r threw (or rejected) `err`: the run ends with its message and line.
  fail(r, err) {
    const { message, line, column } = learnerErrorFrom(err, this.where);
    this.failWith(r, message, line, column);
  }

  // The learner (or the page) stopped the run.
  stop(message = "Stopped.") {
    if (!this.ended) this.#end("stopped", { stopped: { message } });
  }

  // syntax: the code does not parse (it never ran; rank r only reports it).
  failWith(r, message, line = null, column = null, syntax = false) {
    if (!this.ended) this.#end("error", { error: { rank: r, message, line, column, ...(syntax ? { syntax } : {}) } });
  }

  #progress(r, value) {
    if (this.ended || this.ranks[r].finished) return;
    let copy;
    try { copy = structuredClone(value); } catch (err) {
      throw new TypeError(`progress: this value cannot be passed to the page (${err.message}); use plain data`);
    }
    this.progress[r].push(copy);
    try { this.onProgress?.(r, copy); } catch { /* a failing UI callback must not break the run */ }
  }

  // ---- steps ------------------------------------------------------------------------------------------------
  #step() {
    for (const timer of this.timers.due(this.clock)) this.#schedule(timer.rank, timer.run);
    const heads = this.network.heads();
    const runnable = this.ranks.filter((x) => x.ready.length);
    const n = runnable.length + heads.length;
    if (n === 0) {
      if (!this.timers.pending) return false;
      this.clock = this.timers.next();   // nothing else can happen before it
      return true;
    }
    // Without a seed: the oldest message in flight first, then the rank that became ready first.
    const oldest = (list, first) => list.reduce((best, x, i) => (first(x) < first(list[best]) ? i : best), 0);
    const k = this.policy.seeded ? this.policy.pick(n)
      : heads.length ? runnable.length + oldest(heads, (q) => q[0].seq) : oldest(runnable, (x) => x.ready[0].seq);
    if (k < runnable.length) {
      const rank = runnable[k], item = rank.ready.shift();
      this.clock += this.policy.tick();
      rank.busyLine = null;   // where it goes from here, its markers tell
      try { item.run(); } catch (err) { this.fail(rank.r, err); }
    } else {
      const { message, waiter } = this.network.arrive(heads[k - runnable.length]);
      this.clock += this.policy.tick() + SECONDS_PER_BYTE * message.bytes;
      if (waiter) this.#take(message, waiter);
    }
    return true;
  }

  #schedule(rank, run) {
    this.ranks[rank].ready.push({ run, seq: ++this.seq });
  }

  #start(r, main) {
    const rank = this.ranks[r];
    Promise.resolve().then(() => main(this.context(r))).then((result) => {
      if (this.ended || rank.finished) return;
      let copy;
      try { copy = structuredClone(result); } catch (err) {
        this.failWith(r, `main() returned a value that cannot be passed to the page (${err.message}); return plain data`);
        return;
      }
      this.#finish(rank);
      this.results[r] = copy;
      this.graph.done(r);
      if (this.ranks.every((x) => x.finished)) this.#end("ok");
    }, (err) => this.fail(r, err));
  }

  #finish(rank) {
    rank.finished = true;
    rank.spans.finish();
    this.spans.push(...rank.spans.take());
    if (rank.dropped) this.logs[rank.r].push(`… ${rank.dropped} more lines not shown (at most ${MAX_LOG_LINES} per rank)`);
  }

  // ---- messages ---------------------------------------------------------------------------------------------
  #send(r, to, data, { tag = 0, move = false } = {}) {
    if (this.ended) return new Promise(() => {});   // the run is over: whatever still runs stays suspended
    this.#checkLive(r, "send");
    checkRank(to, this.size, "send");
    checkTag(tag, "send");
    let copy;
    try {
      const { payload, transfer } = preparePayload(data, move);
      copy = structuredClone(payload, { transfer });
    } catch (err) {
      throw new TypeError(`send: this value cannot be sent to another Worker (${err.message})`);
    }
    const bytes = messageBytes(copy);
    const record = { src: r, dst: to, tag, bytes, sendTime: this.clock, recvTime: null,
                     sendOrder: this.ranks[r].records++, recvOrder: null };   // orders: as rank_reports.js
    this.trace.push(record);
    this.ranks[r].spans.send(to, bytes, this.clock, this.clock);
    this.graph.sent(r, to, tag);
    const message = { src: r, dst: to, tag, bytes, data: copy, record, seq: ++this.seq, sender: null };
    this.network.post(message);
    if (this.sendMode !== "sync") return Promise.resolve();
    message.sender = { kind: "send", to, tag, id: message.seq, peer: to, site: new Error() };
    return this.#pending(r, message.sender);
  }

  // from "any": a recvAny(), which resolves with { from, data }.
  #recv(r, from, { tag = 0 } = {}) {
    if (this.ended) return new Promise(() => {});
    const what = from === "any" ? "recvAny" : "recv";
    this.#checkLive(r, what);
    if (from !== "any") checkRank(from, this.size, what);
    checkTag(tag, what);
    const waiter = { kind: "recv", from, tag, peer: from === "any" ? null : from, site: new Error() };
    const promise = this.#pending(r, waiter);
    const arrived = this.network.match(r, from, tag, waiter, this.size);
    if (arrived) this.#take(arrived, waiter);
    return promise;
  }

  // MPI_Iprobe: a look at what has arrived, taken when the rank next runs — a step like any other, so the
  // scheduler (and the seed) decides what has arrived by then, and a loop of probes lets the other ranks run.
  // Never a wait: the wait-for graph sees the rank as running, not blocked.
  #probe(r, from, options) {
    if (this.ended) return new Promise(() => {});
    this.#checkLive(r, "probe");
    const args = probeArgs(from, options, this.size);
    this.ranks[r].probedStep = this.stepsTaken;   // a rank that probed just before the watchdog fired was polling
    return new Promise((resolve) => this.#schedule(r, () => {
      const m = this.network.peek(r, args.from, args.tag, this.size);
      resolve(m ? { from: m.src, tag: m.tag, bytes: m.bytes } : null);
    }));
  }

  // A message is matched to a recv(); the receiving rank takes it when it next runs (its recvTime is that
  // moment, when its code sees the data, as on a Worker), and only then can a synchronous sender go on.
  #take(message, waiter) {
    this.#schedule(message.dst, () => {
      this.graph.receivedId(message.src, message.dst, message.tag, message.seq);
      if (message.sender) this.#schedule(message.src, () => message.sender.settle(undefined, 0));
      message.record.recvTime = this.clock;
      message.record.recvOrder = this.ranks[message.dst].records++;
      waiter.settle(waiter.from === "any" ? { from: message.src, data: message.data } : message.data, message.bytes);
    });
  }

  #barrier(r) {
    if (this.ended) return new Promise(() => {});
    this.#checkLive(r, "barrier");
    const rank = this.ranks[r];
    if (rank.barrier) throw new Error("barrier() was called again before the previous barrier() had resolved — await it");
    rank.barrier = { kind: "barrier", gen: rank.barrierGen, peer: null, site: new Error() };
    const promise = this.#pending(r, rank.barrier);
    if (this.graph.enterBarrier(r)) {
      for (const x of this.ranks) {
        const waiter = x.barrier;
        x.barrier = null;
        x.barrierGen += 1;
        this.#schedule(x.r, () => waiter.settle(undefined, 0));
      }
    }
    return promise;
  }

  // A promise for `waiter` that knows when the code awaits it (for the wait-for graph and the timeline).
  #pending(r, waiter) {
    const rank = this.ranks[r];
    let resolve;
    const promise = new Pending((ok) => { resolve = ok; });
    promise.onAwait = () => {
      if (waiter.settled || waiter.awaited) return;
      waiter.awaited = true;
      rank.spans.beginWait(waiter.peer);
    };
    waiter.settle = (value, bytes) => {
      waiter.settled = true;
      rank.open.delete(waiter);
      if (waiter.awaited && !rank.finished) rank.spans.endWait(bytes);
      resolve(value);
    };
    rank.open.add(waiter);
    return promise;
  }

  #checkLive(r, what) {
    if (this.ranks[r].finished) throw new Error(`${what}() was called after this rank's main() had finished`);
  }

  // ---- who waits for what -----------------------------------------------------------------------------------
  // The wait-for graph learns each rank's state after every step: blocked on the calls its code awaits, or
  // running (something to resume, or suspended on a promise that is none of ours).
  #refresh() {
    for (const rank of this.ranks) {
      if (rank.finished) continue;
      const awaited = [...rank.open].filter((w) => w.awaited);
      if (rank.ready.length > 0 || awaited.length === 0) { this.graph.running(rank.r); rank.line = null; continue; }
      const { on, barrierGen } = blockedOn(awaited);
      this.graph.blocked(rank.r, on, barrierGen);
      const first = awaited[0];   // where the rank waits: the call's line in the learner's code (read once per call)
      if (first.line === undefined) first.line = this.where(first.site).line ?? null;
      rank.line = first.line;
    }
  }

  #stuck() {
    const verdict = stuckVerdict(this.graph, this.ranks.filter((x) => !x.finished).map((x) => x.r), this.#lines());
    this.#end("deadlock", verdict);
  }

  // spinning: the rank whose marker found the time up (it runs without ever yielding to the scheduler).
  #timeout(tooManySteps, spinning = null) {
    // Running: spinning, something to resume, or a message on its way to it; blocked: neither.
    const coming = new Set(this.network.heads().map((q) => q[0].dst));
    const live = this.ranks.filter((x) => !x.finished);
    const running = live.filter((x) => x.r === spinning || x.ready.length > 0 || coming.has(x.r)).map((x) => x.r);
    const blocked = live.filter((x) => !running.includes(x.r)).map((x) => x.r);
    // (the spinning rank never yields, so it cannot be waiting on a probe's answer)
    const polling = running.filter((r) => r !== spinning && this.stepsTaken - (this.ranks[r].probedStep ?? -Infinity) <= POLLING_STEPS);
    this.#end("timeout", timeoutVerdict({ running, polling, blocked, timeoutMs: this.timeoutMs, maxSteps: MAX_STEPS, tooManySteps,
                                          lines: this.#lines(running) }));
  }

  // [{ rank, line }] of the unfinished ranks at a known line of the learner's code: the call a rank is blocked in,
  // else the last loop or await its markers passed (a running rank's loop; a sleeping rank's await), unless it is
  // blocked in a call of the course's code.
  #lines(running = []) {
    return this.ranks.filter((x) => !x.finished).flatMap((x) => {
      const inOurCall = [...x.open].some((w) => w.awaited);
      const line = running.includes(x.r) ? x.busyLine ?? x.line : x.line ?? (inOurCall ? null : x.busyLine);
      return line ? [{ rank: x.r, line }] : [];
    });
  }

  #end(status, details = {}) {
    if (this.ended) return;
    this.ended = true;
    for (const rank of this.ranks) if (!rank.finished) this.#finish(rank);
    this.spans.sort((a, b) => a.rank - b.rank || a.start - b.start);
    this.outcome = {
      status, elapsedMs: this.clock * 1000, results: this.results, logs: this.logs, progress: this.progress,
      trace: this.trace.map((m) => ({ ...m })), spans: this.spans, error: null, deadlock: null, timeout: null,
      stopped: null, failed: null, clock: VIRTUAL_CLOCK, ...details,
    };
  }

  #spanRecorder(r) {
    const run = this;
    return new (class extends SpanRecorder { now() { return run.clock; } })(r, 0);
  }
}

