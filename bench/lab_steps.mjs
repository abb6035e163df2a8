// Training steps per second of the parallelism lab in headless Chromium: the lab's rank program on a real
// Worker cluster, every rank holding its shard, computing with the wasm core and exchanging Float64 messages.
//   node bench/lab_steps.mjs [--dp 2 --tp 2 --pp 2] [--micro 4] [--steps 40] [--runs 3] [--width 32 --hidden 128] [--site dir]
//                            [--experts 4 --ep 2 --topk 1 --capacity 1.25]   (MoE blocks: every second block; experts 0 = dense)
// Needs the built site (bash scripts/serve.sh or scripts/test.sh builds it). Worker start-up is not timed (the
// cluster is ready and has run a 2-step warm-up before the clock starts); each run's time is from cluster.run()
// to its result, so it includes every message's trip through the page's deadlock bookkeeping. Prints the median
// over runs, the CPU time of all Chromium processes per step over the runs (what a step costs, whatever else the
// machine does — wall-clock steps/s moves with the machine's load), and checks that each run still equals
// single-device training (to 1e-12, else it exits 1: bench/lab_session.mjs). Where the CPU time goes:
// bench/lab_profile.mjs. bench/smoke.mjs runs --runs 1 --steps 4.
import { arg, labConfig, openLab, threadCpuMs, totalMs } from "./lab_session.mjs";

const config = labConfig();
const RUNS = Number(arg("runs", 3));
const site = arg("site", undefined);   // another built site (e.g. an older runtime, for a before/after)

const lab = await openLab(config, { site });
try {
  const cpu0 = totalMs(threadCpuMs(lab.profile));
  const result = await lab.runs(RUNS);
  const cpuMs = totalMs(threadCpuMs(lab.profile)) - cpu0;   // every Chromium process, the runs only (Workers already warm)
  const sorted = [...result.seconds].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const { dp, tp, pp, ep } = config.grid;
  console.log(JSON.stringify({
    grid: `${dp}x${tp}x${pp}`, ep, experts: config.moe.experts, workers: lab.ranks, model: config.model, batch: config.batch,
    microBatches: config.microBatches, fsdp: config.fsdp, steps: config.steps,
    seconds: result.seconds.map((t) => Number(t.toFixed(3))),
    steps_per_second: Number((config.steps / median).toFixed(2)),
    cpu_ms_per_step: Number((cpuMs / (config.steps * RUNS)).toFixed(1)),
    messages_per_step: result.messages / config.steps,
    max_relative_difference_vs_single_device: result.worst,
  }, null, 1));
} finally {
  await lab.close();
}
