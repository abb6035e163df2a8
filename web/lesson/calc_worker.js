// calc_worker.js — computes a page's data-calc numbers off the main thread (see calc.js).
// In: { calcsUrl, keys, wasmModule } (the page's compiled core). Out: { values: { key: text } } or { error }.
import { instantiateCore } from "../wasm.js";
import { computeCalcs } from "./calc.js";

self.onmessage = async ({ data: { calcsUrl, keys, wasmModule } }) => {
  try {
    const [core, { CALCS }] = await Promise.all([instantiateCore(wasmModule), import(calcsUrl)]);
    postMessage({ values: computeCalcs(CALCS, keys, core) });
  } catch (err) {
    postMessage({ error: err?.message ?? String(err) });
  }
};
