// sim_throughput_wasm.mjs — the wasm half of the native-vs-wasm comparison: the same scenario as
// bench/scenario_throughput.cpp (token ring, 64 ranks, 2000 laps, 64 KiB messages, recording off), built and
// simulated inside the core by core.simulateScenario. Prints events per second, best of 5.
//   node bench/sim_throughput_wasm.mjs
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const core = await require("../tests/wasm/load_core.cjs")();
const options = { ranks: 64, bytes: 65536, laps: 2000, alpha: 1e-6, beta: 1e-10, record: false };
core.simulateScenario("token-ring", options);  // warm-up
let best = Infinity, events = 0;
for (let i = 0; i < 5; i++) {
  const start = process.hrtime.bigint();
  events = core.simulateScenario("token-ring", options).events;
  best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e9);
}
console.log(`wasm (Node ${process.version}): token ring 64 ranks × 2000 laps: ${events} events in ${(best * 1e3).toFixed(1)} ms ` +
  `= ${(events / best / 1e6).toFixed(2)} M events/s`);
