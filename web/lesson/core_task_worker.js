// core_task_worker.js — the Worker of core_tasks.js: instantiates the page's compiled core once, imports the
// widget's module, and answers each call { id, moduleUrl, wasmModule, name, args } with { id, result } or
// { id, error }: module[name](core, ...args).
import { instantiateCore } from "../wasm.js";

let core = null;
const modules = new Map();

globalThis.onmessage = async ({ data: { id, moduleUrl, wasmModule, name, args } }) => {
  try {
    core ??= await instantiateCore(wasmModule);
    if (!modules.has(moduleUrl)) modules.set(moduleUrl, await import(moduleUrl));
    const fn = modules.get(moduleUrl)[name];
    if (typeof fn !== "function") throw new Error(`${moduleUrl} has no function ${name}`);
    postMessage({ id, result: await fn(core, ...args) });
  } catch (err) {
    postMessage({ id, error: err?.message ?? String(err) });
  }
};
