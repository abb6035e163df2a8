// cluster.js — a cluster of Web Workers in the page: rank r is a module Worker (rank_worker.js) that runs the
// learner's SPMD program `async function main(ctx)`; the ranks exchange messages directly.
//
//   const cluster = new Cluster(4, { wasmModule });      // wasmModule: optional compiled WebAssembly.Module
//   await cluster.ready();
//   const run = await cluster.run(code, { inputs, timeoutMs: 5000, onLog(rank, line) {} });
//   run.status  // "ok" | "error" | "timeout" | "deadlock" | "stopped" | "failed" — the RunResult: cluster_run.js
// Options: inputs (one per rank), timeoutMs (the whole run's budget; Infinity for none), stallMs (stop when no
// rank reports anything for that long), onLog(rank, line), onProgress(rank, value) (ctx.progress), signal (an
// AbortSignal: Stop), sendMode ("buffered" | "sync": send completes only when received, as MPI_Ssend),
// delivery ({ seed }: messages of different senders delivered in a seeded random interleaving, per-pair order
// kept), learnerLines (the learner's code is the first lines of a composed program: errors are reported there),
// step (a step-through of instrumented code: cluster/step_session.js — it sees every report and talks to the ranks),
// heartbeat ({ periodMs, timeoutMs }: every Worker beats every periodMs; a rank silent for timeoutMs ends the run
// with status "failed", naming it — cluster_run.js), marks (true: the code gets line markers, line_marks.js, so a
// run the watchdog stops names the line each running rank spins at and each idle rank sleeps at; the learner's code).
//   cluster.kill(rank);     // failure injection: terminate that rank's Worker mid-run, telling nobody (a crash)
//   cluster.terminate();
//
// Wiring: the page creates one MessageChannel per pair of ranks and transfers its two ports to the two Workers,
// so data goes Worker → Worker without passing through the page (p·(p−1)/2 channels, like a fully connected
// network). The page only receives each Worker's batched reports (records of messages sent and received, state,
// output, spans: rank_reports.js), which feed the trace, the timeline and the deadlock detector, and it
// coordinates barriers.
//
// After a run that did not end "ok" some Workers may still be executing the learner's code (an endless loop),
// so the cluster recycles itself before the next run: ranks the watchdog caught running are terminated at
// once; every other Worker is asked to abandon the run and is kept if it answers promptly (it is idle, and its
// instance of the core is reused); the rest are replaced by fresh Workers, wired to the survivors with new
// channels (a Worker killed by kill() is replaced without being asked). Starting a Worker is the slow part (tens of ms each), so this keeps ready() fast after a deadlock
// or an exception, where usually no Worker is stuck. The next run() waits for it: it just works.
import { ClusterRun } from "./cluster_run.js";
import { clockMs } from "../worker/rank_spans.js";

const WORKER_URL = new URL("../worker/rank_worker.js", import.meta.url);
const IDLE_ANSWER_MS = 250;  // an idle Worker answers "abandon" within a few ms; silence means it is stuck

export class Cluster {
  #workers = [];       // #workers[rank]: the rank's current Worker
  #replies = new Map();  // Worker → resolve() of its pending "abandoned" answer
  #ready = null;       // Promise: every current Worker initialised
  #startFailed = false;
  #abortStart = null;  // rejects #ready if the Workers are killed while starting
  #run = null;         // the ClusterRun in progress
  #step = null;        // its step-through, if it is one
  #busy = false;
  #terminated = false;
  #runs = 0;           // run ids: a report or message from an earlier run is recognised and ignored
  #killed = new Set(); // Workers terminated by kill(): replaced by the next #recycle

