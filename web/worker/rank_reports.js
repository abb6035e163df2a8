// rank_reports.js — what a rank tells the page, and when. The page needs every message's record (the trace:
// who sent what to whom, when it was sent and received), the rank's timeline spans and its output lines, and it
// needs to know when the rank is blocked (deadlock.js). Telling it on every send and receive would cost a
// cross-thread message each — more than the message itself — so records are batched, and a report goes out:
//   · when the rank has been waiting on the same calls, with nothing of its own pending, for CHECK_MS without a
//     break: a wait that ends sooner costs nothing, a deadlock is reported CHECK_MS after it forms;
//   · at most every FLUSH_MS while there is output or records to deliver (live logs, progress, stall watchdog);
//   · with barrier entries, results and errors (flush()).
// Every report carries the rank's state at the moment it is posted — running, or blocked on what — taken in a
// fresh task (a timer callback), and every record since the previous report. deadlock.js explains why such
// snapshots, however late, never produce a false deadlock.
// The check's timer runs only while the rank waits: it is armed when the rank starts waiting and cancelled when
// the wait ends, so a busy rank whose waits are short is never woken just to look. A timer that fires while the
// rank sleeps in a recv() costs a thread wake-up, about as much CPU as a message (on the 2-core machine of
// bench/lab_steps.mjs, checks every 3 ms were ~140 wake-ups per lab step on 8 Workers; every 10 ms, ~30; armed
// per wait, almost none at the lab's pace). CHECK_MS trades how soon a deadlock is reported against how long a
// wait may last before the page is told about it.
const CHECK_MS = 10;
const FLUSH_MS = 100;

// Records travel flat, SENT_FIELDS / RECVD_FIELDS values per message (no array per record: a report carries hundreds).
// order: the record's place among this rank's sends and receives (0, 1, …) — program order, which the times cannot
// always tell: a Worker's clock is coarse (0.1 ms in some browsers), so a send and the receive after it often tie.
export const SENT_FIELDS = 6;    // dst, tag, id, bytes, t, order
export const RECVD_FIELDS = 5;   // src, tag, id, t, order

export class Reporter {
  #sent = [];     // dst, tag, id, bytes, t, order, dst, tag, …
  #recvd = [];    // src, tag, id, t, order, src, tag, …
  #logs = [];
  #progress = [];
  #checkTimer = 0;
  #flushTimer = 0;
  #waitingSince = 0;   // performance.now() of the last change while the rank may be blocked
  #reportedKey = null;  // what the page was last told
  #counts = 0;          // records so far (the next record's order): part of the key, so a rank that re-blocks after a receive re-reports

  // post(message) sends to the page; timers: the Worker's native setTimeout/clearTimeout.
  constructor({ run, post, watch, spans, timers }) {
    Object.assign(this, { run, post, watch, spans, timers });
  }

  sent(dst, tag, id, bytes, t) { this.#sent.push(dst, tag, id, bytes, t, this.#counts++); this.#armFlush(); }
  received(src, tag, id, t) { this.#recvd.push(src, tag, id, t, this.#counts++); this.#armFlush(); }
  log(line) { this.#logs.push(line); this.#armFlush(); }
  progress(value) { this.#progress.push(value); this.#armFlush(); }

  // The rank may have started or stopped waiting, or waits for something else now (BlockWatch calls this).
  // While it may be blocked, a check is due CHECK_MS after the last change; once it runs, none is.
  changed() {
    if (this.watch.closed) return;
    if (!this.watch.mayBeBlocked) {
      this.timers.clearTimeout(this.#checkTimer);
      this.#checkTimer = 0;
      return;
    }
    this.#waitingSince = performance.now();
    if (!this.#checkTimer) this.#armCheck(CHECK_MS);
  }

  // Posts a report of `type` now, with every pending record (barrier, done, error: they cannot wait).
  flush(type = "report", fields = {}) {
    this.timers.clearTimeout(this.#flushTimer);
    this.#flushTimer = 0;
    const state = fields.state ?? this.#state();
    this.#reportedKey = state.kind === "blocked" ? this.#key(state) : null;
    const message = { type, run: this.run, state, sent: this.#sent, recvd: this.#recvd, logs: this.#logs,
                      progress: this.#progress, spans: this.spans.takeFlat(), ...fields };
    this.#sent = []; this.#recvd = []; this.#logs = []; this.#progress = [];
    this.post(message);
  }

  close() {
    this.timers.clearTimeout(this.#checkTimer);
    this.timers.clearTimeout(this.#flushTimer);
    this.#checkTimer = this.#flushTimer = 0;
  }

  #state() {
    const s = this.watch.state();
    return s ? { kind: "blocked", on: s.on, barrierGen: s.barrierGen, line: s.line, since: this.spans.cursor } : { kind: "running" };
  }

  #key(state) { return JSON.stringify([state.on, state.barrierGen, this.#counts]); }

  #armCheck(ms) {
    this.#checkTimer = this.timers.setTimeout(() => { this.#checkTimer = 0; this.#check(); }, ms);
  }

  // In a fresh task: blocked on the same calls since CHECK_MS ago? Then tell the page (once per state).
  #check() {
    const left = this.#waitingSince + CHECK_MS - performance.now();
    if (left > 0) { this.#armCheck(left); return; }   // the waits changed meanwhile: give the new ones their time
    const state = this.#state();
    if (state.kind !== "blocked") return;             // the next wait re-arms the check
    const key = this.#key(state);
    if (key !== this.#reportedKey) this.flush("report", { state });
  }

  #armFlush() {
    if (!this.#flushTimer) this.#flushTimer = this.timers.setTimeout(() => { this.#flushTimer = 0; this.flush(); }, FLUSH_MS);
  }
}
