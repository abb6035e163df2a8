// lab_session.mjs — what bench/lab_steps.mjs and bench/lab_profile.mjs share: the lab's configuration from the
// command line, a headless Chromium on a built site with the lab's cluster started and warm, the timed runs, and
// the CPU time of the Chromium processes (per process or per thread) read from /proc.
//   const lab = await openLab(labConfig(), { site, args });   await lab.runs(3);   await lab.close();
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startServer } from "../scripts/serve.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../scripts/chromium.mjs";

export const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};

// The lab's configuration (the page's defaults unless the command line says otherwise).
export function labConfig() {
  const n = (name, fallback) => Number(arg(name, fallback));
  return {
    model: { layers: n("layers", 4), width: n("width", 32), hidden: n("hidden", 128), activation: "gelu", residual: true },
    optimizer: { kind: "adam", lr: 0.003 },
    grid: { dp: n("dp", 2), tp: n("tp", 2), pp: n("pp", 2), ep: n("ep", 1) },
    moe: { experts: n("experts", 0), topK: n("topk", 1), capacityFactor: n("capacity", 1.25), every: 2 },
    fsdp: process.argv.includes("--fsdp"), microBatches: n("micro", 4), schedule: "1f1b",
    batch: n("batch", 32), steps: n("steps", 40), seed: 7,
  };
}

// CPU time (user + system, ms) of the Chromium processes whose command line names `profile`, summed per thread
// name ("DedicatedWorker" = the ranks, "chromium" = a process's main thread: the page, "ThreadPoolForeg" = V8's
// background compilers and GC helpers, …) and prefixed with the process type ("renderer/DedicatedWorker").
export function threadCpuMs(profile) {
  const byThread = new Map();
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (!cmdline.includes(profile)) continue;
      const type = /--type=([a-z-]+)/.exec(cmdline)?.[1] ?? "browser";
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
        const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")).replace(/\d+$/, "");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        const key = `${type}/${name}`;
        byThread.set(key, (byThread.get(key) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10);  // utime, stime; USER_HZ = 100
      }
    } catch { /* the process or thread ended */ }
  }
  return byThread;
}

// The largest relative difference from single-device training a run may have (tests/exercises/lab_program.test.mjs).
export const SAME_AS_ONE_DEVICE = 1e-12;

export const totalMs = (byThread) => [...byThread.values()].reduce((a, b) => a + b, 0);

// Chromium on `site` with the lab's cluster ready and warm (a 2-step run) and the single-device reference computed.
// args: extra Chromium switches (e.g. --js-flags=…). Returns { page, profile, ranks, runs(n), close() }.
export async function openLab(config, { site = new URL("../site/", import.meta.url).pathname, args = [] } = {}) {
  if (!existsSync(join(site, "lessons/lab/programs/lab_program.js"))) {
    throw new Error(`${site} is not a built site: run bash scripts/serve.sh (or scripts/test.sh) first`);
  }
  const { server, url } = await startServer(site, 0);
  const profile = mkdtempSync(join(tmpdir(), "dsml-bench-"));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, ...args],
  });
  const close = async () => {
    await browser.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    const page = await browser.newPage();
    // A page of the site's origin that loads nothing itself (the course index would install the offline cache): a 404.
    await page.goto(new URL("bench-blank", url).href);
    const ranks = await page.evaluate(async ({ config }) => {
      const { Cluster } = await import("./web/cluster/cluster.js");
      const { compileCore, loadCore } = await import("./web/wasm.js");
      const lab = await import("./lessons/lab/programs/lab_program.js");
      const { maxRelativeDifference } = await import("./web/exercise/compare_training.js");
      const core = await loadCore();
      const ranks = config.grid.dp * config.grid.tp * config.grid.pp;
      const cluster = new Cluster(ranks, { wasmModule: await compileCore() });
      await cluster.ready();
      const warm = await cluster.run(lab.labProgram(), { inputs: lab.labInputs({ ...config, steps: 2 }), timeoutMs: 600000 });
      if (warm.status !== "ok") throw new Error(`warm-up run: ${warm.status}`);
      // The single-device run the lab must equal (with MoE blocks: core.trainSingleMoe). A site from before the lab's
      // expert axis has no referenceRequest and trains dense models only.
      const { fn, request } = lab.referenceRequest?.(config) ??
        { fn: "trainSingle", request: { model: config.model, optimizer: config.optimizer, batch: config.batch, steps: config.steps, seed: config.seed } };
      const ref = core[fn](request);
      window.bench = { lab, cluster, ref, maxRelativeDifference };
      return ranks;
    }, { config });
    // `n` runs one after the other: their wall-clock seconds, the trace's messages per run, and the largest
    // relative difference of a run's parameters from single-device training — which must stay within
    // SAME_AS_ONE_DEVICE (the lab's tests' bound), or runs() throws: a fast wrong run measures nothing.
    const runs = (n) => page.evaluate(async ({ config, n }) => {
      const { lab, cluster, ref, maxRelativeDifference } = window.bench;
      const seconds = [];
      let worst = 0, messages = 0;
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        const run = await cluster.run(lab.labProgram(), { inputs: lab.labInputs(config), timeoutMs: 600000 });
        seconds.push((performance.now() - t) / 1000);
        if (run.status !== "ok") throw new Error(`run ${i}: ${run.status} ${JSON.stringify(run.error ?? run.timeout)}`);
        worst = Math.max(worst, maxRelativeDifference(lab.assembleParams(run.results, config).params, ref.params));
        messages = run.trace.length;
      }
      return { seconds, worst, messages };
    }, { config, n }).then((result) => {
      if (!(result.worst <= SAME_AS_ONE_DEVICE)) {
        throw new Error(`the lab's parameters differ from single-device training by ${result.worst} (> ${SAME_AS_ONE_DEVICE})`);
      }
      return result;
    });
    return { page, profile, ranks, runs, close };
  } catch (err) {
    await close();
    throw err;
  }
}
