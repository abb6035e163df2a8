// core_tasks.js — a widget's long computations with the core, off the main thread, so the page keeps scrolling and
// answering while they run. One Worker per module (core_task_worker.js) instantiates the page's already compiled
// core and imports the module; a call names one of its exported functions, which gets the core first:
//
//   const tasks = coreTasks(new URL("../../lessons/week3/large_batch_setup.js", import.meta.url));   // (a widget writes its own path)
//   const out = await tasks.call("sweep", "sgd", 8, false);        // sweep(core, "sgd", 8, false), as a copy
//   const out = await tasks.latest("draw", "sweep", …);            // null if a newer "draw" call came first
//
// Calls run one at a time, in order. latest(key, …) is for controls: while one call runs, a newer call with the same
// key replaces the one still waiting, and the replaced one resolves with null — dragging a slider computes the
// first and the last position, not every one in between, and draws only the last (the first, when a newer call
// waits behind it, also resolves with null). An error thrown in the Worker rejects its call with the
// same message.
import { compileCore } from "../wasm.js";

export function coreTasks(moduleUrl) {
  let worker = null, nextId = 0, running = null;
  const queue = [];   // { id, name, args, key, resolve, reject }
  const pending = new Map();

  function start() {
    worker = new Worker(new URL("./core_task_worker.js", import.meta.url), { type: "module", name: "dsml core tasks" });
    worker.onmessage = ({ data }) => {
      const call = pending.get(data.id);
      pending.delete(data.id);
      running = null;
      // A newer call with the same key is waiting: this answer is already out of date, and drawing it would flash.
      const stale = call.key !== null && queue.some((c) => c.key === call.key);
      if (stale) call.resolve(null);
      else if (data.error) call.reject(new Error(data.error)); else call.resolve(data.result);
      next();
    };
    worker.onerror = (e) => {
      e.preventDefault();
      for (const call of pending.values()) call.reject(new Error(`the computation Worker failed: ${e.message}`));
      pending.clear();
      running = null;
      worker.terminate();
      worker = null;
      next();
    };
  }

  async function next() {
    if (running || !queue.length) return;
    running = queue.shift();
    const wasmModule = await compileCore();
    if (!worker) start();
    pending.set(running.id, running);
    worker.postMessage({ id: running.id, moduleUrl: String(moduleUrl), wasmModule, name: running.name, args: running.args });
  }

  function enqueue(key, name, args) {
    return new Promise((resolve, reject) => {
      if (key !== null) {
        for (const old of queue.filter((c) => c.key === key)) { queue.splice(queue.indexOf(old), 1); old.resolve(null); }
      }
      queue.push({ id: nextId++, key, name, args, resolve, reject });
      next();
    });
  }

  return {
    call: (name, ...args) => enqueue(null, name, args),
    latest: (key, name, ...args) => enqueue(key, name, args),
  };
}

// A widget's drawing computed by `tasks` (its latest "draw" call): `working` is said in `out` meanwhile; the answer
// comes back, or null — when a newer draw replaced this one, or when it failed (then `out` says `failure` and why);
// it is recorded with recordRun.
export async function latestDraw(tasks, figure, out, { working, failure = "The simulation could not run" }, name, ...args) {
  if (working) out.textContent = working;
  const started = performance.now();
  let answer;
  try {
    answer = await tasks.latest("draw", name, ...args);
  } catch (err) {
    out.textContent = `${failure}: ${err.message}`;
    return null;
  }
  if (answer) recordRun(figure, started);
  return answer;
}

// A widget drew an answer computed since `started` (a performance.now()): figure.dataset.runMs says how long it took,
// queue included, and figure.dataset.runs counts the answers drawn — the page tests wait for that count to change
// (two runs can take the same number of milliseconds).
export function recordRun(figure, started) {
  figure.dataset.runMs = (performance.now() - started).toFixed(0);
  figure.dataset.runs = String(Number(figure.dataset.runs ?? 0) + 1);
}
