// rank_reports.js — what a rank tells the page, and when. The page needs every message's record (the trace:
// who sent what to whom, when it was sent and received), the rank's timeline spans and its output lines, and it
// needs to know when the rank is blocked (deadlock.js). Telling it on every send and receive would cost a
// cross-thread message each — more than the message itself — so records are batched, and a report goes out:
//   · when the rank has been blocked on the same waits, with the same counts, for two checks in a row
//     (CHECK_MS apart): a wait that ends quickly costs nothing, a deadlock is reported within ~2·CHECK_MS;
//   · at most every FLUSH_MS while there is output or records to deliver (live logs, progress, stall watchdog);
//   · with barrier entries, results and errors (flush()).
// Every report carries the rank's state at the moment it is posted — running, or blocked on what — taken in a
// fresh task (a timer callback), and every record since the previous report. deadlock.js explains why such
// snapshots, however late, never produce a false deadlock.
// CHECK_MS trades how soon a deadlock is reported for how often a busy rank's thread is woken just to look: a
// timer that fires while the rank sleeps in a recv() costs a thread wake-up, about as much CPU as a message
// (on the 2-core machine of bench/lab_steps.mjs, 3 ms checks were ~140 wake-ups per lab step on 8 Workers).
const CHECK_MS = 10;
const FLUSH_MS = 100;

// Records travel flat, SENT_FIELDS / RECVD_FIELDS values per message (no array per record: a report carries hundreds).
export const SENT_FIELDS = 5;    // dst, tag, id, bytes, t
export const RECVD_FIELDS = 4;   // src, tag, id, t

export class Reporter {
  #sent = [];     // dst, tag, id, bytes, t, dst, tag, …
  #recvd = [];    // src, tag, id, t, src, tag, …
  #logs = [];
  #progress = [];
  #checkTimer = 0;
  #flushTimer = 0;
  #lastKey = null;      // blocked state at the previous check
  #reportedKey = null;  // what the page was last told
  #counts = 0;          // records so far: part of the key, so a rank that re-blocks after a receive re-reports

  // post(message) sends to the page; timers: the Worker's native setTimeout/clearTimeout.
  constructor({ run, post, watch, spans, timers }) {
    Object.assign(this, { run, post, watch, spans, timers });
  }

  sent(dst, tag, id, bytes, t) { this.#sent.push(dst, tag, id, bytes, t); this.#counts++; this.#armFlush(); }
  received(src, tag, id, t) { this.#recvd.push(src, tag, id, t); this.#counts++; this.#armFlush(); }
  log(line) { this.#logs.push(line); this.#armFlush(); }
  progress(value) { this.#progress.push(value); this.#armFlush(); }

  // The rank may have started or stopped waiting: check in a fresh task.
  changed() {
    if (!this.#checkTimer && !this.watch.closed) {
      this.#checkTimer = this.timers.setTimeout(() => { this.#checkTimer = 0; this.#check(); }, CHECK_MS);
    }
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
    return s ? { kind: "blocked", on: s.on, barrierGen: s.barrierGen, since: this.spans.cursor } : { kind: "running" };
  }

  #key(state) { return JSON.stringify([state.on, state.barrierGen, this.#counts]); }

  #check() {
    const state = this.#state();
    if (state.kind !== "blocked") { this.#lastKey = null; return; }   // a wake-up re-arms the check
    const key = this.#key(state);
    if (key === this.#reportedKey) return;
    if (key === this.#lastKey) this.flush("report", { state });       // blocked and unchanged for CHECK_MS
    else { this.#lastKey = key; this.changed(); }                      // look again shortly
  }

  #armFlush() {
    if (!this.#flushTimer) this.#flushTimer = this.timers.setTimeout(() => { this.#flushTimer = 0; this.flush(); }, FLUSH_MS);
  }
}
