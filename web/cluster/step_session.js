// step_session.js — a step-through of the learner's program on the page's Workers: every rank pauses before
// each statement of its async functions (exercise/step_instrument.js, worker/step_hooks.js) and goes on only
// when the learner says so. The session is the scheduler, and it records the run for time travel.
//
//   const session = new StepSession({ clusters, ranks, code, inputs, sendMode, seed, learnerLines, onChange });
//   await session.start();        // every rank paused at its first statement (frame 0)
//   await session.stepRank(2);  await session.stepAll();  await session.runTo("comm" | "barrier" | null);
//   await session.runFree();      // to the end without pausing or recording on the way (a long program: the lab)
//   session.stop();   session.frames[i]   session.messages   session.result (the RunResult, once it ended)
//
// Deterministic. After every move the session waits until the cluster is quiet — each rank paused, finished, or
// blocked on a recv/send/barrier that nothing in flight can satisfy — and only then records a frame and takes
// the next move. Receives name their source and per pair and tag messages keep their order, so a rank's path
// through its code depends only on the values it receives, never on timing: the frames of a session are the same
// every time for the same moves. Continue and "run to" move ranks in a seeded order when a seed is given (the
// step-through's delivery fuzzer: the same seed, the same interleaving), otherwise all paused ranks at once.
//
// A frame: { note, ranks: [{ state, site, line, vars, on }] }; state is "starting" | "running" | "paused" |
// "blocked" | "barrier" | "done" (a rank's state when the run ended stays as it was: where it stopped). A message: { src, dst, tag, bytes, preview, sent, taken, value } — sent and taken are the
// frame indices at which it left and was received (null: still in flight), value what the receiver got.
import { instrument } from "../exercise/step_instrument.js";
import { mulberry32 } from "../exercise/random.js";

const MAX_MOVES = 5000;   // frames one Continue may record before it pauses (an endless loop stays in hand)

export class StepSession {
  #send = null;           // (rank, { action }) → the rank's Worker
  #ranks;                 // live state per rank
  #quiet = null;          // resolve() of the wait in progress
  #stopper = new AbortController();
  #rng;
  #interrupted = false;
  #early = [];            // receipts whose send has not been reported yet
  #free = false;          // runFree(): a rank that pauses is told never to pause again

  constructor({ clusters, ranks, code, inputs = [], sendMode = "buffered", seed = null, learnerLines = null,
                onChange = () => {} }) {
    Object.assign(this, { clusters, size: ranks, source: code, inputs, sendMode, seed, learnerLines, onChange });
    const stepped = instrument(code, { maxLine: learnerLines ?? Infinity });
    Object.assign(this, { code: stepped.code, sites: stepped.sites, original: stepped.original });
    this.#rng = seed === null ? null : mulberry32(seed >>> 0);
    this.#ranks = Array.from({ length: ranks }, () => ({ state: "starting", site: null, line: null, vars: [], on: [], pauses: 0 }));
    this.frames = [];
    this.messages = [];
    this.result = null;
    this.busy = false;
  }

