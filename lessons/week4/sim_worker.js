// sim_worker.js — runs one of ps_setup.js's scenarios off the main thread (see sim_client.js).
// In: { wasmModule, name, args } (the page's compiled core). Out: { result, ms } or { error }. (globalThis, not self:
// the module also loads in Node, where the source-tree test imports every lesson module.)
import { instantiateCore } from "../web/wasm.js";
import * as scenarios from "./ps_setup.js";

let core = null;
globalThis.onmessage = async ({ data: { wasmModule, name, args } }) => {
  try {
    core ??= await instantiateCore(wasmModule);
    if (typeof scenarios[name] !== "function") throw new Error(`ps_setup.js has no scenario "${name}"`);
    const started = performance.now();
    const result = scenarios[name](core, args);
    postMessage({ result, ms: performance.now() - started });
  } catch (err) {
    postMessage({ error: err?.message ?? String(err) });
  }
};
