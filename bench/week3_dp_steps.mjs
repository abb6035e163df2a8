// Steps per second of Week 3's live data-parallel trainer in headless Chromium: programs/dp_train.js on P real
// Workers, each a full replica computing with the wasm core, synchronising by the chosen DDP (bucketed = all-reduce
// launched during backward, the default), on the dp-curves widget's configuration.
//   node bench/week3_dp_steps.mjs [--workers 8] [--sync bucketed|flat|naive] [--bucket 16384] [--runs 3] [--site dir]
//                                 [--steps N]   (default the widget's 30)
// Needs a built site. Worker start-up is not timed; each run's time is from cluster.run() to its result. Prints the
// median over runs (wall clock: it moves with the machine's load — report `uptime` beside it) and checks that every
// run still equals single-device training: it exits 1 if the replicas or one device differ by more than 1e-12 (the
// bound of tests/exercises/week3_checkers.test.mjs). bench/smoke.mjs runs --workers 2 --runs 1 --steps 5.
// messages_per_step counts the trace's point-to-point messages; all_reduces_per_step divides by a ring all-reduce's
// 2(P−1)·P. With the default 16 KiB buckets every weight matrix of the widget's model (32 × 64 fp64 = 16 KiB) is its
// own bucket, so bucketed and naive launch the same 8 all-reduces and differ only in WHEN (bucketed during
// backward, naive after it); --bucket 65536 makes 2 buckets, --sync flat 1 all-reduce.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { openSite, SITE } from "../tests/e2e/harness.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const dir = arg("site", SITE);
if (!existsSync(join(dir, "lessons/week3/programs/dp_program.js"))) {
  console.error(`${dir} is not a built site: node scripts/assemble_site.mjs site --wasm build/wasm/wasm`);
  process.exit(2);
}
const options = { P: Number(arg("workers", 8)), sync: arg("sync", "bucketed"), bucket: Number(arg("bucket", 16384)), runs: Number(arg("runs", 3)),
  steps: arg("steps", undefined) };

const site = await openSite({ dir });
try {
  const page = await site.context.newPage();
  await page.goto(new URL("bench-blank", site.root).href);   // the site's origin, nothing loaded (a 404)
  const result = await page.evaluate(async ({ P, sync, bucket, runs, steps }) => {
    const { Cluster } = await import("./web/cluster/cluster.js");
    const { compileCore, loadCore } = await import("./web/wasm.js");
    const dp = await import("./lessons/week3/programs/dp_program.js");
    const { maxRelativeDifference } = await import("./web/exercise/compare_training.js");
    const { CURVES_CONFIG } = await import("./lessons/week3/widgets/dp_curves.js");
    const config = { ...CURVES_CONFIG, sync, bucketBytes: bucket, ...(steps ? { steps: Number(steps) } : {}) };
    const core = await loadCore();
    const cluster = new Cluster(P, { wasmModule: await compileCore() });
    await cluster.ready();
    const ref = core.trainSingle({ model: config.model, optimizer: config.optimizer, batch: config.batch, steps: config.steps, seed: config.seed });
    const times = [];
    let worst = 0, messages = 0;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      const run = await cluster.run(dp.dpProgram(), { inputs: dp.dpInputs(config, P), timeoutMs: 600000 });
      times.push((performance.now() - t) / 1000);
      if (run.status !== "ok") throw new Error(`run ${i}: ${run.status} ${JSON.stringify(run.error ?? run.timeout)}`);
      worst = Math.max(worst, dp.replicaGap(run.results), maxRelativeDifference(run.results[0].params, ref.params));
      messages = run.trace.length;
    }
    cluster.terminate();
    return { config, times, worst, messages };
  }, options);
  const sorted = [...result.times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(JSON.stringify({
    workers: options.P, sync: options.sync, bucket_bytes: options.bucket, model: result.config.model, batch: result.config.batch,
    steps: result.config.steps, seconds: result.times.map((t) => Number(t.toFixed(3))),
    steps_per_second: Number((result.config.steps / median).toFixed(2)), messages_per_step: result.messages / result.config.steps,
    all_reduces_per_step: options.P > 1 ? result.messages / result.config.steps / (2 * (options.P - 1) * options.P) : 0,
    max_relative_difference_vs_single_device: result.worst,
  }, null, 1));
  if (!(result.worst <= 1e-12)) {
    console.error(`error: the runs differ from single-device training by ${result.worst} (> 1e-12)`);
    process.exitCode = 1;
  }
} finally {
  await site.close();
}
