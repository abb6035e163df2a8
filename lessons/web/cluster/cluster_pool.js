// cluster_pool.js — one Worker cluster per page, resized on demand. Every Worker receives the core's
// compiled WebAssembly.Module, so a new cluster costs Worker start-up only, not a download or compile.
import { Cluster } from "./cluster.js";
import { compileCore } from "../wasm.js";

export class ClusterPool {
  #cluster = null;
  #size = 0;

  // A ready cluster of `size` ranks (the previous one is reused if it has that size).
  async get(size) {
    if (this.#cluster && this.#size === size) return this.#cluster;
    this.#cluster?.terminate();
    const wasmModule = await compileCore();
    this.#cluster = new Cluster(size, { wasmModule });
    this.#size = size;
    await this.#cluster.ready();
    return this.#cluster;
  }

  terminate() {
    this.#cluster?.terminate();
    this.#cluster = null;
    this.#size = 0;
  }
}