  constructor(size, { wasmModule = null } = {}) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`Cluster: size must be a positive integer (got ${size})`);
    if (wasmModule !== null && !(wasmModule instanceof WebAssembly.Module)) {
      throw new TypeError("Cluster: wasmModule must be a compiled WebAssembly.Module (or omitted)");
    }
    this.size = size;
    this.wasmModule = wasmModule;
    this.#setReady(this.#replace(this.#allRanks()));
  }

  // Resolves when every Worker is initialised (and has instantiated the core, if one was given).
  ready() {
    if (this.#terminated) return Promise.reject(new Error("Cluster: this cluster has been terminated"));
    if (this.#startFailed) this.#setReady(this.#replace(this.#allRanks()));  // try again, not fail forever
    return this.#ready;
  }

  // Runs `code` on every rank; resolves with a RunResult (it rejects only on misuse: a run already in
  // progress, bad arguments, or terminate() during the run). One run at a time per cluster.
  async run(code, { inputs = [], timeoutMs = 5000, stallMs = Infinity, onLog = null, onProgress = null, signal = null,
                    sendMode = "buffered", delivery = null, learnerLines = null, step = null, heartbeat = null,
                    marks = false } = {}) {
    if (this.#terminated) throw new Error("Cluster.run: this cluster has been terminated");
    if (this.#busy) {
      throw new Error("Cluster.run: another run is still in progress on this cluster; await it before starting the next");
    }
    if (typeof code !== "string") throw new TypeError("Cluster.run: code must be a string");
    if (!Array.isArray(inputs)) throw new TypeError("Cluster.run: inputs must be an array (one value per rank)");
    const ms = (x) => x === Infinity || (x > 0 && x <= 2 ** 31 - 1);
    if (!ms(timeoutMs)) throw new RangeError(`Cluster.run: timeoutMs must be a positive number of ms or Infinity (got ${timeoutMs})`);
    if (!ms(stallMs)) throw new RangeError(`Cluster.run: stallMs must be a positive number of ms or Infinity (got ${stallMs})`);
    if (sendMode !== "buffered" && sendMode !== "sync") throw new RangeError(`Cluster.run: sendMode must be "buffered" or "sync" (got ${sendMode})`);
    if (heartbeat !== null && !(ms(heartbeat?.periodMs) && ms(heartbeat?.timeoutMs) && heartbeat.timeoutMs > heartbeat.periodMs)) {
      throw new RangeError("Cluster.run: heartbeat must be null or { periodMs, timeoutMs } in ms with timeoutMs > periodMs");
    }
    const fuzzSeed = delivery === null ? null : delivery.seed;
    if (fuzzSeed !== null && !Number.isInteger(fuzzSeed)) throw new TypeError("Cluster.run: delivery must be null or { seed: an integer }");
    this.#busy = true;
    try {
      // Line markers: the parser is loaded on the first run that wants them (not with the page).
      const marked = marks ? (await import("./line_marks.js")).markLines(code, { maxLine: learnerLines ?? Infinity }) : null;
      if (marked) code = marked.code;
      await this.ready();
      if (this.#terminated) throw new Error("Cluster.run: this cluster has been terminated");
      const id = ++this.#runs;
      const t0 = clockMs();
      const workers = this.#workers;
      const run = new ClusterRun({ id, size: this.size, t0, timeoutMs, stallMs, onLog, onProgress, heartbeat,
                                   broadcast: (msg) => workers.forEach((w) => w.postMessage(msg)),
                                   post: (r, msg) => workers[r].postMessage(msg) });
      this.#run = run;
      this.#step = step;
      step?.attach((r, msg) => workers[r].postMessage({ ...msg, type: "step", run: id }));
      const stop = () => run.stop("Stopped.");
      if (signal?.aborted) stop();
      signal?.addEventListener("abort", stop);
      try {
        workers.forEach((w, r) => w.postMessage({ type: "run", run: id, t0, code, input: inputs[r], sendMode,
                                                  fuzzSeed, learnerLines, step: step && { sites: step.sites },
                                                  heartbeatMs: heartbeat?.periodMs ?? 0 }));
      } catch (err) {
        run.abort(err);
        this.#setReady(this.#recycle(id, []));  // the ranks before the failing one have started
        throw new TypeError(`Cluster.run: an input cannot be sent to a Worker (${err.message}); use plain data`);
      }
      const result = await run.outcome.finally(() => signal?.removeEventListener("abort", stop));
      if (marked && result.error?.column != null) result.error.column = marked.original(result.error.line, result.error.column);
      // After a stop, ranks busy in long work do not answer "abandon" in time and are replaced (#recycle).
      const killed = this.#workers.some((w) => this.#killed.has(w));
      if (result.status !== "ok" || killed) this.#setReady(this.#recycle(id, result.timeout?.running ?? []));
      return result;
    } finally {
      this.#run = null;
      this.#step = null;
      this.#busy = false;
    }
  }

  // Failure injection: rank's Worker is terminated at once, mid-run, and nobody is told — its messages and heartbeats
  // simply stop, as when a machine crashes. A run with a heartbeat notices (status "failed"); the next run gets a
  // fresh Worker for the rank, wired to the others. Returns false if there is no such Worker.
  kill(rank) {
    const worker = this.#workers[rank];
    if (this.#terminated || !worker || this.#killed.has(worker)) return false;
    worker.terminate();
    this.#killed.add(worker);
    return true;
  }

  terminate() {
    this.#terminated = true;
    this.#run?.abort(new Error("Cluster: terminated during a run"));
    for (const w of this.#workers) w.terminate();
    this.#workers = [];
    this.#abortStart?.(new Error("Cluster: terminated before its Workers were ready"));  // no await hangs
  }

  #allRanks() { return Array.from({ length: this.size }, (_, r) => r); }

  // Makes `starting` the cluster's readiness; a failure is reported by the next ready()/run().
  #setReady(starting) {
    const killed = new Promise((_, reject) => { this.#abortStart = reject; });
    this.#startFailed = false;
    this.#ready = Promise.race([starting, killed]).catch((err) => {
      if (!this.#terminated) this.#startFailed = true;
      throw err;
    });
    this.#ready.catch(() => {});  // not an unhandled rejection if nobody is waiting right now
  }

  // After run `id` ended badly: terminate `running` (caught executing by the watchdog), ask the others to
  // abandon the run, and replace whoever is running or does not answer in time.
  async #recycle(id, running) {
    if (this.#terminated) return;
    const workers = this.#workers;
    for (const r of running) workers[r].terminate();
    const gone = (r) => running.includes(r) || this.#killed.has(workers[r]);
    const idle = await Promise.all(workers.map((w, r) => !gone(r) && this.#abandon(w, id)));
    if (this.#terminated) return;
    await this.#replace(this.#allRanks().filter((r) => !idle[r]));
  }

  // true if the Worker answers "abandon" within IDLE_ANSWER_MS.
  #abandon(worker, id) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.#replies.delete(worker); resolve(false); }, IDLE_ANSWER_MS);
      this.#replies.set(worker, () => { clearTimeout(timer); this.#replies.delete(worker); resolve(true); });
      worker.postMessage({ type: "abandon", run: id });
    });
  }

  // Starts new Workers for `ranks` and wires them: one MessageChannel for every pair of ranks that involves
  // a new Worker; the surviving Workers get their new ports in a "rewire" message. Resolves when the new
  // Workers are initialised.
  #replace(ranks) {
    const size = this.size;
    const fresh = new Set(ranks);
    const ports = Array.from({ length: size }, () => new Array(size).fill(null));
    for (let i = 0; i < size; i++) {
      for (let j = i + 1; j < size; j++) {
        if (!fresh.has(i) && !fresh.has(j)) continue;  // both survive: their channel is still good
        const { port1, port2 } = new MessageChannel();
        ports[i][j] = port1;
        ports[j][i] = port2;
      }
    }
    const started = ranks.map((r) => this.#start(r));
    for (let r = 0; r < size; r++) {
      const transfer = ports[r].filter(Boolean);
      if (fresh.has(r)) {
        this.#workers[r].postMessage({ type: "init", rank: r, size, ports: ports[r], wasmModule: this.wasmModule }, transfer);
      } else if (transfer.length) {
        this.#workers[r].postMessage({ type: "rewire", ports: ports[r] }, transfer);
      }
    }
    return Promise.all(started).then(() => undefined);
  }

  // A new Worker for rank r; resolves once it is initialised.
  #start(r) {
    this.#workers[r]?.terminate();
    this.#killed.delete(this.#workers[r]);
    const worker = new Worker(WORKER_URL, { type: "module", name: `dsml rank ${r}` });
    this.#workers[r] = worker;
    const current = () => this.#workers[r] === worker;
    return new Promise((ok, fail) => {
      worker.onmessage = ({ data }) => {
        if (data.type === "ready") ok();
        else if (data.type === "init-error") fail(new Error(`Cluster: rank ${r} could not start: ${data.message}`));
        else if (data.type === "abandoned") this.#replies.get(worker)?.();
        else if (data.type === "beat") { if (current() && this.#run?.id === data.run) this.#run.beat(r); }
        else if (data.type === "at" || data.type === "pong") { if (current() && this.#run?.id === data.run) this.#run[data.type](r, data); }
        else if (current() && this.#run?.id === data.run) {
          if (data.type !== "step") this.#run.report(r, data);
          this.#step?.report(r, data);
        }
      };
      worker.onerror = (event) => {
        event.preventDefault();
        const message = event.message || `could not load ${WORKER_URL.pathname}`;
        fail(new Error(`Cluster: rank ${r} failed: ${message}`));
        if (current()) this.#run?.workerFailed(r, message);
      };
    });
  }
}
