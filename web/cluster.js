// cluster.js — a cluster of Web Workers in the page: rank r is a module Worker (rank_worker.js) that runs the
// learner's SPMD program `async function main(ctx)`; the ranks exchange messages directly.
//
//   const cluster = new Cluster(4, { wasmModule });      // wasmModule: optional compiled WebAssembly.Module
//   await cluster.ready();
//   const run = await cluster.run(code, { inputs, timeoutMs: 5000, onLog(rank, line) {} });
//   run.status  // "ok" | "error" | "timeout" | "deadlock"  — the RunResult is described in cluster_run.js
//   cluster.terminate();
//
// Wiring: the page creates one MessageChannel per pair of ranks and transfers its two ports to the two Workers,
// so data goes Worker → Worker without passing through the page (p·(p−1)/2 channels, like a fully connected
// network). The page only receives each Worker's small reports (sent/received/blocked/log/done), which feed
// the trace, the timeline and the deadlock detector, and it coordinates barriers.
//
// After an error or a timeout the Workers may still be spinning (endless loop) or stuck, so all of them are
// terminated and fresh ones started at once: the next run() just works. After "ok" or a deadlock no code of
// the run can execute any more, so the Workers (and their instances of the core) are kept for the next run.
import { ClusterRun } from "./cluster_run.js";
import { clockMs } from "./rank_spans.js";

const WORKER_URL = new URL("./rank_worker.js", import.meta.url);

export class Cluster {
  #workers = [];
  #ready = null;       // Promise: all current Workers initialised
  #startFailed = false;
  #abortStart = null;  // rejects #ready if the Workers are killed while starting
  #run = null;         // the ClusterRun in progress
  #busy = false;
  #terminated = false;
  #runs = 0;           // run ids: a report or message from an earlier run is recognised and ignored

  constructor(size, { wasmModule = null } = {}) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`Cluster: size must be a positive integer (got ${size})`);
    if (wasmModule !== null && !(wasmModule instanceof WebAssembly.Module)) {
      throw new TypeError("Cluster: wasmModule must be a compiled WebAssembly.Module (or omitted)");
    }
    this.size = size;
    this.wasmModule = wasmModule;
    this.#spawn();
  }

  // Resolves when every Worker is initialised (and has instantiated the core, if one was given).
  ready() {
    if (this.#terminated) return Promise.reject(new Error("Cluster: this cluster has been terminated"));
    if (this.#startFailed) this.#spawn();  // try again rather than fail forever
    return this.#ready;
  }

  // Runs `code` on every rank; resolves with a RunResult (it rejects only on misuse: a run already in
  // progress, bad arguments, or terminate() during the run). One run at a time per cluster.
  async run(code, { inputs = [], timeoutMs = 5000, onLog = null } = {}) {
    if (this.#terminated) throw new Error("Cluster.run: this cluster has been terminated");
    if (this.#busy) {
      throw new Error("Cluster.run: another run is still in progress on this cluster; await it before starting the next");
    }
    if (typeof code !== "string") throw new TypeError("Cluster.run: code must be a string");
    if (!Array.isArray(inputs)) throw new TypeError("Cluster.run: inputs must be an array (one value per rank)");
    if (!(timeoutMs > 0 && timeoutMs <= 2 ** 31 - 1)) throw new RangeError(`Cluster.run: timeoutMs must be a positive number of ms (got ${timeoutMs})`);
    this.#busy = true;
    try {
      await this.ready();
      if (this.#terminated) throw new Error("Cluster.run: this cluster has been terminated");
      const id = ++this.#runs;
      const t0 = clockMs();
      const workers = this.#workers;
      const run = new ClusterRun({ id, size: this.size, t0, timeoutMs, onLog,
                                   broadcast: (msg) => workers.forEach((w) => w.postMessage(msg)) });
      this.#run = run;
      try {
        workers.forEach((w, r) => w.postMessage({ type: "run", run: id, t0, code, input: inputs[r] }));
      } catch (err) {
        run.abort(err);
        this.#spawn();  // some ranks may have started: replace them all
        throw new TypeError(`Cluster.run: an input cannot be sent to a Worker (${err.message}); use plain data`);
      }
      const result = await run.outcome;
      if (result.status === "deadlock") {
        // Nothing can ever wake these ranks (deadlock.js: all blocked, nothing in flight, no timers), so no
        // code of this run will execute again: the Workers are reused, which makes the next run start at once.
        workers.forEach((w) => w.postMessage({ type: "abandon", run: id }));
      } else if (result.status !== "ok" && !this.#terminated) {
        this.#spawn();
      }
      return result;
    } finally {
      this.#run = null;
      this.#busy = false;
    }
  }

  terminate() {
    this.#terminated = true;
    this.#run?.abort(new Error("Cluster: terminated during a run"));
    this.#kill();
  }

  #kill() {
    for (const w of this.#workers) w.terminate();
    this.#workers = [];
    this.#abortStart?.(new Error("Cluster: terminated before its Workers were ready"));  // no await hangs
    this.#abortStart = null;
  }

  // (Re)starts all Workers and wires every pair of them.
  #spawn() {
    this.#kill();
    const size = this.size;
    const workers = [];
    const started = [];
    const current = () => this.#workers === workers;
    for (let r = 0; r < size; r++) {
      const worker = new Worker(WORKER_URL, { type: "module", name: `dsml rank ${r}` });
      started.push(new Promise((ok, fail) => {
        worker.onmessage = ({ data }) => {
          if (data.type === "ready") ok();
          else if (data.type === "init-error") fail(new Error(`Cluster: rank ${r} could not start: ${data.message}`));
          else if (current() && this.#run?.id === data.run) this.#run.report(r, data);
        };
        worker.onerror = (event) => {
          event.preventDefault();
          const message = event.message || `could not load ${WORKER_URL.pathname}`;
          fail(new Error(`Cluster: rank ${r} failed: ${message}`));
          if (current()) this.#run?.workerFailed(r, message);
        };
      }));
      workers.push(worker);
    }
    const ports = workers.map(() => new Array(size).fill(null));
    for (let i = 0; i < size; i++) {
      for (let j = i + 1; j < size; j++) {
        const { port1, port2 } = new MessageChannel();
        ports[i][j] = port1;
        ports[j][i] = port2;
      }
    }
    workers.forEach((w, r) => w.postMessage(
      { type: "init", rank: r, size, ports: ports[r], wasmModule: this.wasmModule }, ports[r].filter(Boolean)));
    this.#workers = workers;
    this.#startFailed = false;
    const killed = new Promise((_, reject) => { this.#abortStart = reject; });
    this.#ready = Promise.race([Promise.all(started), killed]).then(() => {
      if (current()) this.#abortStart = null;
    }, (err) => {
      if (current()) { this.#kill(); this.#startFailed = true; }
      throw err;
    });
    this.#ready.catch(() => {});  // reported by the next ready()/run(), not as an unhandled rejection
  }
}
