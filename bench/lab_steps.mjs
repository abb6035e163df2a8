// Training steps per second of the parallelism lab in headless Chromium: the lab's rank program on a real
// Worker cluster, every rank holding its shard, computing with the wasm core and exchanging Float64 messages.
//   node bench/lab_steps.mjs [--dp 2 --tp 2 --pp 2] [--micro 4] [--steps 40] [--runs 3] [--width 32 --hidden 128] [--site dir]
//                            [--experts 4 --ep 2 --topk 1 --capacity 1.25]   (MoE blocks: every second block; experts 0 = dense)
// Needs the built site (bash scripts/serve.sh or scripts/test.sh builds it). Worker start-up is not timed (the
// cluster is ready and has run a 2-step warm-up before the clock starts); each run's time is from cluster.run()
// to its result, so it includes every message's trip through the page's deadlock bookkeeping. Prints the median
// over runs, the CPU time of all Chromium processes per step over the runs (what a step costs, whatever else the
// machine does — wall-clock steps/s moves with the machine's load), and checks that each run still equals
// single-device training.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startServer } from "../scripts/serve.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const at = process.argv.indexOf("--site");   // another built site (e.g. an older runtime, for a before/after)
const SITE = at > 0 ? process.argv[at + 1] : new URL("../site/", import.meta.url).pathname;
if (!existsSync(join(SITE, "lab/programs/lab_program.js"))) {
  console.error("site/ is not built: run bash scripts/serve.sh (or scripts/test.sh) first");
  process.exit(2);
}
const config = {
  model: { layers: arg("layers", 4), width: arg("width", 32), hidden: arg("hidden", 128), activation: "gelu", residual: true },
  optimizer: { kind: "adam", lr: 0.003 },
  grid: { dp: arg("dp", 2), tp: arg("tp", 2), pp: arg("pp", 2), ep: arg("ep", 1) },
  moe: { experts: arg("experts", 0), topK: arg("topk", 1), capacityFactor: arg("capacity", 1.25), every: 2 },
  fsdp: process.argv.includes("--fsdp"), microBatches: arg("micro", 4), schedule: "1f1b",
  batch: arg("batch", 32), steps: arg("steps", 40), seed: 7,
};
const RUNS = arg("runs", 3);

// CPU time (user + system, ms) of every Chromium process this benchmark started: the work a step costs,
// whatever else the machine is doing (wall-clock steps/s moves with the machine's load; this does much less).
function chromiumCpuMs(profile) {
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(profile)) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);   // utime, stime (fields 14 and 15 of stat)
    } catch { /* the process ended */ }
  }
  return ticks * 10;   // USER_HZ = 100
}

const { server, url } = await startServer(SITE, 0);
const profile = mkdtempSync(join(tmpdir(), "dsml-bench-"));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: "/usr/bin/chromium", headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage();
  // A page of the site's origin that loads nothing itself (the course index would install the offline cache): a 404.
  await page.goto(new URL("bench-blank", url).href);
  // Set-up first (Workers started and warm, the single-device reference), then only the runs are measured.
  await page.evaluate(async ({ config }) => {
    const { Cluster } = await import("./web/cluster/cluster.js");
    const { compileCore, loadCore } = await import("./web/wasm.js");
    const lab = await import("./lab/programs/lab_program.js");
    const core = await loadCore();
    const ranks = config.grid.dp * config.grid.tp * config.grid.pp;
    const cluster = new Cluster(ranks, { wasmModule: await compileCore() });
    await cluster.ready();
    const warm = await cluster.run(lab.labProgram(), { inputs: lab.labInputs({ ...config, steps: 2 }), timeoutMs: 600000 });
    if (warm.status !== "ok") throw new Error(`warm-up run: ${warm.status}`);
    const { fn, request } = lab.referenceRequest(config);
    const ref = core[fn](request);
    window.bench = { lab, cluster, ranks, ref };
  }, { config });
  const cpu0 = chromiumCpuMs(profile);
  const result = await page.evaluate(async ({ config, runs }) => {
    const { lab, cluster, ranks, ref } = window.bench;
    const times = [];
    let worst = 0, messages = 0;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      const run = await cluster.run(lab.labProgram(), { inputs: lab.labInputs(config), timeoutMs: 600000 });
      times.push((performance.now() - t) / 1000);
      if (run.status !== "ok") throw new Error(`run ${i}: ${run.status} ${JSON.stringify(run.error ?? run.timeout)}`);
      worst = Math.max(worst, lab.maxRelativeDifference(lab.assembleParams(run.results, config).params, ref.params));
      messages = run.trace.length;
    }
    return { ranks, times, worst, messages };
  }, { config, runs: RUNS });
  const cpuMs = chromiumCpuMs(profile) - cpu0;   // every Chromium process, the runs only (Workers already warm)
  const sorted = [...result.times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const { dp, tp, pp, ep } = config.grid;
  console.log(JSON.stringify({
    grid: `${dp}x${tp}x${pp}`, ep, experts: config.moe.experts, workers: result.ranks, model: config.model, batch: config.batch,
    microBatches: config.microBatches, fsdp: config.fsdp, steps: config.steps,
    seconds: result.times.map((t) => Number(t.toFixed(3))),
    steps_per_second: Number((config.steps / median).toFixed(2)),
    cpu_ms_per_step: Number((cpuMs / (config.steps * RUNS)).toFixed(1)),
    messages_per_step: result.messages / config.steps,
    max_relative_difference_vs_single_device: result.worst,
  }, null, 1));
} finally {
  await browser.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
