// cluster_pool.js — the page's Worker clusters. Every run gets a cluster of its own for as long as it runs, so
// runs never disturb each other: an exercise's endless loop and the lab's training can go on at once, each
// with its own Workers, watchdog and Stop. A finished run hands its cluster back; the next run of the same size
// reuses it (its Workers and their instances of the core are warm), and idle clusters beyond IDLE_WORKERS are
// terminated, least recently used first. Every Worker receives the core's compiled WebAssembly.Module, so a new
// cluster costs Worker start-up only, not a download or compile.
//   const result = await clusters.run(4, code, { inputs, timeoutMs, signal, … });   // options: cluster.js
import { Cluster } from "./cluster.js";
import { compileCore } from "../wasm.js";

const IDLE_WORKERS = 24;

export class ClusterPool {
  #idle = [];          // clusters not running, least recently used first
  #busy = new Set();
  #terminated = false;

  // Runs `code` on a cluster of `size` Workers that nobody else uses meanwhile; resolves with its RunResult.
  // options.onStart(cluster), if given, is called once the Workers are ready (before the run starts).
  async run(size, code, { onStart = null, ...options } = {}) {
    if (this.#terminated) throw new Error("ClusterPool: this page's clusters have been terminated");
    const cluster = await this.#lease(size);
    try {
      await cluster.ready();
      onStart?.(cluster);
      return await cluster.run(code, options);
    } finally {
      this.#busy.delete(cluster);
      if (this.#terminated) cluster.terminate();
      else this.#giveBack(cluster);
    }
  }

  // Starts an idle cluster of `size` ahead of a run (e.g. when the learner focuses an exercise).
  async warm(size) {
    if (this.#terminated || this.#idle.some((c) => c.size === size)) return;
    const cluster = await this.#create(size);
    this.#giveBack(cluster);
  }

  get running() { return this.#busy.size; }

  terminate() {
    this.#terminated = true;
    for (const c of [...this.#idle, ...this.#busy]) c.terminate();
    this.#idle = [];
  }

  async #lease(size) {
    const i = this.#idle.findIndex((c) => c.size === size);
    const cluster = i >= 0 ? this.#idle.splice(i, 1)[0] : await this.#create(size);
    this.#busy.add(cluster);
    return cluster;
  }

  async #create(size) {
    const wasmModule = await compileCore();
    return new Cluster(size, { wasmModule });
  }

  #giveBack(cluster) {
    this.#idle.push(cluster);
    let workers = this.#idle.reduce((n, c) => n + c.size, 0);
    while (workers > IDLE_WORKERS && this.#idle.length > 1) {
      const old = this.#idle.shift();
      workers -= old.size;
      old.terminate();
    }
  }
}