  // Starts the run; resolves when every rank has reached its first pause (or the run is over).
  async start() {
    const { clusters, size, code, inputs, sendMode, learnerLines } = this;
    this.outcome = clusters.run(size, code, { inputs, sendMode, learnerLines, timeoutMs: Infinity, stallMs: Infinity,
                                              signal: this.#stopper.signal, step: this })
      .then((result) => this.#ended(result), (err) => this.#ended(failure(err.message)));
    await this.#move([], "start");
  }

  get ended() { return this.result !== null; }
  get paused() { return this.#ranks.flatMap((x, r) => (x.state === "paused" ? [r] : [])); }
  get last() { return this.frames.length - 1; }

  stepRank(r) { return this.#run(() => this.#move([r], `rank ${r} stepped`)); }
  stepAll() { return this.#run(() => this.#move(this.paused, "all ranks stepped")); }

  // Moves until a rank is about to send or receive ("comm"), to enter a barrier ("barrier"), or to the end (null).
  runTo(kind = null) {
    return this.#run(async () => {
      for (let moves = 0; moves < MAX_MOVES && !this.ended && !this.#interrupted; moves++) {
        const paused = this.paused;
        if (!paused.length) { await this.outcome; break; }
        const ranks = this.#rng ? [paused[Math.floor(this.#rng() * paused.length)]] : paused;
        const before = this.#ranks.map((x) => x.pauses);
        await this.#move(ranks, kind === null ? "continue" : `run to the next ${kind === "comm" ? "send/recv" : "barrier"}`);
        if (kind && this.#ranks.some((x, r) => x.state === "paused" && x.pauses > before[r] && matches(this.sites[x.site], kind))) break;
      }
    });
  }

  // Every rank runs to its end without pausing again; nothing is recorded on the way, the last frame is the end.
  // For a program too long to record statement by statement (one training step of the lab: tens of thousands).
  runFree() {
    return this.#run(async () => {
      this.#free = true;
      for (const r of this.paused) this.#letGo(r);
      await this.outcome;
    });
  }

  #letGo(r) {
    this.#ranks[r].state = "running";
    this.#send?.(r, { action: "free" });
  }

  // Stops the run (its Workers are recycled by the pool as after any stopped run).
  stop() {
    this.#interrupted = true;
    this.#stopper.abort();
  }
  interrupt() { this.#interrupted = true; }

  // ---- what the cluster calls (cluster.js) ---------------------------------------------------------------------
  attach(send) { this.#send = send; }

  report(r, msg) {
    const x = this.#ranks[r];
    if (msg.type === "step") {
      // A rank that sends or receives is running, whatever its last report said (it received: it woke up).
      if (x.state === "blocked" || x.state === "barrier") Object.assign(x, { state: "running", on: [] });
      if (msg.kind === "pause") {
        Object.assign(x, { state: "paused", site: msg.site, line: this.sites[msg.site].line, vars: msg.vars, on: [] });
        x.pauses += 1;
        if (this.#free) this.#letGo(r);
      }
      else if (msg.kind === "sent") this.#sent(r, msg);
      else if (msg.kind === "recvd") this.#taken(msg.from, r, msg.tag, msg.preview);
    } else if (msg.type === "report" && msg.state.kind === "blocked" && x.state !== "paused" && x.state !== "done") {
      // A rank blocks before any pause of its own when it runs only the course's part of the program (a trainer, a
      // server: not instrumented) — "starting" until then; it is settled like any blocked rank, or frame 0 never comes.
      Object.assign(x, { state: msg.state.barrierGen === null ? "blocked" : "barrier", on: msg.state.on });
    } else if (msg.type === "barrier") {
      Object.assign(x, { state: "barrier", on: [] });
    } else if (msg.type === "done") {
      Object.assign(x, { state: "done", on: [] });
    }
    this.#check();
  }

  // ---- moves ----------------------------------------------------------------------------------------------------
  async #run(action) {
    if (this.busy || this.ended) return;
    this.busy = true;
    this.#interrupted = false;
    this.onChange(this);
    try { await action(); } finally { this.busy = false; this.onChange(this); }
  }

  // Lets `ranks` (paused) run one statement, waits until the cluster is quiet, records a frame.
  async #move(ranks, note) {
    const quiet = new Promise((resolve) => { this.#quiet = resolve; });
    for (const r of ranks) {
      this.#ranks[r].state = "running";
      this.#send?.(r, { action: "go" });
    }
    this.#check();
    await quiet;
    this.#record(note);
  }

  #check() {
    if (this.#quiet && (this.ended || this.#ranks.every((x, r) => this.#settled(x, r)))) {
      const resolve = this.#quiet;
      this.#quiet = null;
      resolve();
    }
    this.onChange(this);
  }

  // Nothing will move this rank until the learner does: paused, done, or waiting for what is not coming.
  #settled(x, r) {
    if (x.state === "paused" || x.state === "done") return true;
    if (x.state === "barrier") return !this.#ranks.every((y) => y.state === "barrier");
    if (x.state !== "blocked") return false;
    return !x.on.some((w) => (w.kind === "recv" ? this.#inFlight(w.from, r, w.tag) : !this.#inFlight(r, w.to, w.tag)));
  }

  // src "any": from any rank (a recvAny()).
  #inFlight(src, dst, tag) {
    return this.messages.some((m) => (src === "any" || m.src === src) && m.dst === dst && m.tag === tag && m.taken === null);
  }

  // Different Workers' reports cross on the way: a receipt can reach the page before its send's report.
  #sent(src, { to, tag, bytes, preview }) {
    const m = { src, dst: to, tag, bytes, preview, sent: this.frames.length, taken: null, value: null };
    this.messages.push(m);
    const early = this.#early.findIndex((x) => x.src === src && x.dst === to && x.tag === tag);
    if (early >= 0) Object.assign(m, this.#early.splice(early, 1)[0].receipt);
  }

  #taken(src, dst, tag, value) {
    const m = this.messages.find((x) => x.src === src && x.dst === dst && x.tag === tag && x.taken === null);
    const receipt = { taken: this.frames.length, value };
    if (m) Object.assign(m, receipt);
    else this.#early.push({ src, dst, tag, receipt });
  }

  #record(note) {
    this.frames.push({ note, ranks: this.#ranks.map(({ state, site, line, vars, on }) => ({ state, site, line, vars, on })) });
    this.onChange(this);
  }

  #ended(result) {
    if (result.error?.column != null) result.error.column = this.original(result.error.line, result.error.column);
    this.result = result;
    const moving = this.#quiet !== null;
    this.#check();            // a move in progress records its frame now
    if (!moving) this.#record(`the run ended: ${result.status}`);
  }
}

const matches = (site, kind) => (kind === "comm" ? ["send", "recv", "collective"].includes(site.comm) : site.comm === "barrier");
const failure = (message) => ({ status: "error", results: [], logs: [], progress: [], trace: [], spans: [],
  error: { rank: null, message, line: null, column: null }, deadlock: null, timeout: null, stopped: null });

// The messages in flight at frame f (sent at or before it, not yet taken).
// By sender (each sender's in the order it sent them): the same list however the Workers' reports crossed.
export function inFlightAt(messages, f) {
  return messages.filter((m) => m.sent <= f && (m.taken === null || m.taken > f)).sort((a, b) => a.src - b.src);
}
