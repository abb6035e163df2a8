// The core calls behind Week 5's widgets, timed in headless Chromium on the built site (site/): what a learner waits
// for when moving a control. A measurement, not a test (the machine may be shared): median of --runs loads.
//   node bench/week5_core_calls.mjs [--runs 3]
import { openSite } from "../tests/e2e/harness.mjs";

const i = process.argv.indexOf("--runs");
const RUNS = i > 0 ? Number(process.argv[i + 1]) : 3;
const site = await openSite();
const samples = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const page = await site.context.newPage();
    await page.goto(`${site.url}week5/`);
    await page.waitForSelector("html[data-ready=true]", { timeout: 120000 });
    const times = await page.evaluate(async () => {
      const core = window.dsml.core, out = {};
      const time = (name, f) => { const t0 = performance.now(); f(); out[name] = +(performance.now() - t0).toFixed(1); };
      time("pipelineTimeline interleaved P8 m32 v4", () => core.pipelineTimeline({ schedule: "interleaved", devices: 8, microBatches: 32, chunksPerDevice: 4 }));
      time("pipelineCompare ×4 (P8, v4)", () => [8, 16, 32, 64].forEach((m) => core.pipelineCompare({ devices: 8, microBatches: m, chunksPerDevice: 4 })));
      time("pipelineTrain zb-h1 P4 m8 5 steps", () => core.pipelineTrain({ schedule: "zb-h1", devices: 4, microBatches: 8, model: { layers: 4, width: 16, hidden: 32, activation: "tanh" }, optimizer: { kind: "adam", lr: 0.01 }, batch: 32, steps: 5, seed: 1 }));
      time("optimalMicroBatches ×2", () => { core.optimalMicroBatches({ stages: 8, compute: 0.5, overhead: 1e-3, max: 512 }); core.optimalMicroBatches({ stages: 8, compute: 0.5, overhead: 0, max: 512 }); });
      time("expertParallel E8 top-2 B64", () => core.expertParallel({ moe: { width: 16, hidden: 32, experts: 8, topK: 2, capacityFactor: 1.25 }, ranks: 4, batch: 64, seed: 1 }));
      time("price3dLayouts opt-30b", () => core.price3dLayouts({ model: "opt-30b", nodes: 8, gpusPerNode: 8 }));
      return out;
    });
    samples.push(times);
    await page.close();
  }
} finally {
  await site.close();
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const name of Object.keys(samples[0])) console.log(`${name}: ${median(samples.map((s) => s[name]))} ms (median of ${RUNS})`);
