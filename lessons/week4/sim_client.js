// sim_client.js — a widget's long simulations (hundreds of milliseconds: 2000 simulated rounds, six training runs)
// run in one Worker per widget, so the page keeps answering. The Worker instantiates the page's already compiled
// core (no second download) and runs a scenario of ps_setup.js by name; the last request wins: a widget that
// asks again before the answer came (a slider dragged) gets only the newest answer.
//   const sim = simulator();  const { result } = await sim.run("stragglerRounds", { distribution: "lognormal" });
import { compileCore } from "../web/wasm.js";

export function simulator() {
  let worker = null, latest = 0;
  const pending = new Map();   // request number → { resolve, reject }
  const start = () => {
    worker = new Worker(new URL("./sim_worker.js", import.meta.url), { type: "module", name: "dsml week 4 simulator" });
    worker.onmessage = ({ data }) => {
      const [id, waiter] = pending.entries().next().value;
      pending.delete(id);
      if (data.error) waiter.reject(new Error(data.error));
      else if (id === latest) waiter.resolve({ result: data.result, ms: data.ms });
      else waiter.resolve(null);   // superseded: the caller ignores it
    };
    worker.onerror = (e) => { e.preventDefault(); for (const w of pending.values()) w.reject(new Error(`the simulation Worker failed: ${e.message}`)); pending.clear(); };
  };
  return {
    /** Resolves with { result, ms } (ms: its run time in the Worker), or null if a newer request superseded it. */
    async run(name, args = {}) {
      const wasmModule = await compileCore();
      if (!worker) start();
      const id = ++latest;
      const answer = new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
      worker.postMessage({ wasmModule, name, args });
      return answer;
    },
  };
}
