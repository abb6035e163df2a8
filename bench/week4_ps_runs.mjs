// The parameter-server runs behind Week 4's backup-workers and stragglers widgets, timed in Node's wasm core: the
// page's own calls (lessons/week4/ps_setup.js), so what a learner waits for when moving their controls. A
// measurement, not a test (the machine may be shared): the median of --runs repetitions.
//   node bench/week4_ps_runs.mjs [--runs 5] [--build build/wasm/wasm-node]
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { backupRound, backupSweep, stragglerRounds } from "../lessons/week4/ps_setup.js";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const RUNS = Number(arg("--runs", 5));
const dir = resolve(arg("--build", "build/wasm/wasm-node"));
const core = await createRequire(import.meta.url)(join(dir, "dsml.cjs"))({
  wasmBinary: readFileSync(join(dir, "dsml.wasm")) });

const cases = {
  // The backup-workers widget's default sweep: P = 8, b = 0 … 8, 400 rounds each, stragglers cancelled.
  "backup-workers sweep (P 8, b 0…8, 400 rounds)": () => backupSweep(core, { quota: 8, max: 8, cancel: true }),
  // Its largest single call: 16 + 16 workers.
  "backup-workers b = 16 of P = 16": () => backupRound(core, { quota: 16, backup: 16 }),
  // The stragglers widget: 6 workers, 2000 bsp rounds.
  "stragglers (6 workers, 2000 rounds)": () => stragglerRounds(core, { distribution: "exponential" }),
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, run] of Object.entries(cases)) {
  run();  // warm up
  const times = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  console.log(`${name}: ${median(times).toFixed(1)} ms (median of ${RUNS})`);
}
